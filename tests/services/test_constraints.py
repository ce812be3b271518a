"""Style rule 5: hard invariants are also database constraints, whatever the caller."""

import pytest
from django.db import IntegrityError, transaction

from campaign.models import CrusadeForce, Unit
from tests.factories import make_user
from tests.services.cards import krieg_force, krieg_squad

pytestmark = pytest.mark.django_db


def namesake(unit: Unit) -> Unit:
    """A new card with `unit`'s name in its force, written past the services."""
    return Unit.objects.create(
        force=unit.force,
        name=unit.name,
        datasheet=unit.datasheet,
        points=unit.points,
        faction_keywords=unit.faction_keywords,
    )


def test_it_refuses_a_force_holding_more_rp_than_its_cap_in_the_database():
    """R1.5: RP never exceeds the cap, even written past the services."""
    with transaction.atomic(), pytest.raises(IntegrityError):
        CrusadeForce.objects.create(
            player=make_user(),
            name="Overflowing Coffers",
            faction="Astra Militarum",
            supply_limit=1000,
            rp=11,
            rp_cap=10,
        )

    assert not CrusadeForce.objects.exists()


def test_it_refuses_two_active_units_with_one_name_in_the_database():
    """R2.1: a unit's name is unique among the force's active units."""
    squad = krieg_squad(krieg_force())

    with transaction.atomic(), pytest.raises(IntegrityError):
        namesake(squad)

    assert Unit.objects.filter(name=squad.name).count() == 1


def test_it_lets_a_removed_unit_share_its_name_in_the_database():
    """R1.4: the uniqueness is among active units only."""
    squad = krieg_squad(krieg_force())
    Unit.objects.filter(pk=squad.pk).update(status="removed", removed_at=squad.created_at)

    namesake(squad)

    assert Unit.objects.filter(name=squad.name).count() == 2
