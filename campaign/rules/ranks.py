"""Experience points and ranks (R2.6, R3)."""

from __future__ import annotations

from enum import IntEnum

from ._checks import require_non_negative

BATTLE_XP = 1
"""R3.1: XP every unit in the army gains after each battle."""

MARKED_FOR_GREATNESS_XP = 3
"""R3.3: XP for the one unit Marked for Greatness after a battle."""

DEALERS_OF_DEATH_STEP = 3
"""R3.2: 1XP each time the Units Destroyed tally reaches a new multiple of this."""

NON_CHARACTER_XP_CAP = 30
"""R3.6: XP ceiling for units that are neither CHARACTER nor Legendary Veterans."""


class Rank(IntEnum):
    """R3.5: the five ranks, ordered so that a higher rank compares greater."""

    BATTLE_READY = 0
    BLOODED = 1
    BATTLE_HARDENED = 2
    HEROIC = 3
    LEGENDARY = 4

    @property
    def label(self) -> str:
        """The rank's name as printed on a Crusade card."""
        return _RANK_LABELS[self]

    @property
    def min_xp(self) -> int:
        """Fewest XP a unit needs to hold this rank (R3.5)."""
        return RANK_THRESHOLDS[self]


_RANK_LABELS: dict[Rank, str] = {
    Rank.BATTLE_READY: "Battle-ready",
    Rank.BLOODED: "Blooded",
    Rank.BATTLE_HARDENED: "Battle-hardened",
    Rank.HEROIC: "Heroic",
    Rank.LEGENDARY: "Legendary",
}

RANK_THRESHOLDS: dict[Rank, int] = {
    Rank.BATTLE_READY: 0,
    Rank.BLOODED: 6,
    Rank.BATTLE_HARDENED: 16,
    Rank.HEROIC: 31,
    Rank.LEGENDARY: 51,
}
"""R3.5: minimum XP for each rank."""


def rank_for_xp(xp: int) -> Rank:
    """R3.5: the rank a unit with ``xp`` experience points holds."""
    require_non_negative(xp=xp)
    reached = [rank for rank, floor in RANK_THRESHOLDS.items() if xp >= floor]
    return max(reached)


def ranks_gained(xp_before: int, xp_after: int) -> int:
    """R3.7: promotions earned going from ``xp_before`` to ``xp_after`` (one per rank)."""
    return max(0, rank_for_xp(xp_after) - rank_for_xp(xp_before))


def is_no_xp(*, epic_hero: bool, fortification: bool, swarm: bool) -> bool:
    """R2.6: EPIC HERO, FORTIFICATION and SWARM units never gain XP or honours."""
    return epic_hero or fortification or swarm


def xp_cap(*, is_character: bool, legendary_veteran: bool) -> int | None:
    """R3.6/R6.3: the unit's XP ceiling, or None when it has none."""
    if is_character or legendary_veteran:
        return None
    return NON_CHARACTER_XP_CAP


def add_xp(
    xp: int,
    gained: int,
    *,
    is_character: bool,
    legendary_veteran: bool,
    no_xp: bool = False,
) -> int:
    """R3.6/R2.6: the unit's XP after gaining ``gained``; XP past the cap is lost.

    A no-XP unit keeps what it has, and XP already above a cap is never taken away.
    """
    require_non_negative(xp=xp, gained=gained)
    if no_xp:
        return xp
    cap = xp_cap(is_character=is_character, legendary_veteran=legendary_veteran)
    if cap is None:
        return xp + gained
    return max(xp, min(xp + gained, cap))


def dealers_of_death_xp(tally_before: int, tally_after: int) -> int:
    """R3.2: XP for each new multiple of 3 the Units Destroyed tally reaches."""
    require_non_negative(tally_before=tally_before, tally_after=tally_after)
    if tally_after < tally_before:
        raise ValueError("the Units Destroyed tally never goes down")
    return tally_after // DEALERS_OF_DEATH_STEP - tally_before // DEALERS_OF_DEATH_STEP


def battle_xp_gained(
    *,
    tally_before: int,
    enemy_units_destroyed: int,
    marked_for_greatness: bool,
    bonus_xp: int,
) -> int:
    """R3.1-R3.4: raw XP one unit earns from a battle, before caps (R3.6) apply."""
    require_non_negative(enemy_units_destroyed=enemy_units_destroyed, bonus_xp=bonus_xp)
    return (
        BATTLE_XP
        + dealers_of_death_xp(tally_before, tally_before + enemy_units_destroyed)
        + (MARKED_FOR_GREATNESS_XP if marked_for_greatness else 0)
        + bonus_xp
    )
