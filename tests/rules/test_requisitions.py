"""R6 Requisitions: costs and refusals."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules import (
    REQUISITION_MAX_COST,
    Keyword,
    Requisition,
    UnitFacts,
    requisition_cost,
    requisition_refusals,
)

RULES = settings(max_examples=100, deadline=None, database=None)
R = Requisition

HERO = UnitFacts(name="Captain Varro", xp=10, pending_promotions=1, keywords={Keyword.CHARACTER})
SQUAD = UnitFacts(name="Squad Dorn", xp=30)
UNIT_REQUISITIONS = [req for req in Requisition if req is not R.INCREASE_SUPPLY_LIMIT]


@pytest.mark.parametrize(
    ("req", "value", "label"),
    [
        (R.INCREASE_SUPPLY_LIMIT, "increase_supply_limit", "Increase Supply Limit"),
        (R.RENOWNED_HEROES, "renowned_heroes", "Renowned Heroes"),
        (R.LEGENDARY_VETERANS, "legendary_veterans", "Legendary Veterans"),
        (R.REARM_AND_RESUPPLY, "rearm_and_resupply", "Rearm and Resupply"),
        (R.REPAIR_AND_RECUPERATE, "repair_and_recuperate", "Repair and Recuperate"),
        (R.FRESH_RECRUITS, "fresh_recruits", "Fresh Recruits"),
    ],
)
def test_it_names_the_six_r6_requisitions(req, value, label):
    """R6.1-R6.6: stored value and printed name."""
    assert req.value == value
    assert req.label == label
    assert Requisition(value) is req


@pytest.mark.parametrize(
    ("req", "honours", "others", "cost"),
    [
        (R.INCREASE_SUPPLY_LIMIT, 0, 0, 1),
        (R.RENOWNED_HEROES, 0, 0, 1),
        (R.RENOWNED_HEROES, 0, 1, 2),
        (R.RENOWNED_HEROES, 0, 2, 3),
        (R.RENOWNED_HEROES, 0, 7, 3),
        (R.LEGENDARY_VETERANS, 0, 0, 3),
        (R.REARM_AND_RESUPPLY, 3, 4, 1),
        (R.REPAIR_AND_RECUPERATE, 0, 0, 1),
        (R.REPAIR_AND_RECUPERATE, 3, 0, 4),
        (R.REPAIR_AND_RECUPERATE, 4, 0, 5),
        (R.REPAIR_AND_RECUPERATE, 6, 0, 5),
        (R.FRESH_RECRUITS, 0, 0, 1),
        (R.FRESH_RECRUITS, 1, 0, 2),
        (R.FRESH_RECRUITS, 3, 0, 3),
        (R.FRESH_RECRUITS, 6, 0, 4),
        (R.FRESH_RECRUITS, 9, 0, 4),
    ],
)
def test_it_charges_the_worked_r6_costs_and_maxima(req, honours, others, cost):
    """R6 worked costs: Renowned Heroes with one other Enhancement 2RP (max 3); Repair on
    3 honours 4RP (max 5); Fresh Recruits 0/3/6 honours 1/3/4RP (max 4); the rest 1RP,
    Legendary Veterans 3RP."""
    assert requisition_cost(req, battle_honours=honours, other_enhancements=others) == cost


@pytest.mark.parametrize(
    ("req", "most"),
    [
        (R.INCREASE_SUPPLY_LIMIT, 1),
        (R.RENOWNED_HEROES, 3),
        (R.LEGENDARY_VETERANS, 3),
        (R.REARM_AND_RESUPPLY, 1),
        (R.REPAIR_AND_RECUPERATE, 5),
        (R.FRESH_RECRUITS, 4),
    ],
)
def test_it_knows_each_requisitions_maximum_cost(req, most):
    """R6 table maxima."""
    assert REQUISITION_MAX_COST[req] == most
    assert req.max_cost == most


@RULES
@given(
    req=st.sampled_from(list(Requisition)), honours=st.integers(0, 12), others=st.integers(0, 12)
)
def test_it_keeps_every_cost_between_1rp_and_the_maximum(req, honours, others):
    """R6: each cost is at least 1RP and never above its maximum."""
    cost = requisition_cost(req, battle_honours=honours, other_enhancements=others)
    assert 1 <= cost <= REQUISITION_MAX_COST[req]


@RULES
@given(
    req=st.sampled_from(list(Requisition)), honours=st.integers(0, 12), others=st.integers(0, 12)
)
def test_it_never_makes_a_requisition_cheaper_for_a_more_decorated_force(req, honours, others):
    """R6.2/R6.5/R6.6: costs grow (up to the maximum) with honours and Enhancements."""
    base = requisition_cost(req, battle_honours=honours, other_enhancements=others)
    assert requisition_cost(req, battle_honours=honours + 1, other_enhancements=others) >= base
    assert requisition_cost(req, battle_honours=honours, other_enhancements=others + 1) >= base


def test_it_lets_the_force_increase_its_supply_limit_without_a_unit():
    """R6.1: 1RP, any time (outside a battle), no unit involved."""
    assert requisition_refusals(R.INCREASE_SUPPLY_LIMIT, rp=1, in_battle=False) == []


@pytest.mark.parametrize("req", list(Requisition))
def test_it_refuses_any_requisition_during_a_battle(req):
    """R6: never between a battle's start and its end."""
    unit = UnitFacts(name="Squad Dorn", xp=30, battle_scars=("Fatigued",))
    reasons = requisition_refusals(req, rp=10, in_battle=True, unit=unit)
    assert any("battle" in reason for reason in reasons)


@pytest.mark.parametrize("req", list(Requisition))
def test_it_refuses_a_requisition_the_force_cannot_afford(req):
    """R6: buying reduces RP by its cost; 0RP buys nothing."""
    reasons = requisition_refusals(req, rp=0, in_battle=False, unit=HERO)
    assert any("RP" in reason for reason in reasons)


@pytest.mark.parametrize("req", UNIT_REQUISITIONS)
def test_it_asks_for_a_unit_for_every_requisition_but_increase_supply_limit(req):
    """R6.2-R6.6: each of these acts on one unit."""
    assert requisition_refusals(req, rp=10, in_battle=False, unit=None)


def test_it_lists_every_reason_at_once():
    """R6: a player sees all problems together, not one per attempt."""
    reasons = requisition_refusals(
        R.RENOWNED_HEROES, rp=0, in_battle=True, unit=UnitFacts(name="Squad Dorn")
    )
    assert len(reasons) >= 4


def test_it_lets_a_character_with_a_promotion_take_renowned_heroes():
    """R6.2: taken instead of the Battle Honour a promotion earns."""
    assert requisition_refusals(R.RENOWNED_HEROES, rp=1, in_battle=False, unit=HERO) == []


@pytest.mark.parametrize(
    ("force_has_played", "unit_has_played", "refusals"),
    [
        pytest.param(False, False, 0, id="force-being-started"),
        pytest.param(True, False, 1, id="force-has-played"),
        pytest.param(True, True, 1, id="force-and-unit-have-played"),
        pytest.param(False, True, 1, id="unit-has-played"),
    ],
)
def test_it_lets_a_character_without_a_promotion_take_renowned_heroes_only_at_the_start(
    force_has_played, unit_has_played, refusals
):
    """R6.2: when a CHARACTER is first added while starting the force; after that, only
    instead of a promotion's honour."""
    varro = UnitFacts(name="Captain Varro", keywords={Keyword.CHARACTER})
    reasons = requisition_refusals(
        R.RENOWNED_HEROES,
        rp=5,
        in_battle=False,
        unit=varro,
        force_has_played=force_has_played,
        unit_has_played=unit_has_played,
    )
    assert len(reasons) == refusals


@pytest.mark.parametrize(
    "unit",
    [
        UnitFacts(name="Squad Dorn", pending_promotions=1),
        UnitFacts(
            name="Marneus", pending_promotions=1, keywords={Keyword.CHARACTER, Keyword.EPIC_HERO}
        ),
        UnitFacts(
            name="Varro", has_enhancement=True, pending_promotions=1, keywords={Keyword.CHARACTER}
        ),
        UnitFacts(
            name="Varro",
            battle_scars=("Disgraced",),
            pending_promotions=1,
            keywords={Keyword.CHARACTER},
        ),
        UnitFacts(
            name="Varro",
            battle_scars=("Mark of Shame",),
            pending_promotions=1,
            keywords={Keyword.CHARACTER},
        ),
    ],
    ids=["not-character", "epic-hero", "has-enhancement", "disgraced", "mark-of-shame"],
)
def test_it_refuses_renowned_heroes_for_units_the_rule_excludes(unit):
    """R6.2: CHARACTER only; not EPIC HERO, not already enhanced, not Disgraced/Mark of Shame."""
    reasons = requisition_refusals(R.RENOWNED_HEROES, rp=5, in_battle=False, unit=unit)
    assert len(reasons) == 1
    assert unit.name in reasons[0]


def test_it_charges_renowned_heroes_more_for_each_other_enhancement():
    """R6.2: 1RP + 1 per other Enhancement, so two others need 3RP."""
    refused = requisition_refusals(
        R.RENOWNED_HEROES, rp=2, in_battle=False, unit=HERO, other_enhancements=2
    )
    allowed = requisition_refusals(
        R.RENOWNED_HEROES, rp=3, in_battle=False, unit=HERO, other_enhancements=2
    )
    assert refused
    assert allowed == []


def test_it_lets_a_capped_non_character_buy_legendary_veterans():
    """R6.3: a non-CHARACTER unit at 30XP, for 3RP."""
    assert requisition_refusals(R.LEGENDARY_VETERANS, rp=3, in_battle=False, unit=SQUAD) == []
    assert requisition_refusals(R.LEGENDARY_VETERANS, rp=2, in_battle=False, unit=SQUAD)


@pytest.mark.parametrize(
    "unit",
    [
        UnitFacts(name="Captain Varro", xp=30, keywords={Keyword.CHARACTER}),
        UnitFacts(name="Squad Dorn", xp=30, legendary_veteran=True),
        UnitFacts(name="Squad Dorn", xp=29),
        UnitFacts(name="Rippers", keywords={Keyword.SWARM}),
    ],
    ids=["character", "already-legendary", "below-30xp", "no-xp"],
)
def test_it_refuses_legendary_veterans_for_units_the_rule_excludes(unit):
    """R6.3: non-CHARACTER, not already Legendary Veterans, at 30XP, able to gain XP."""
    reasons = requisition_refusals(R.LEGENDARY_VETERANS, rp=5, in_battle=False, unit=unit)
    assert reasons
    assert unit.name in reasons[0]


def test_it_lets_any_unit_rearm_and_resupply_between_battles():
    """R6.4: 1RP, before a battle."""
    assert requisition_refusals(R.REARM_AND_RESUPPLY, rp=1, in_battle=False, unit=SQUAD) == []


def test_it_refuses_repair_and_recuperate_for_a_unit_without_scars():
    """R6.5: it removes a Battle Scar, so the unit needs one."""
    assert requisition_refusals(R.REPAIR_AND_RECUPERATE, rp=5, in_battle=False, unit=SQUAD)
    scarred = UnitFacts(name="Squad Dorn", battle_scars=("Fatigued",))
    assert requisition_refusals(R.REPAIR_AND_RECUPERATE, rp=1, in_battle=False, unit=scarred) == []


def test_it_prices_repair_and_recuperate_by_the_units_honours():
    """R6.5: a scarred unit with 3 honours needs 4RP."""
    unit = UnitFacts(name="Squad Dorn", battle_honours=3, battle_scars=("Fatigued",))
    assert requisition_refusals(R.REPAIR_AND_RECUPERATE, rp=3, in_battle=False, unit=unit)
    assert requisition_refusals(R.REPAIR_AND_RECUPERATE, rp=4, in_battle=False, unit=unit) == []


def test_it_prices_fresh_recruits_by_the_units_honours():
    """R6.6: a unit with 6 honours needs 4RP."""
    unit = UnitFacts(name="Captain Varro", battle_honours=6, keywords={Keyword.CHARACTER})
    assert requisition_refusals(R.FRESH_RECRUITS, rp=3, in_battle=False, unit=unit)
    assert requisition_refusals(R.FRESH_RECRUITS, rp=4, in_battle=False, unit=unit) == []
