"""R2 Crusade card facts and R3.3 Marked for Greatness."""

import dataclasses

import pytest

from campaign.rules import Keyword, Rank, UnitFacts, marked_for_greatness_refusal


def test_it_derives_rank_and_honour_cap_from_the_card():
    """R3.5/R4.3: a 16XP CHARACTER is Battle-hardened and may hold 6 honours."""
    hero = UnitFacts(name="Captain Varro", xp=16, battle_honours=6, keywords={Keyword.CHARACTER})
    assert hero.rank is Rank.BATTLE_HARDENED
    assert hero.honour_cap == 6
    assert hero.at_honour_cap
    assert hero.xp_cap is None
    squad = UnitFacts(name="Squad Dorn", xp=5, battle_honours=2)
    assert squad.rank is Rank.BATTLE_READY
    assert squad.honour_cap == 3
    assert not squad.at_honour_cap
    assert squad.xp_cap == 30


@pytest.mark.parametrize("keyword", [Keyword.EPIC_HERO, Keyword.FORTIFICATION, Keyword.SWARM])
def test_it_marks_epic_heroes_fortifications_and_swarms_as_no_xp(keyword):
    """R2.6: no-XP units."""
    assert UnitFacts(name="X", keywords={keyword}).no_xp
    assert not UnitFacts(name="X").no_xp


@pytest.mark.parametrize(
    ("scars", "disgraced"),
    [
        ((), False),
        (("Disgraced",), True),
        (("Mark of Shame",), True),
        (("Battle-weary", "Fatigued", "Deep Scars"), False),
        (("Fatigued", "Mark of Shame"), True),
    ],
)
def test_it_flags_units_bearing_disgraced_or_mark_of_shame(scars, disgraced):
    """R3.3/R6.2: only Disgraced and Mark of Shame carry the shame that bars rewards."""
    assert UnitFacts(name="X", battle_scars=scars).disgraced is disgraced


def test_it_keeps_unit_facts_read_only():
    """R2.3: a snapshot for checks; the card changes only through services."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        UnitFacts(name="X").xp = 5  # type: ignore[misc]


def test_it_lets_an_ordinary_unit_be_marked_for_greatness():
    """R3.3: any unit from the battle that is not barred may be picked."""
    assert marked_for_greatness_refusal(UnitFacts(name="Squad Dorn")) is None
    assert marked_for_greatness_refusal(UnitFacts(name="X", battle_scars=("Battle-weary",))) is None


@pytest.mark.parametrize(
    "unit",
    [
        UnitFacts(name="Marneus", keywords={Keyword.CHARACTER, Keyword.EPIC_HERO}),
        UnitFacts(name="Bastion", keywords={Keyword.FORTIFICATION}),
        UnitFacts(name="Rippers", keywords={Keyword.SWARM}),
        UnitFacts(name="Squad Dorn", battle_scars=("Disgraced",)),
        UnitFacts(name="Squad Dorn", battle_scars=("Mark of Shame",)),
    ],
    ids=["epic-hero", "fortification", "swarm", "disgraced", "mark-of-shame"],
)
def test_it_refuses_marked_for_greatness_for_no_xp_and_shamed_units(unit):
    """R3.3: not a no-XP unit, not a unit with Disgraced or Mark of Shame."""
    refusal = marked_for_greatness_refusal(unit)
    assert refusal is not None
    assert unit.name in refusal
