"""R11.2 army Crusade points, R11.3 the underdog and how many Crusade Blessings it picks.

The thresholds are pack data (a list of ``(gap_at_least, blessings)`` pairs per pack);
nothing here holds a book's numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

K = TypeVar("K", bound=Hashable)


class ArmyCard(NamedTuple):
    """What R11.2 needs of one unit in a mustered army."""

    crusade_points: int
    """The unit's Crusade points (R7); may be negative (scars)."""
    removed: bool = False
    """Removed from the Order of Battle: it no longer counts."""


def army_crusade_points(cards: Iterable[ArmyCard]) -> int:
    """R11.2: the total of the Crusade points of the units in a mustered army; removed
    units don't count (units not in the army are simply not passed)."""
    return sum(card.crusade_points for card in cards if not card.removed)


@dataclass(frozen=True)
class Standing:
    """One army against the strongest army it faces (R11.3)."""

    points: int
    """This army's Crusade points (R11.2)."""
    strongest_opponent: int | None
    """The most Crusade points of any opposing army (None: it faces nobody)."""

    @property
    def gap(self) -> int:
        """How many Crusade points it has fewer than the strongest opposing army (0 when it
        has as many or more, or faces nobody)."""
        if self.strongest_opponent is None:
            return 0
        return max(0, self.strongest_opponent - self.points)

    @property
    def underdog(self) -> bool:
        """R11.3: fewer Crusade points than its opponent; equal totals: not the underdog."""
        return self.gap > 0


def standings(totals: Mapping[K, int]) -> dict[K, Standing]:
    """R11.3: each army's standing, by the key it was given with its total.

    **Decision** (R11.3): with more than two armies each army is compared with the
    strongest opposing army, so every army but the strongest may be an underdog, each
    with its own gap. An army that faces nobody is no one's underdog.
    """
    result: dict[K, Standing] = {}
    for key, points in totals.items():
        others = [other for k, other in totals.items() if k != key]
        result[key] = Standing(points, max(others) if others else None)
    return result


def pack_blessings(gap: int, thresholds: Iterable[tuple[int, int]]) -> int:
    """R11.3, one pack: the Blessings of the pack's highest threshold the gap reaches
    (``(gap_at_least, blessings)`` pairs, in any order); 0 when it reaches none."""
    reached = [(at_least, n) for at_least, n in thresholds if gap >= at_least]
    return max(reached)[1] if reached else 0


def blessings_allowed(gap: int, packs: Iterable[Iterable[tuple[int, int]]]) -> int:
    """R11.3: how many Crusade Blessings the underdog may pick for a ``gap`` in Crusade
    points, by the thresholds of every pack the campaign enables (one list per pack).

    **Decision:** when several enabled packs give thresholds, the underdog may pick the
    most that any one pack gives for that gap (the packs are not added up: two books
    don't make an army twice the underdog). No gap (not the underdog): none.
    """
    if gap <= 0:
        return 0
    return max((pack_blessings(gap, thresholds) for thresholds in packs), default=0)


def blessing_pick_refusal(*, standing: Standing, allowed: int, picked: int) -> str | None:
    """R11.3: why an army can't pick ``picked`` Blessings, or None if it may."""
    if not standing.underdog:
        if standing.points == standing.strongest_opponent:
            return "The armies have equal Crusade points: nobody is the underdog."
        return "Only the underdog picks Crusade Blessings, and this army is not the underdog."
    if picked > allowed:
        may = f"{allowed} Blessing{'s' if allowed != 1 else ''}" if allowed else "no Blessings"
        return f"A gap of {standing.gap} Crusade points gives {may}: {picked} were picked."
    return None
