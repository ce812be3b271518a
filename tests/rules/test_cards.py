"""A finished card checked whole (R2.6, R3.6, R4.3, R4.5, R5.3, R6.2, R6.3) and the bounds
on what battles and requisitions could have given (R1.2, R1.5, R2.4, R2.5, R3, R6.1)."""

from __future__ import annotations

import pytest

from campaign import rules
from campaign.rules import HeldHonour, Keyword, Rank, RelicCategory, UnitFacts

CHARACTER = frozenset({Keyword.CHARACTER})
TRAIT = HeldHonour(name="Born Hunter", category="battle_trait")


def relic(category: RelicCategory, rank: Rank | None = None) -> HeldHonour:
    return HeldHonour(
        name="Sigil of Sol", category="crusade_relic", relic_category=category, rank=rank
    )


@pytest.mark.parametrize(
    "facts, honours, scars, found",
    [
        (dict(xp=4, keywords={Keyword.SWARM}), [], 0, "never gains XP"),
        (
            dict(keywords={Keyword.FORTIFICATION}, battle_honours=1),
            [TRAIT],
            0,
            "never gains honours",
        ),
        (dict(battle_honours=1), [relic(RelicCategory.ARTIFICER)], 0, "Only CHARACTER units"),
        (
            dict(keywords=CHARACTER, xp=3, battle_honours=1),
            [relic(RelicCategory.LEGENDARY)],
            0,
            "need Legendary rank",
        ),
        (
            dict(keywords=CHARACTER, xp=60, battle_honours=1),
            [relic(RelicCategory.ANTIQUITY, rank=Rank.BLOODED)],
            0,
            "reaching Blooded",
        ),
        (dict(has_enhancement=True), [], 0, "Only a CHARACTER can take an Enhancement"),
        (
            dict(keywords={Keyword.CHARACTER, Keyword.EPIC_HERO}, has_enhancement=True),
            [],
            0,
            "EPIC HERO and can't take an Enhancement",
        ),
        (dict(keywords=CHARACTER, legendary_veteran=True), [], 0, "no XP cap to lift"),
        (dict(xp=31), [], 0, "above its cap of 30XP"),
        (dict(battle_honours=4), [TRAIT] * 4, 0, "4 Battle Honours held; at most 3"),
        (dict(), [], 4, "4 Battle Scars held; at most 3"),
    ],
)
def test_it_names_each_rule_a_finished_card_breaks(facts, honours, scars, found):
    unit = UnitFacts(name="Brother Tharos", **facts)

    assert any(
        found in reason for reason in rules.card_refusals(unit, honours=honours, scars=scars)
    )


@pytest.mark.parametrize(
    "facts, honours",
    [
        (dict(keywords=CHARACTER, xp=51, battle_honours=1), [relic(RelicCategory.LEGENDARY)]),
        (dict(legendary_veteran=True, xp=60, battle_honours=6), [TRAIT] * 6),
        (dict(keywords={Keyword.EPIC_HERO, Keyword.CHARACTER}), []),
        (dict(keywords=CHARACTER, has_enhancement=True, xp=200), []),
    ],
)
def test_it_accepts_cards_that_play_can_reach(facts, honours):
    unit = UnitFacts(name="Brother Tharos", **facts)

    assert rules.card_refusals(unit, honours=honours, scars=0) == []


def test_it_holds_a_card_that_played_no_battle_to_no_xp_and_no_kills():
    unit = UnitFacts(name="Brother Tharos", xp=30)

    reasons = rules.tally_refusals(unit, battles_played=0, units_destroyed=12, force_battles=0)

    assert any("destroyed 12 units without playing a battle" in r for r in reasons)
    assert any("30XP after no battle" in r for r in reasons)


def test_it_lets_a_card_hold_what_its_battles_could_give():
    bound = rules.xp_bound(battles_played=3, units_destroyed=9)
    unit = UnitFacts(name="Brother Tharos", keywords=CHARACTER, xp=bound)

    assert rules.tally_refusals(unit, battles_played=3, units_destroyed=9, force_battles=3) == []
    assert rules.tally_refusals(
        UnitFacts(name="Brother Tharos", keywords=CHARACTER, xp=bound + 1),
        battles_played=3,
        units_destroyed=9,
        force_battles=3,
    )


def test_it_bounds_supply_and_rp_by_the_generous_house_rules():
    house = rules.most_generous(
        rules.HouseRules(starting_supply_limit=500), rules.DEFAULT_HOUSE_RULES
    )

    assert house.starting_supply_limit == 1000
    assert rules.supply_limit_bound(increases=2, house=house) == 1400
    assert rules.rp_bound(battles=3, house=house) == 5 + 3 + 10
