"""R4.4, R4.6, R5.2: dice rolls that re-roll duplicates."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules import (
    BATTLE_SCARS,
    BATTLE_TRAIT_TABLES,
    WEAPON_MODIFICATIONS,
    RuleError,
    roll_battle_scar,
    roll_battle_trait,
    roll_d6,
    roll_table,
    roll_weapon_modifications,
)

RULES = settings(max_examples=100, deadline=None, database=None)
seeds = st.integers(min_value=0, max_value=2**32)
SCAR_NAMES = list(BATTLE_SCARS.values())


class ScriptedDice:
    """A random source that returns the given rolls in order (checking the range asked)."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        roll = self.rolls[self.used]
        assert a <= roll <= b
        self.used += 1
        return roll


@RULES
@given(seed=seeds)
def test_it_rolls_a_d6_from_the_given_random_source(seed):
    """Dice: a D6 is 1-6 and the injected source decides it (same seed, same roll)."""
    roll = roll_d6(random.Random(seed))
    assert 1 <= roll <= 6
    assert roll == roll_d6(random.Random(seed))


def test_it_rolls_with_system_randomness_when_no_source_is_given():
    """Dice: the default source still gives legal results."""
    assert 1 <= roll_d6() <= 6
    assert roll_battle_scar(()) in SCAR_NAMES


def test_it_rerolls_results_already_taken():
    """R4.4/R5.2: a duplicate result is rolled again until a new one comes up."""
    dice = ScriptedDice(1, 1, 4)
    assert roll_table(BATTLE_SCARS, exclude={BATTLE_SCARS[1]}, rng=dice) == (4, BATTLE_SCARS[4])
    assert dice.used == 3


def test_it_refuses_to_roll_when_every_result_is_taken():
    """R4.4/R5.2: re-rolling can never succeed, so the player is told instead."""
    with pytest.raises(RuleError):
        roll_table(BATTLE_SCARS, exclude=SCAR_NAMES)
    with pytest.raises(RuleError):
        roll_battle_scar(SCAR_NAMES)


@RULES
@given(seed=seeds, taken=st.lists(st.sampled_from(SCAR_NAMES), unique=True, max_size=5))
def test_it_never_gives_a_unit_a_battle_scar_it_already_has(seed, taken):
    """R5.2: never the same scar twice."""
    scar = roll_battle_scar(taken, rng=random.Random(seed))
    assert scar in SCAR_NAMES
    assert scar not in taken


@RULES
@given(seed=seeds, data=st.data())
def test_it_never_returns_an_excluded_table_entry(seed, data):
    """R4.4: re-rolls never return a duplicate / excluded value, and the roll matches it."""
    table = WEAPON_MODIFICATIONS
    taken = data.draw(st.lists(st.sampled_from(list(table.values())), unique=True, max_size=5))
    roll, entry = roll_table(table, exclude=taken, rng=random.Random(seed))
    assert table[roll] == entry
    assert entry not in taken


def test_it_rolls_both_weapon_modification_dice_again_on_a_double():
    """R4.6: roll two D6, re-rolling both on a duplicate."""
    dice = ScriptedDice(3, 3, 2, 5)
    assert roll_weapon_modifications(rng=dice) == (WEAPON_MODIFICATIONS[2], WEAPON_MODIFICATIONS[5])
    assert dice.used == 4


@RULES
@given(seed=seeds)
def test_it_always_rolls_two_different_weapon_modifications(seed):
    """R4.6: a weapon gains two different modifications."""
    first, second = roll_weapon_modifications(rng=random.Random(seed))
    assert first != second
    assert {first, second} <= set(WEAPON_MODIFICATIONS.values())


@RULES
@given(seed=seeds, table_name=st.sampled_from(list(BATTLE_TRAIT_TABLES)), data=st.data())
def test_it_never_gives_a_unit_the_same_battle_trait_twice(seed, table_name, data):
    """R4.4: a unit cannot have the same Battle Trait twice (re-roll duplicates)."""
    table = BATTLE_TRAIT_TABLES[table_name]
    names = [name for name, _effect in table.values()]
    taken = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=5))
    name, effect = roll_battle_trait(table_name, taken, rng=random.Random(seed))
    assert (name, effect) in table.values()
    assert name not in taken


def test_it_refuses_a_battle_trait_roll_when_the_table_is_used_up():
    """R4.4: with all six traits held there is nothing left to roll."""
    names = [name for name, _effect in BATTLE_TRAIT_TABLES["Vehicle"].values()]
    with pytest.raises(RuleError):
        roll_battle_trait("Vehicle", names)


def test_it_rejects_an_unknown_battle_traits_table():
    """R4.4: the player picks one of the tables the app knows."""
    with pytest.raises(ValueError):
        roll_battle_trait("Starship", ())
