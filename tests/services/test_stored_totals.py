"""A force's stored totals (Supply Used, Crusade points, units) always equal what the
rules derive from its cards (R1.3, R7); its revision, the number of its history rows, and
a campaign's, the number of its rows that name no force (`selectors.versions`): checked
after every service that changes state."""

import pytest
from django.db.models import Count, Q

from campaign.models import Campaign, CrusadeForce
from campaign.services._common import force_totals
from tests.services.test_history import CALLS, world

pytestmark = pytest.mark.django_db


def stored_and_derived() -> dict[int, tuple[dict, dict]]:
    return {
        force.pk: ({f: getattr(force, f) for f in CrusadeForce.TOTAL_FIELDS}, force_totals(force))
        for force in CrusadeForce.objects.all()
    }


@pytest.mark.parametrize("name", sorted(CALLS))
def test_it_keeps_every_forces_stored_totals_equal_to_its_cards(name):
    w = world()

    CALLS[name](w)

    for stored, derived in stored_and_derived().values():
        assert stored == derived


def test_it_stores_totals_that_are_not_all_zero():
    """The check above is not vacuous: a force with cards has non-zero totals."""
    w = world()
    CALLS["settle_with_battle_trait"](w)

    force = CrusadeForce.objects.get(pk=w.force.pk)
    assert force.supply_used > 0
    assert force.unit_count == 2
    assert force.crusade_points == 1


@pytest.mark.parametrize("name", sorted(CALLS))
def test_it_keeps_every_forces_revision_equal_to_its_history_rows(name):
    """The Order of Battle caches its units table under the revision: a change that did
    not move it on would leave the page showing what was there before."""
    w = world()

    CALLS[name](w)

    forces = CrusadeForce.objects.annotate(rows=Count("history")).values_list("revision", "rows")
    assert all(revision == rows for revision, rows in forces)
    assert any(rows for _, rows in forces)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_it_keeps_every_campaigns_revision_equal_to_its_rows_that_name_no_force(name):
    """The campaign page caches its lists under the campaign's revision and its forces'."""
    w = world()

    CALLS[name](w)

    own = Count("history", filter=Q(history__force__isnull=True))
    campaigns = Campaign.objects.annotate(rows=own).values_list("revision", "rows")
    assert all(revision == rows for revision, rows in campaigns)
    assert any(rows for _, rows in campaigns)
