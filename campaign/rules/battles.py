"""The end of a battle (R9): results that agree, and credit for Attached units."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from .enums import BattleResult


def results_refusal(results: Sequence[BattleResult | str]) -> str | None:
    """R9: why these sides' results can't all be true, or None if they can.

    Two players: one Victory and one Defeat, or both Draw. With more players, never two
    victors, and a Victory means somebody was defeated. One side alone (an opponent the
    app doesn't track) may record any result.
    """
    counts = Counter(BattleResult(result) for result in results)
    wins, losses, draws = (counts[r] for r in BattleResult)
    if len(results) < 2:
        return None
    if wins > 1:
        return "Only one side can win a battle: two sides can't both claim a Victory."
    if len(results) == 2 and draws == 1:
        return "A draw is a draw for both sides: record a Draw on each, or a Victory and a Defeat."
    if wins and not losses:
        return "A Victory needs a defeated side: record a Defeat for the side that lost."
    if losses and not wins and not draws:
        return "Somebody won: record a Victory for the side that won."
    return None


KILLS = "kills"
"""The occurrence every Attached unit has once a battle: the enemy units it destroyed."""
MARKED_FOR_GREATNESS = "Marked for Greatness"


@dataclass(frozen=True, kw_only=True)
class Credit:
    """What one unit of an Attached unit claims for a battle: its kills, and each bonus XP
    award by name (an Agenda, Marked for Greatness, a mission: the reason the player gave)."""

    key: Hashable
    name: str
    kills: int = 0
    awards: tuple[str, ...] = ()


@dataclass(frozen=True)
class CreditRefusal:
    """A unit that claims an occurrence another unit of its Attached unit already has."""

    key: Hashable
    occurrence: str
    """`KILLS`, or the award's name as the unit gave it."""
    message: str
    kills: bool = False
    """Whether the occurrence is the battle's kills (not an award)."""


def _award(name: str) -> str:
    return " ".join(name.split()).casefold()


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def attached_credit_refusals(attached: Sequence[Credit]) -> list[CreditRefusal]:
    """R9 (decision: each occurrence): the units of one Attached unit (its Bodyguard and
    every Leader, in army order) may share out its kills and bonus XP, but each occurrence
    goes to one unit only: the kills of the battle, and each bonus award (the same name,
    whatever its case or spacing). The first unit claiming an occurrence keeps it; each
    later one is refused."""
    refusals: list[CreditRefusal] = []
    holder: dict[tuple[bool, str], Credit] = {}
    for unit in attached:
        others = _names([other.name for other in attached if other.key != unit.key])
        claims = [(True, KILLS)] if unit.kills else []
        claims += [(False, award) for award in dict.fromkeys(unit.awards)]
        for kills, claim in claims:
            first = holder.setdefault((kills, _award(claim)), unit)
            if first is unit:
                continue
            what, it = (
                ("its enemy units destroyed in this battle go", "them")
                if kills
                else (f"the bonus XP for '{claim.strip()}' goes", "it")
            )
            refusals.append(
                CreditRefusal(
                    unit.key,
                    KILLS if kills else claim,
                    f"{unit.name} fought as one Attached unit with {others}: {what} to one "
                    f"of them only, and {first.name} already has {it}.",
                    kills,
                )
            )
    return refusals
