"""What the charts show, each in one query whose answer is bounded by the chart, not by
the campaign: the database counts (wins per force and day) or cuts (a unit's last
battles) before anything reaches Python."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count

from campaign import charts, rules, wins_kept
from campaign.models import Battle, BattleParticipant, BattleUnit, Unit
from campaign.prepared import Prepared


@dataclass(frozen=True)
class StandingsHistory:
    """The top of the standings, their wins over time."""

    chart: charts.LineChart
    table: charts.WinsTable
    legend: list[tuple[object, charts.Line]]
    """(standing, its line), in the order of the standings."""


def standings_history(standings: list, voided: int) -> StandingsHistory | None:
    """Wins in completed battles of the first `charts.MOST_LINES` forces of ``standings``
    (of a campaign with ``voided`` battles voided), counted by the database per force and
    day (the chart adds the days up into weeks). None when none of them has won a battle
    yet. Like a force's victories, every battle the force completed counts."""
    top = standings[: charts.MOST_LINES]
    by_force = _wins_by_day([(s.force.pk, s.force.victories) for s in top], voided)
    series = [charts.WinsSeries(s.force.name, by_force[s.force.pk]) for s in top]
    drawn = charts.wins_over_time(series)
    if drawn is None:
        return None
    chart, table = drawn
    return StandingsHistory(chart, table, list(zip(top, chart.lines, strict=True)))


def _wins_by_day(forces: list[tuple[int, int]], voided: int) -> dict[int, dict]:
    """Each force's wins per day it won, for ``forces`` as (pk, victories). Kept for each
    force under its victories and its campaign's voids (`campaign.wins_kept`): after a
    battle only the winner's are read again, from its sides (the index on the force,
    never every battle of the campaign), at most a row per day it won; and not even
    those when this process completed the battle."""
    by_force = wins_kept.kept(forces, voided)
    missing = [pk for pk, _ in forces if pk not in by_force]
    if missing:
        # Each slot of the query holds a force (the first one again in those left over).
        padded = missing + missing[:1] * (len(_SLOTS) - len(missing))
        found: dict[int, dict] = {pk: {} for pk in missing}
        for force, day, wins in _WINS.fetch(**dict(zip(_SLOTS, padded, strict=True))):
            found[force][day] = wins
        wins_kept.keep(found, dict(forces), voided)
        by_force.update(found)
    return by_force


_SLOTS = tuple(f"force_{i}" for i in range(charts.MOST_LINES))
_WINS = Prepared(
    lambda **forces: (
        BattleParticipant.objects.filter(
            force_id__in=list(forces.values()),
            result=rules.BattleResult.WIN,
            battle__status=Battle.Status.COMPLETED,
        )
        .values("force_id", "battle__date")
        .annotate(wins=Count("*"))  # not the sides' keys, which the index holds not
        .order_by()
        .values_list("force_id", "battle__date", "wins")
    ),
    **dict.fromkeys(_SLOTS, int),
)
"""Up to `charts.MOST_LINES` forces' wins per day they won, in one query compiled once
(`campaign.prepared`)."""


@dataclass(frozen=True)
class XpBattle:
    battle_id: int
    date: datetime.date
    mission: str
    xp_before: int
    xp_after: int


@dataclass(frozen=True)
class XpHistory:
    chart: charts.LineChart
    battles: list[XpBattle]
    """The battles drawn, oldest first (the chart's numbers, as a table)."""
    earlier: bool
    """Older battles are left out (only the last `charts.MOST_POINTS` are drawn)."""


def _xp_battles(unit: int):
    return (
        BattleUnit.objects.filter(
            unit=unit,
            xp_before__isnull=False,
            xp_after__isnull=False,
            participant__battle__status=Battle.Status.COMPLETED,
        )
        # Newest first. A force is in one battle at a time (it can start or join another
        # only once that one is over), so its cards' entries are made in the order their
        # battles end: the index on the card and the entry stops at the last battles,
        # where ordering by the battles' end read every one the card fought.
        .order_by("-pk")
        .values_list(
            "participant__battle_id",
            "participant__battle__date",
            "participant__battle__mission",
            "xp_before",
            "xp_after",
        )[: charts.MOST_POINTS + 1]
    )


_XP_BATTLES = Prepared(_xp_battles, unit=int)
"""The last completed battles of a card, compiled once (`campaign.prepared`)."""


XP_BATTLES = _XP_BATTLES
"""For a page that reads a card's rows together (`prepared.fetch_together`)."""


def xp_battles(unit: Unit, rows: list | None = None) -> tuple[list[XpBattle], bool] | None:
    """A unit's XP over its last completed battles, in the order they were recorded (one
    query, at most `charts.MOST_POINTS` + 1 rows, unless ``rows`` holds what `XP_BATTLES`
    read), and whether older ones are left out. None for a unit that never gains XP (no
    query)."""
    if unit.no_xp:
        return None
    if rows is None:
        rows = _XP_BATTLES.fetch(unit=unit.pk)
    earlier = len(rows) > charts.MOST_POINTS
    return [XpBattle(*row) for row in reversed(rows[: charts.MOST_POINTS])], earlier


def xp_history(unit: Unit, shown: tuple[list[XpBattle], bool] | None = None) -> XpHistory | None:
    """The chart of `xp_battles` (``shown``, when read already), with the thresholds of
    the ranks the unit can reach. None for a unit that never gains XP or has fought no
    battle."""
    shown = xp_battles(unit) if shown is None else shown
    if shown is None:
        return None
    battles, earlier = shown
    cap = rules.xp_cap(is_character=unit.is_character, legendary_veteran=unit.legendary_veteran)
    thresholds = [
        (rank.label, rank.min_xp) for rank in rules.Rank if cap is None or rank.min_xp <= cap
    ]
    chart = charts.xp_over_battles(
        [(b.xp_before, b.xp_after) for b in battles],
        thresholds=thresholds,
        label=unit.name,
        names=[charts.long_date(b.date) + (f", {b.mission}" if b.mission else "") for b in battles],
    )
    return None if chart is None else XpHistory(chart, battles, earlier)
