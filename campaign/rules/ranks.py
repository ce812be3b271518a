"""Experience points and ranks (R2.6, R3)."""

from __future__ import annotations

from dataclasses import dataclass

from ._checks import require_non_negative
from .enums import NO_XP_KEYWORDS, RANK_THRESHOLDS, Keyword, Rank
from .tables import (
    BATTLE_XP,
    DEALERS_OF_DEATH_STEP,
    MARKED_FOR_GREATNESS_XP,
    NON_CHARACTER_XP_CAP,
)


def rank_for_xp(xp: int) -> Rank:
    """R3.5: the rank a unit with ``xp`` experience points holds."""
    require_non_negative(xp=xp)
    reached = [rank for rank, floor in RANK_THRESHOLDS.items() if xp >= floor]
    return max(reached)


def ranks_gained(xp_before: int, xp_after: int) -> int:
    """R3.7: promotions earned going from ``xp_before`` to ``xp_after`` (one per rank)."""
    return max(0, rank_for_xp(xp_after) - rank_for_xp(xp_before))


def is_no_xp(*, epic_hero: bool = False, fortification: bool = False, swarm: bool = False) -> bool:
    """R2.6: EPIC HERO, FORTIFICATION and SWARM units never gain XP or honours."""
    return epic_hero or fortification or swarm


def has_no_xp_keyword(keywords: set[Keyword] | frozenset[Keyword]) -> bool:
    """R2.6: whether any of ``keywords`` makes the unit a no-XP unit."""
    return bool(NO_XP_KEYWORDS & set(keywords))


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


@dataclass(frozen=True)
class RankProgress:
    """How far a unit is along its way to the next rank (R3.5, R3.6)."""

    percent: int
    text: str
    capped: bool = False


def rank_progress(xp: int, *, xp_cap: int | None) -> RankProgress:
    """R3.5/R3.6: progress towards the next rank, for a unit whose ceiling is ``xp_cap``."""
    require_non_negative(xp=xp)
    rank = rank_for_xp(xp)
    following = rank.next
    if following is None:
        return RankProgress(100, f"{rank.label}: the highest rank.")
    if xp_cap is not None and following.min_xp > xp_cap:
        return RankProgress(
            100,
            f"Capped at {xp_cap}XP: only CHARACTERS and Legendary Veterans rank higher.",
            capped=True,
        )
    span = following.min_xp - rank.min_xp
    done = xp - rank.min_xp
    return RankProgress(
        min(100, round(100 * done / span)),
        f"{following.min_xp - xp}XP to {following.label} ({following.min_xp}XP).",
    )
