"""Pack counters and pack Requisitions as plain rules (R6, R7, R11.4)."""

import pytest

from campaign import rules
from campaign.rules.counters import (
    IN_BATTLE,
    CounterSpec,
    bounds_refusal,
    cost_refusal,
    pack_requisition_refusals,
)

SALVAGE = CounterSpec(name="Salvage", start=0, least=0, most=20)
FAITH = CounterSpec(name="Faith", start=2, least=1, most=5)


@pytest.mark.parametrize(
    ("counter", "value", "refused"),
    [
        (SALVAGE, 0, False),
        (SALVAGE, 20, False),
        (SALVAGE, 21, True),
        (SALVAGE, -1, True),
        (FAITH, 1, False),
        (FAITH, 0, True),
    ],
)
def test_it_keeps_a_counter_within_its_bounds(counter, value, refused):
    """R11.4: a counter holds only values from its least to its most."""
    assert (bounds_refusal(counter, value) is not None) is refused


def test_it_says_how_far_a_counter_would_go_out_of_bounds():
    assert bounds_refusal(SALVAGE, 21) == "Salvage can't go above 20; that would make it 21."


def test_it_refuses_a_counter_cost_with_what_the_force_has():
    """R6: the refusal gives the numbers."""
    assert cost_refusal(cost=3, cost_in="salvage", rp=5, counter=SALVAGE, held=1) == (
        "It costs 3 Salvage; the force has 1, so 1 to spend."
    )
    assert cost_refusal(cost=3, cost_in="salvage", rp=0, counter=SALVAGE, held=3) is None


def test_it_spends_a_counter_only_down_to_its_least_value():
    """R11.4: Faith can't go below 1, so 3 Faith buys at most a cost of 2."""
    assert cost_refusal(cost=2, cost_in="faith", rp=0, counter=FAITH, held=3) is None
    refusal = cost_refusal(cost=3, cost_in="faith", rp=0, counter=FAITH, held=3)
    assert "can't go below 1" in refusal and "2 to spend" in refusal


def test_it_refuses_an_rp_cost_as_the_core_requisitions_do():
    """R6: the same words as a core Requisition's."""
    assert cost_refusal(cost=2, cost_in="rp", rp=1, counter=None, held=0) == rules.rp_refusal(
        rp=1, cost=2
    )


def test_it_refuses_every_pack_requisition_during_a_battle():
    """R6 and R9's timing decision: never during a battle, whatever it costs."""
    reasons = pack_requisition_refusals(in_battle=True, cost=0, cost_in="rp", rp=10)
    assert reasons == [IN_BATTLE]


def test_it_judges_a_change_from_what_is_left_after_paying_in_the_same_counter():
    """A Requisition that pays 2 Salvage and adds 5 moves Salvage from 19 to 22: refused."""
    reasons = pack_requisition_refusals(
        in_battle=False,
        cost=2,
        cost_in="salvage",
        rp=0,
        cost_counter=SALVAGE,
        cost_held=19,
        changed=SALVAGE,
        changed_held=19,
        change=5,
        same_counter=True,
    )
    assert reasons == ["Salvage can't go above 20; that would make it 22."]


def test_it_refuses_an_upgrade_the_unit_already_holds():
    reasons = pack_requisition_refusals(
        in_battle=False, cost=1, cost_in="rp", rp=3, upgrade_held="Standard Bearers"
    )
    assert reasons == ["Standard Bearers already has this upgrade."]


@pytest.mark.parametrize("upgrades", [(), (2,), (1, 3)])
def test_it_adds_upgrades_crusade_points_to_a_units(upgrades):
    """R7: honours - scars, plus each upgrade's Crusade points from its pack."""
    base = rules.crusade_points(battle_honours=2, battle_scars=1)
    assert rules.crusade_points(battle_honours=2, battle_scars=1, upgrades=upgrades) == base + sum(
        upgrades
    )


def test_it_refuses_negative_upgrade_points():
    with pytest.raises(ValueError):
        rules.crusade_points(battle_honours=0, battle_scars=0, upgrades=(-1,))
