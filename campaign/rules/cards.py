"""A finished Crusade card checked whole: what it may hold (R2.6, R3.6, R4.3, R4.5, R5.3,
R6.2, R6.3) and what its battles could have given it (R2.4, R2.5, R3).

Play never reaches a card these refuse, because every step asks the refusals of the other
modules; a card that arrives whole (a restored export) is asked the same questions here,
by the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._checks import require_non_negative
from .enums import HonourCategory, Rank, RelicCategory
from .honours import honour_refusal, relic_taken_refusal
from .requisitions import enhancement_holder_refusals, legendary_veteran_holder_refusals
from .tables import (
    BATTLE_XP,
    DEALERS_OF_DEATH_STEP,
    MARKED_FOR_GREATNESS_XP,
    MAX_BATTLE_SCARS,
    MOST_BONUS_XP_PER_BATTLE,
)
from .units import UnitFacts


@dataclass(frozen=True, kw_only=True)
class HeldHonour:
    """One Battle Honour a card holds."""

    name: str
    category: str
    relic_category: RelicCategory | None = None
    rank: Rank | None = None
    """The rank of the promotion it settled, if it settled one (the relic's rank gate)."""


def card_refusals(unit: UnitFacts, *, honours: Sequence[HeldHonour], scars: int) -> list[str]:
    """Every rule ``unit`` breaks by what it holds: its XP, honours, scars, Enhancement and
    Legendary Veterans (``unit.battle_honours`` counts ``honours``). Empty if none."""
    require_non_negative(scars=scars)
    reasons: list[str] = []
    if unit.no_xp and unit.xp:
        reasons.append(
            f"{unit.name} is an EPIC HERO, FORTIFICATION or SWARM unit: it never gains XP, "
            f"yet holds {unit.xp}XP (R2.6)."
        )
    cap = unit.xp_cap
    if cap is not None and unit.xp > cap:
        reasons.append(f"{unit.xp}XP is above its cap of {cap}XP (R3.6).")
    if len(honours) > unit.honour_cap:
        reasons.append(f"{len(honours)} Battle Honours held; at most {unit.honour_cap} (R4.3).")
    for honour in honours:
        relic = honour.relic_category if honour.category == HonourCategory.CRUSADE_RELIC else None
        refusal = honour_refusal(
            unit=unit,
            category=honour.category,
            replacing=True,
            relic_category=relic,
            rank=honour.rank,
        )
        if refusal:
            reasons.append(f"{honour.name}: {refusal} (R4.5)" if relic else f"{refusal} (R2.6)")
    if scars > MAX_BATTLE_SCARS:
        reasons.append(f"{scars} Battle Scars held; at most {MAX_BATTLE_SCARS} (R5.3).")
    if unit.has_enhancement:
        reasons += [f"{reason} (R6.2)" for reason in enhancement_holder_refusals(unit)]
    if unit.legendary_veteran:
        reasons += [f"{reason} (R6.3)" for reason in legendary_veteran_holder_refusals(unit)]
    return list(dict.fromkeys(reasons))


def held_relic_refusal(relic: str, *, relics_in_force: set[str]) -> str | None:
    """R4.5: a relic held by a card arriving whole must not be held elsewhere in its
    Order of Battle (``relics_in_force``: the relics of the cards before it)."""
    refusal = relic_taken_refusal(relic, relics_in_force=relics_in_force)
    return f"{refusal} (R4.5)" if refusal else None


def xp_bound(*, battles_played: int, units_destroyed: int) -> int:
    """R2.4/R3: the most XP a card's battles could have given it.

    **Bound (generous):** per battle 1XP (R3.1), Marked for Greatness's 3XP (R3.3) and the
    most bonus XP the record form takes for one unit (R3.4, R11.1: 99), plus Dealers of
    Death over the whole Units Destroyed tally (R3.2). No rule gives XP outside a battle,
    so a card that played no battle holds 0XP.
    """
    require_non_negative(battles_played=battles_played, units_destroyed=units_destroyed)
    per_battle = BATTLE_XP + MARKED_FOR_GREATNESS_XP + MOST_BONUS_XP_PER_BATTLE
    return battles_played * per_battle + units_destroyed // DEALERS_OF_DEATH_STEP


def tally_refusals(
    unit: UnitFacts, *, battles_played: int, units_destroyed: int, force_battles: int
) -> list[str]:
    """R2.4/R2.5/R3: what a card's tallies and XP say that its battles couldn't have
    given it (its force fought ``force_battles``). Empty if nothing."""
    require_non_negative(force_battles=force_battles)
    reasons: list[str] = []
    if battles_played > force_battles:
        reasons.append(
            f"{unit.name} played {battles_played} battles, but its force fought "
            f"{force_battles} (R2.5)."
        )
    if not battles_played and units_destroyed:
        reasons.append(
            f"{unit.name} destroyed {units_destroyed} units without playing a battle (R2.5)."
        )
    bound = xp_bound(battles_played=battles_played, units_destroyed=units_destroyed)
    if unit.xp > bound:
        if battles_played:
            reasons.append(
                f"{unit.xp}XP is more than {battles_played} battles could give "
                f"(at most {bound}XP, R3)."
            )
        else:
            reasons.append(
                f"{unit.name} holds {unit.xp}XP after no battle: a card starts at 0XP and "
                "only battles give XP (R2.4, R3)."
            )
    return reasons
