"""R2.2 keywords, R3.5/R3.6 progress to the next rank, R4.5 relics on offer, R5.1 tests."""

import pytest

from campaign.rules import (
    BATTLE_WEARY,
    CRUSADE_RELICS,
    MARK_OF_SHAME,
    NON_CHARACTER_XP_CAP,
    RULE_KEYWORDS,
    HonourCategory,
    Keyword,
    PromotionReward,
    Rank,
    RelicCategory,
    Requisition,
    UnitFacts,
    available_relics,
    choices,
    rank_progress,
    unit_passes_out_of_action,
)

CORE = {name: category for name, (category, _effect) in CRUSADE_RELICS.items()}


@pytest.mark.parametrize(
    ("keyword", "label", "field"),
    [
        (Keyword.CHARACTER, "CHARACTER", "is_character"),
        (Keyword.EPIC_HERO, "EPIC HERO", "is_epic_hero"),
        (Keyword.DEDICATED_TRANSPORT, "DEDICATED TRANSPORT", "is_dedicated_transport"),
    ],
)
def test_it_names_each_keyword_as_the_rules_print_it(keyword, label, field):
    """R2.2: keywords are printed in capitals; each is one yes/no field on a card."""
    assert (keyword.label, keyword.field) == (label, field)


def test_it_lists_the_seven_rule_changing_keywords():
    """R2.2: CHARACTER, EPIC HERO, TITANIC, FORTIFICATION, SWARM, BATTLELINE, DEDICATED
    TRANSPORT."""
    assert [k.label for k in RULE_KEYWORDS] == [
        "CHARACTER",
        "EPIC HERO",
        "TITANIC",
        "FORTIFICATION",
        "SWARM",
        "BATTLELINE",
        "DEDICATED TRANSPORT",
    ]


@pytest.mark.parametrize(
    ("xp", "percent", "text"),
    [
        (0, 0, "6XP to Blooded (6XP)."),
        (3, 50, "3XP to Blooded (6XP)."),
        (6, 0, "10XP to Battle-hardened (16XP)."),
        (11, 50, "5XP to Battle-hardened (16XP)."),
    ],
)
def test_it_shows_how_far_a_unit_is_from_its_next_rank(xp, percent, text):
    """R3.5: thresholds 6, 16, 31 and 51XP."""
    progress = rank_progress(xp, xp_cap=None)
    assert (progress.percent, progress.text, progress.capped) == (percent, text, False)


def test_it_says_a_capped_unit_can_rank_no_higher():
    """R3.6: a non-CHARACTER unit stops at 30XP, Battle-hardened."""
    progress = rank_progress(NON_CHARACTER_XP_CAP, xp_cap=NON_CHARACTER_XP_CAP)
    assert progress.capped
    assert progress.percent == 100
    assert f"{NON_CHARACTER_XP_CAP}XP" in progress.text


def test_it_says_a_legendary_unit_is_at_the_top():
    """R3.5: Legendary is the highest rank."""
    progress = rank_progress(80, xp_cap=None)
    assert (progress.percent, progress.capped) == (100, False)
    assert Rank.LEGENDARY.label in progress.text


def test_it_offers_a_character_only_the_relics_its_rank_allows():
    """R4.5: Antiquity Relics from Heroic, Legendary Relics at Legendary."""
    blooded = UnitFacts(name="Varro", xp=6, keywords={Keyword.CHARACTER})
    heroic = UnitFacts(name="Varro", xp=31, keywords={Keyword.CHARACTER})

    def categories(unit):
        return {CORE[name] for name in available_relics(unit, CORE, relics_in_force=())}

    assert categories(blooded) == {RelicCategory.ARTIFICER}
    assert categories(heroic) == {RelicCategory.ARTIFICER, RelicCategory.ANTIQUITY}


def test_it_offers_no_relic_to_a_unit_that_is_not_a_character():
    """R4.5: Crusade Relics are for CHARACTER models only."""
    assert available_relics(UnitFacts(name="Squad", xp=60), CORE, relics_in_force=()) == []


def test_it_never_offers_a_relic_already_carried_in_the_order_of_battle():
    """R4.5: the same relic at most once in the whole Order of Battle."""
    hero = UnitFacts(name="Varro", xp=60, keywords={Keyword.CHARACTER})
    carried = next(iter(CORE))
    offered = available_relics(hero, CORE, relics_in_force={carried})
    assert carried not in offered
    assert len(offered) == len(CORE) - 1


@pytest.mark.parametrize(
    ("scars", "roll", "passes"),
    [((), 2, True), ((), 1, False), ((BATTLE_WEARY,), 2, False), ((BATTLE_WEARY,), 3, True)],
)
def test_it_takes_one_off_a_battle_weary_units_out_of_action_roll(scars, roll, passes):
    """R5.1: 2+ passes; Battle-weary subtracts 1 from the roll."""
    assert unit_passes_out_of_action(UnitFacts(name="X", battle_scars=scars), roll) is passes


def test_it_passes_a_no_xp_unit_whatever_it_rolls():
    """R2.6: no-XP units pass Out of Action tests automatically."""
    assert unit_passes_out_of_action(UnitFacts(name="X", keywords={Keyword.SWARM}), 1)


def test_it_bars_a_unit_with_mark_of_shame_from_an_attached_unit():
    """R5.4: Mark of Shame: cannot form an Attached unit."""
    assert UnitFacts(name="X", battle_scars=(MARK_OF_SHAME,)).cannot_attach
    assert not UnitFacts(name="X", battle_scars=(BATTLE_WEARY,)).cannot_attach


def test_it_names_the_two_ways_to_settle_a_promotion():
    """R3.7: a Battle Honour, or instead an Enhancement through Renowned Heroes."""
    assert choices(PromotionReward) == [
        ("battle_honour", "Battle Honour"),
        ("renowned_heroes", Requisition.RENOWNED_HEROES.label),
    ]


def test_it_labels_honour_categories_once_for_every_use():
    """R4.1: the categories and their labels come from one enum."""
    assert HonourCategory.WEAPON_MODIFICATION.label == "Weapon Modification"
    assert dict(choices(HonourCategory))["crusade_relic"] == "Crusade Relic"
