"""Pack counters and pack Requisitions (R6, R7, R11.4), through the services."""

import pytest

from campaign import services
from campaign.models import (
    CounterValue,
    CustomContent,
    HistoryAction,
    PackRequisitionPurchase,
    UnitUpgrade,
)
from campaign.services import counters
from tests.counter_packs import item, organiser_of, with_sample_pack, with_veteran_pack
from tests.factories import make_campaign, make_force, make_unit, reload
from tests.services.checks import latest_history, refused
from tests.services.earned import set_rp

pytestmark = pytest.mark.django_db

COUNTER = CustomContent.Kind.COUNTER


@pytest.fixture
def campaign():
    return with_veteran_pack(with_sample_pack(make_campaign()))


@pytest.fixture
def force(campaign):
    return make_force(campaign=campaign, name="Salvagers")


def value_of(force, key: str, unit=None) -> int:
    content = counters.pack_content(
        force.campaign_id, force_id=force.pk, unit_id=unit.pk if unit else None
    )
    row = next(c for c in content.of(COUNTER) if c.key == key)
    return counters.held(row, per_unit=unit is not None)


def buy(key: str, force=None, unit=None):
    holder = force or unit.force
    return services.buy_pack_requisition(
        actor=holder.player, requisition=item(key), force=force, unit=unit
    )


def test_it_gives_a_force_the_start_value_of_a_counter_it_never_changed(force):
    """R11.4: a counter starts at its pack's start value, and no row is kept until it moves."""
    assert value_of(force, "salvage") == 0
    assert value_of(force, "honour") == 2
    assert not CounterValue.objects.exists()


def test_it_pays_rp_and_adds_to_the_counter_in_one_purchase_with_a_history_row(force):
    """R6: Scavenging Party costs 1RP and adds 2 Salvage (R11.4: a pack Requisition)."""
    rp = force.rp

    purchase = buy("scavenging-party", force=force)

    assert reload(force).rp == rp - 1
    assert value_of(force, "salvage") == 2
    assert purchase.cost_label == "1RP"
    row = latest_history(HistoryAction.PACK_REQUISITION_BOUGHT, force=force)
    assert row.changes == {"rp": [rp, rp - 1], "salvage": [0, 2]}
    assert "Scavenging Party" in row.summary


def test_it_refuses_a_counter_cost_the_force_cannot_pay_and_gives_the_numbers(force):
    """R6: Field Workshop costs 3 Salvage; with 2 it is refused, and nothing changes."""
    unit = make_unit(force, name="Chimera")
    buy("scavenging-party", force=force)

    with refused(containing=["costs 3 Salvage", "the force has 2"]):
        buy("field-workshop", unit=unit)


def test_it_spends_a_counter_and_records_the_effect_text(force):
    """R6: a text effect is kept on the purchase and in the history."""
    unit = make_unit(force, name="Chimera")
    buy("scavenging-party", force=force)
    buy("scavenging-party", force=force)

    purchase = buy("field-workshop", unit=unit)

    assert value_of(force, "salvage") == 1
    assert purchase.effect.startswith("Trade 3 Salvage")
    assert purchase.cost_label == "3 Salvage"
    assert PackRequisitionPurchase.objects.filter(force=force).count() == 3
    row = latest_history(HistoryAction.PACK_REQUISITION_BOUGHT, unit=unit)
    assert row.changes == {"salvage": [4, 1]}
    assert "Trade 3 Salvage" in row.summary


def test_it_refuses_a_change_that_would_take_a_counter_past_its_bound(force):
    """R11.4: Salvage is at most 20: at 20 Scavenging Party is refused with the numbers."""
    services.correct_counter(
        actor=organiser_of(force.campaign),
        force=force,
        counter=item("salvage", COUNTER),
        value=19,
        reason="Paper records",
    )

    with refused(containing=["Salvage can't go above 20", "make it 21"]):
        buy("scavenging-party", force=force)


def test_it_refuses_pack_requisitions_during_a_battle(force):
    """R6 and R9's timing decision: a force in a battle buys no Requisition."""
    services.start_battle(
        actor=force.player, force=force, battle_size="Incursion", campaign=force.campaign
    )

    with refused(containing=["while a battle is being fought"]):
        buy("scavenging-party", force=force)


def test_it_sells_before_and_after_battle_requisitions_between_battles(force):
    """R6: "before a battle" and "after a battle" are judged as the core Requisitions with
    those timings are: only a battle being fought refuses them."""
    unit = make_unit(force)

    buy("sing-deeds", unit=unit)  # before_battle
    buy("scavenging-party", force=force)  # after_battle

    assert value_of(force, "glory", unit=unit) == 2


def test_it_gives_an_upgrade_whose_crusade_points_count_for_the_unit_and_the_force(force):
    """R7: the upgrade's Crusade points add to the unit's, and to the force's stored total."""
    unit = make_unit(force, name="Standard Bearers")

    buy("raise-pennant", unit=unit)

    unit = counters.common.fresh_unit(unit)
    assert unit.crusade_points == 2
    assert reload(force).crusade_points == 2
    assert value_of(force, "honour") == 0
    upgrade = UnitUpgrade.objects.get(unit=unit)
    assert (upgrade.name, upgrade.crusade_points) == ("Battle Pennant", 2)
    row = latest_history(HistoryAction.PACK_REQUISITION_BOUGHT, unit=unit)
    assert row.changes["crusade_points"] == [0, 2]


def test_it_refuses_the_same_upgrade_twice(force):
    unit = make_unit(force, name="Standard Bearers")
    services.correct_counter(
        actor=organiser_of(force.campaign),
        force=force,
        counter=item("honour", COUNTER),
        value=5,
        reason="Paper records",
    )
    buy("raise-pennant", unit=unit)

    with refused(containing=["Standard Bearers already has this upgrade"]):
        buy("raise-pennant", unit=unit)


def test_it_refuses_a_unit_requisition_without_a_unit_and_a_force_one_for_a_unit(force):
    unit = make_unit(force)
    with refused(containing=["Pick a unit for Raise a Pennant"]):
        buy("raise-pennant", force=force)
    with refused(containing=["for the whole force"]):
        buy("scavenging-party", unit=unit)


def test_it_refuses_a_requisition_of_a_pack_the_campaign_does_not_enable(force):
    other = make_force(campaign=make_campaign(), name="Elsewhere")
    with refused("That is not one of this campaign's Requisitions."):
        buy("scavenging-party", force=other)


def test_it_refuses_rp_the_force_does_not_have_with_the_numbers(force):
    set_rp(force, 0)
    with refused(containing=["That needs 1RP; you have 0RP."]):
        buy("scavenging-party", force=force)


def test_it_lets_an_organiser_correct_a_counter_with_a_reason_and_a_history_row(force):
    """R11.4: an organiser's correction, with a reason, within the bounds."""
    organiser = organiser_of(force.campaign)
    services.correct_counter(
        actor=organiser,
        force=force,
        counter=item("salvage", COUNTER),
        value=7,
        reason="Found a paper record",
    )

    assert value_of(force, "salvage") == 7
    row = latest_history(HistoryAction.COUNTER_CORRECTED, force=force)
    assert row.reason == "Found a paper record"
    assert row.changes == {"salvage": [0, 7]}


def test_it_refuses_a_correction_outside_the_bounds_or_without_a_reason(force):
    organiser = organiser_of(force.campaign)
    salvage = item("salvage", COUNTER)
    with refused(containing=["Salvage can't go below 0"]):
        services.correct_counter(
            actor=organiser, force=force, counter=salvage, value=-1, reason="Oops"
        )
    with refused(containing=["Say why"]):
        services.correct_counter(actor=organiser, force=force, counter=salvage, value=3, reason="")


def test_it_corrects_a_unit_counter_only_for_a_unit(force):
    organiser = organiser_of(force.campaign)
    unit = make_unit(force)
    glory = item("glory", COUNTER)
    with refused(containing=["pick the unit"]):
        services.correct_counter(actor=organiser, force=force, counter=glory, value=2, reason="x")

    services.correct_counter(
        actor=organiser, force=force, unit=unit, counter=glory, value=3, reason="Paper"
    )

    assert value_of(force, "glory", unit=unit) == 3


def test_it_sells_to_a_force_invited_to_a_battle_it_has_not_answered(force, campaign):
    """R9's timing decision: an invited force that hasn't answered is not yet in the battle."""
    rival = make_force(campaign=campaign, name="Rivals")
    services.start_battle(
        actor=rival.player, force=rival, opponents=[force], battle_size="Incursion"
    )

    buy("scavenging-party", force=force)

    assert value_of(force, "salvage") == 2


def test_it_reads_a_campaigns_pack_items_and_none_for_a_force_without_a_campaign(campaign):
    elsewhere = make_campaign(name="Another league")
    items = counters.pack_items(campaign.pk)

    assert items and {i.pack_id for i in items} <= set(
        campaign.enabled_packs.values_list("pack_id", flat=True)
    )
    assert counters.pack_items(elsewhere.pk) == []
    assert counters.pack_items(None) == []
