"""Dice rolls on the Crusade tables, re-rolling duplicates (R4.4, R4.6, R5.2).

Every roll takes ``rng``: any object with ``randint(a, b)`` (e.g. ``random.Random(seed)``).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from typing import Protocol, TypeVar

from .errors import RuleError
from .tables import BATTLE_SCARS, BATTLE_TRAIT_TABLES, WEAPON_MODIFICATIONS

T = TypeVar("T")

MAX_REROLLS = 1000
"""Safety net: a fair die never needs this many re-rolls; a broken ``rng`` might."""


class RandomSource(Protocol):
    """Anything that can roll: ``random.Random`` and ``random.SystemRandom`` qualify."""

    def randint(self, a: int, b: int) -> int: ...


SYSTEM_RANDOM: RandomSource = random.SystemRandom()


def roll_d6(rng: RandomSource | None = None) -> int:
    """Roll one D6."""
    return (rng or SYSTEM_RANDOM).randint(1, 6)


def roll_table(
    table: Mapping[int, T],
    *,
    exclude: Collection[T] = (),
    rng: RandomSource | None = None,
) -> tuple[int, T]:
    """Roll on ``table`` until the entry is not in ``exclude``; return (roll, entry).

    Raises RuleError when every entry is excluded, as there is nothing left to roll.
    """
    if not table:
        raise ValueError("cannot roll on an empty table")
    if all(entry in exclude for entry in table.values()):
        raise RuleError("Every result on this table is already taken, so there is nothing to roll.")
    rng = rng or SYSTEM_RANDOM
    low, high = min(table), max(table)
    for _ in range(MAX_REROLLS):
        roll = rng.randint(low, high)
        if roll in table and table[roll] not in exclude:
            return roll, table[roll]
    raise RuntimeError(f"no usable result after {MAX_REROLLS} rolls; is the random source fair?")


def roll_battle_scar(existing: Collection[str], rng: RandomSource | None = None) -> str:
    """R5.2: roll a Battle Scar the unit doesn't already have."""
    return roll_table(BATTLE_SCARS, exclude=existing, rng=rng)[1]


def roll_weapon_modifications(rng: RandomSource | None = None) -> tuple[str, str]:
    """R4.6: roll two different Weapon Modifications (both dice again on a double)."""
    rng = rng or SYSTEM_RANDOM
    for _ in range(MAX_REROLLS):
        first, second = (
            roll_table(WEAPON_MODIFICATIONS, rng=rng),
            roll_table(WEAPON_MODIFICATIONS, rng=rng),
        )
        if first[1] != second[1]:
            return first[1], second[1]
    raise RuntimeError(f"no two different results after {MAX_REROLLS} rolls")


def roll_battle_trait(
    table_name: str, existing: Collection[str], rng: RandomSource | None = None
) -> tuple[str, str]:
    """R4.4: roll a Battle Trait (name, effect) on ``table_name`` the unit lacks."""
    try:
        table = BATTLE_TRAIT_TABLES[table_name]
    except KeyError:
        known = ", ".join(BATTLE_TRAIT_TABLES)
        raise ValueError(f"unknown Battle Traits table {table_name!r}; known: {known}") from None
    names = {roll: name for roll, (name, _effect) in table.items()}
    roll, _name = roll_table(names, exclude=existing, rng=rng)
    return table[roll]
