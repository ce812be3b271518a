"""A force's pack counters and its units' upgrades travel in its export (R7, R11.4)."""

import pytest
from django.core.exceptions import ValidationError

from campaign import selectors, services
from campaign.models import CounterValue, CustomContent, UnitUpgrade
from tests.counter_packs import item, organiser_of, with_sample_pack, with_veteran_pack
from tests.factories import make_campaign, make_force, make_unit

pytestmark = pytest.mark.django_db

COUNTER = CustomContent.Kind.COUNTER


@pytest.fixture
def campaign():
    return with_veteran_pack(with_sample_pack(make_campaign()))


@pytest.fixture
def force(campaign):
    force = make_force(campaign=campaign, name="Scrap Kings")
    bearers = make_unit(force, name="Standard Bearers")
    make_unit(force, name="Plain Squad")
    organiser = organiser_of(campaign)
    for key, value, unit in (("salvage", 7, None), ("honour", 4, None), ("glory", 3, bearers)):
        services.correct_counter(
            actor=organiser,
            force=force,
            unit=unit,
            counter=item(key, COUNTER),
            value=value,
            reason="Paper",
        )
    services.buy_pack_requisition(
        actor=force.player, unit=bearers, requisition=item("raise-pennant")
    )
    return force


def restore(document, campaign, player, name="Copy"):
    return services.restore_force(
        actor=player, player=player, campaign=campaign, document=document, name=name
    )


def counters_of(force) -> dict:
    rows = CounterValue.objects.filter(force=force).select_related("counter", "unit")
    return {(row.counter.key, row.unit.name if row.unit else None): row.value for row in rows}


def test_it_carries_counters_and_upgrades_through_an_export_and_a_restore(force, campaign):
    document = selectors.force_document(force)

    copy = restore(document, campaign, force.player)

    assert counters_of(copy) == {
        ("salvage", None): 7,
        ("honour", None): 2,
        ("glory", "Standard Bearers"): 3,
    }
    upgrade = UnitUpgrade.objects.get(unit__force=copy)
    assert (upgrade.unit.name, upgrade.name, upgrade.crusade_points) == (
        "Standard Bearers",
        "Battle Pennant",
        2,
    )
    assert copy.crusade_points == 2  # R7: the upgrade's points count


def test_it_restores_an_export_without_pack_keys(force, campaign):
    """Older exports lack the new keys: they still restore."""
    document = selectors.force_document(force)
    document.pop("counters")
    for unit in document["units"]:
        unit.pop("counters"), unit.pop("upgrades")

    copy = restore(document, campaign, force.player)

    assert not CounterValue.objects.filter(force=copy).exists()
    assert copy.units.count() == 2


def test_it_refuses_an_upgrade_the_campaigns_packs_do_not_have(force):
    document = selectors.force_document(force)
    other = with_sample_pack(make_campaign(name="Elsewhere"))
    services.join_campaign(actor=force.player, user=force.player, campaign=other)
    document["units"][0]["counters"] = []
    document["counters"] = [row for row in document["counters"] if row["counter"] == "salvage"]

    with pytest.raises(ValidationError) as error:
        restore(document, other, force.player)

    assert error.value.messages == [
        "Unit 1 'Standard Bearers': the upgrade Battle Pennant ('pennant' of the pack "
        "'test-veterans') is not in this campaign's packs."
    ]


def test_it_refuses_a_counter_outside_its_bounds(force, campaign):
    """R11.4: Salvage is from 0 to 20, whatever a file says."""
    document = selectors.force_document(force)
    document["counters"][0]["value"] = 25

    with pytest.raises(ValidationError) as error:
        restore(document, campaign, force.player)

    assert error.value.messages == [
        "counters[0]: Salvage can't go above 20; that would make it 25."
    ]


def test_it_refuses_a_unit_counter_the_campaign_does_not_count(force, campaign):
    document = selectors.force_document(force)
    document["units"][0]["counters"][0]["counter"] = "biomass"

    with pytest.raises(ValidationError, match="Unit 1 'Standard Bearers': the counter 'biomass'"):
        restore(document, campaign, force.player)


def test_it_refuses_the_same_upgrade_twice_on_a_card(force, campaign):
    document = selectors.force_document(force)
    upgrades = document["units"][0]["upgrades"]
    upgrades.append(dict(upgrades[0]))

    with pytest.raises(ValidationError, match="holds the upgrade Battle Pennant twice"):
        restore(document, campaign, force.player)
