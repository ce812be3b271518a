"""R4 Battle Honours and R7 Crusade points."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules import (
    HONOUR_CATEGORIES,
    RELIC_MIN_RANK,
    Keyword,
    Rank,
    RelicCategory,
    UnitFacts,
    card_crusade_points,
    crusade_points,
    honour_refusal,
    max_battle_honours,
    relic_taken_refusal,
)

RULES = settings(max_examples=100, deadline=None, database=None)

# R4.5 as printed in the spec: category -> (label, Crusade points, lowest rank).
RELIC_TABLE = {
    RelicCategory.ARTIFICER: ("Artificer Relic", 1, Rank.BATTLE_READY),
    RelicCategory.ANTIQUITY: ("Antiquity Relic", 2, Rank.HEROIC),
    RelicCategory.LEGENDARY: ("Legendary Relic", 3, Rank.LEGENDARY),
}
NON_RELIC_CATEGORIES = ["battle_trait", "weapon_modification", "custom"]


@pytest.mark.parametrize(
    ("is_character", "legendary_veteran", "most"),
    [(False, False, 3), (True, False, 6), (False, True, 6), (True, True, 6)],
)
def test_it_allows_three_honours_or_six_for_characters_and_legendary_veterans(
    is_character, legendary_veteran, most
):
    """R4.3/R6.3: maximum Battle Honours."""
    assert max_battle_honours(is_character=is_character, legendary_veteran=legendary_veteran) == (
        most
    )


@pytest.mark.parametrize("category", list(RELIC_TABLE))
def test_it_gives_each_relic_category_its_r4_5_label_points_and_rank_gate(category):
    """R4.5: Artificer +1 any CHARACTER, Antiquity +2 Heroic, Legendary +3 Legendary."""
    label, points, rank = RELIC_TABLE[category]
    assert category.label == label
    assert category.crusade_points == points
    assert category.min_rank is rank
    assert RELIC_MIN_RANK[category] is rank
    assert category.value == category.name.lower()


def test_it_keeps_honour_categories_as_data_with_all_r4_1_categories():
    """R4.1: Battle Traits, Weapon Modifications and Crusade Relics, plus custom ones."""
    assert {"battle_trait", "weapon_modification", "crusade_relic", "custom"} <= set(
        HONOUR_CATEGORIES
    )


@pytest.mark.parametrize(
    ("honours", "scars", "titanic", "relics", "points"),
    [
        (0, 0, False, (), 0),
        (2, 1, False, (), 1),
        (2, 0, True, (), 4),
        (1, 1, False, (RelicCategory.ARTIFICER, RelicCategory.LEGENDARY), 4),
        (0, 0, True, (RelicCategory.ANTIQUITY,), 2),
        (0, 3, False, (), -3),
    ],
)
def test_it_derives_crusade_points_from_honours_relics_and_scars(
    honours, scars, titanic, relics, points
):
    """R7: +1 per honour (+2 TITANIC), relics +1/+2/+3 (not doubled), -1 per scar; may be < 0."""
    assert (
        crusade_points(battle_honours=honours, battle_scars=scars, titanic=titanic, relics=relics)
        == points
    )


@RULES
@given(
    honours=st.integers(0, 6),
    scars=st.integers(0, 3),
    titanic=st.booleans(),
    relics=st.lists(st.sampled_from(list(RelicCategory)), max_size=6),
)
def test_it_totals_crusade_points_as_honours_plus_relics_minus_scars(
    honours, scars, titanic, relics
):
    """R7/R4.2/R4.5/R5.4: crusade points = honours (x2 if titanic) + relic values - scars."""
    relic_value = sum(RELIC_TABLE[relic][1] for relic in relics)
    expected = honours * (2 if titanic else 1) + relic_value - scars
    assert (
        crusade_points(battle_honours=honours, battle_scars=scars, titanic=titanic, relics=relics)
        == expected
    )


def test_it_refuses_negative_honour_or_scar_counts():
    """R7: counts of things a unit holds are never negative."""
    with pytest.raises(ValueError):
        crusade_points(battle_honours=-1, battle_scars=0)


@pytest.mark.parametrize("keyword", [Keyword.EPIC_HERO, Keyword.FORTIFICATION, Keyword.SWARM])
@pytest.mark.parametrize("category", NON_RELIC_CATEGORIES)
def test_it_never_gives_honours_to_no_xp_units(keyword, category):
    """R2.6: EPIC HERO, FORTIFICATION and SWARM units never gain Battle Honours."""
    unit = UnitFacts(name="Bastion", keywords={Keyword.CHARACTER, keyword})
    assert honour_refusal(unit=unit, category=category, replacing=False) is not None


@pytest.mark.parametrize(
    ("is_character", "legendary_veteran", "cap"),
    [(False, False, 3), (True, False, 6), (False, True, 6)],
)
def test_it_asks_for_an_honour_to_replace_at_the_maximum(is_character, legendary_veteran, cap):
    """R4.3: at the maximum a new honour must replace one; below it, none is needed."""
    full = UnitFacts(
        name="Squad Dorn",
        keywords={Keyword.CHARACTER} if is_character else set(),
        legendary_veteran=legendary_veteran,
        battle_honours=cap,
    )
    below = UnitFacts(
        name="Squad Dorn",
        keywords={Keyword.CHARACTER} if is_character else set(),
        legendary_veteran=legendary_veteran,
        battle_honours=cap - 1,
    )
    refusal = honour_refusal(unit=full, category="battle_trait", replacing=False)
    assert refusal is not None
    assert "replace" in refusal
    assert honour_refusal(unit=full, category="battle_trait", replacing=True) is None
    assert honour_refusal(unit=below, category="battle_trait", replacing=False) is None


def test_a_cards_crusade_points_count_relics_by_category_and_other_honours_as_honours():
    """R7/R4.5: from a card's honours as stored (category, relic category): a Crusade Relic
    by its category (not doubled for TITANIC), any other honour +1 (+2 TITANIC), -1 a scar,
    plus its upgrades' points."""
    honours = [
        ("battle_trait", ""),
        ("weapon_modification", ""),
        ("crusade_relic", "antiquity"),
        ("custom", ""),
    ]

    assert card_crusade_points(honours=honours, scars=1, upgrades=[2]) == 3 + 2 - 1 + 2
    assert card_crusade_points(honours=honours, scars=1, titanic=True) == 6 + 2 - 1
    assert card_crusade_points(honours=[], scars=0) == 0


def test_it_gives_crusade_relics_only_to_characters():
    """R4.5: only CHARACTER models can gain Crusade Relics."""
    squad = UnitFacts(name="Squad Dorn", xp=60, legendary_veteran=True)
    hero = UnitFacts(name="Captain Varro", xp=0, keywords={Keyword.CHARACTER})
    artificer = RelicCategory.ARTIFICER
    assert (
        honour_refusal(
            unit=squad, category="crusade_relic", replacing=False, relic_category=artificer
        )
        is not None
    )
    assert (
        honour_refusal(
            unit=hero, category="crusade_relic", replacing=False, relic_category=artificer
        )
        is None
    )


@pytest.mark.parametrize(
    ("category", "xp", "allowed"),
    [
        (RelicCategory.ARTIFICER, 0, True),
        (RelicCategory.ANTIQUITY, 30, False),
        (RelicCategory.ANTIQUITY, 31, True),
        (RelicCategory.LEGENDARY, 50, False),
        (RelicCategory.LEGENDARY, 51, True),
    ],
)
def test_it_gates_relic_categories_by_rank(category, xp, allowed):
    """R4.5: Antiquity Relics need Heroic rank, Legendary Relics need Legendary rank."""
    hero = UnitFacts(name="Captain Varro", xp=xp, keywords={Keyword.CHARACTER})
    refusal = honour_refusal(
        unit=hero, category="crusade_relic", replacing=False, relic_category=category
    )
    assert (refusal is None) == allowed


def test_it_reads_relic_rank_gates_from_data_a_campaign_can_change(monkeypatch):
    """R4.5: the gates are data; lowering the Antiquity gate lets a Blooded hero take one."""
    hero = UnitFacts(name="Captain Varro", xp=6, keywords={Keyword.CHARACTER})
    antiquity = RelicCategory.ANTIQUITY

    def refusal():
        return honour_refusal(
            unit=hero, category="crusade_relic", replacing=False, relic_category=antiquity
        )

    assert refusal() is not None
    monkeypatch.setitem(RELIC_MIN_RANK, antiquity, Rank.BLOODED)
    assert refusal() is None


def test_it_rejects_unknown_categories_and_relics_without_a_category():
    """R4.1/R4.5: a relic needs its category; other categories must not pass one."""
    hero = UnitFacts(name="Captain Varro", keywords={Keyword.CHARACTER})
    with pytest.raises(ValueError):
        honour_refusal(unit=hero, category="medal", replacing=False)
    with pytest.raises(ValueError):
        honour_refusal(unit=hero, category="crusade_relic", replacing=False)
    with pytest.raises(ValueError):
        honour_refusal(
            unit=hero,
            category="battle_trait",
            replacing=False,
            relic_category=RelicCategory.ARTIFICER,
        )


def test_it_allows_each_relic_only_once_in_the_order_of_battle():
    """R4.5: the same Crusade Relic at most once in the whole Order of Battle."""
    taken = {"Artificer Weapon"}
    assert relic_taken_refusal("Artificer Weapon", relics_in_force=taken) is not None
    assert relic_taken_refusal("Sigil of Sol", relics_in_force=taken) is None
