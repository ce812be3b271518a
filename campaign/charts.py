"""Line charts as SVG geometry, worked out in plain Python (no Django): scales, ticks,
the points of each line. `templatetags/line_charts.py` draws a `LineChart` as inline SVG,
so a page needs no chart library and no script.

Every chart is bounded whatever the campaign's size: at most `MOST_LINES` lines of at
most `MOST_POINTS` points each (longer series are thinned, keeping their ends).
"""

from __future__ import annotations

import datetime
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

T = TypeVar("T")

WIDTH, HEIGHT = 360, 210
"""The SVG's own units: it scales to the width of the page (a 375px phone shows it at
about 0.8 of this size, a wide screen at up to 1.4)."""
LEFT, RIGHT, TOP, BOTTOM = 30, 10, 12, 24
"""Room around the plot for the axes' labels."""
MOST_POINTS = 60
MOST_LINES = 8
MOST_TABLE_DATES = 6
"""Dates in a chart's numbers as a table: the chart's text alternative sums it up (a
season of weeks at six dates), so the page stays quick to render."""
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

PALETTE: tuple[tuple[str, str], ...] = (
    ("#7a1f1f", ""),
    ("#1f5f99", "6 3"),
    ("#2f6b3a", "2 3"),
    ("#b35c00", "8 3 2 3"),
    ("#6a3d9a", ""),
    ("#00767a", "6 3"),
    ("#a0306e", "2 3"),
    ("#4d4d4d", "8 3 2 3"),
)
"""(stroke colour, stroke-dasharray) of each line: dark enough on white, and dashed
differently as well, so lines are told apart without telling colours apart."""


@dataclass(frozen=True)
class Scale:
    """Maps a value in ``domain`` linearly onto ``span`` (pixels)."""

    domain: tuple[float, float]
    span: tuple[float, float]

    def __call__(self, value: float) -> float:
        (d0, d1), (r0, r1) = self.domain, self.span
        if d1 == d0:
            return round((r0 + r1) / 2, 1)
        return round(r0 + (value - d0) * (r1 - r0) / (d1 - d0), 1)


def tick_step(top: float, most: int) -> int:
    """The smallest step of 1, 2 or 5 times a power of ten that reaches ``top`` in at most
    ``most`` steps."""
    power = 1
    while True:
        for multiple in (1, 2, 5):
            step = multiple * power
            if top / step <= most:
                return step
        power *= 10


def integer_ticks(top: float, most: int = 5) -> list[int]:
    """Whole-number ticks from 0 to at least ``top``, at most ``most`` steps apart."""
    top = max(top, 1)
    step = tick_step(top, most)
    return list(range(0, math.ceil(top / step) * step + 1, step))


def thinned(items: Sequence[T], most: int = MOST_POINTS) -> list[T]:
    """At most ``most`` of ``items``, evenly spread, always keeping the first and last."""
    if len(items) <= most:
        return list(items)
    picks = sorted({round(i * (len(items) - 1) / (most - 1)) for i in range(most)})
    return [items[i] for i in picks]


def points_attr(points: Iterable[tuple[float, float]]) -> str:
    """The ``points`` attribute of an SVG polyline."""
    return " ".join(f"{x:g},{y:g}" for x, y in points)


def short_date(day: datetime.date) -> str:
    """A date as "6 Jan", whatever the server's locale."""
    return f"{day.day} {MONTHS[day.month - 1]}"


def long_date(day: datetime.date) -> str:
    return f"{short_date(day)} {day.year}"


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Rule:
    """A labelled horizontal line across the plot (a rank's threshold)."""

    y: float
    label: str


@dataclass(frozen=True)
class Mark:
    """A dot on a line at one of its points, named for hovering and for screen readers
    (its SVG ``<title>``): one battle of a unit's XP."""

    x: float
    y: float
    title: str


@dataclass(frozen=True)
class Line:
    label: str
    colour: str
    dash: str
    points: str
    """The polyline's points attribute."""
    count: int
    end: tuple[float, float]
    """Where its last point is drawn (a dot)."""
    last: int
    """Its last value (wins, XP)."""
    marks: tuple[Mark, ...] = ()
    """A dot at each point that stands for something of its own; without them, a dot at
    the end only."""


@dataclass(frozen=True)
class LineChart:
    title: str
    description: str
    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    rules: list[Rule]
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def viewbox(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def left(self) -> int:
        return LEFT

    @property
    def right(self) -> int:
        return self.width - RIGHT

    @property
    def top(self) -> int:
        return TOP

    @property
    def bottom(self) -> int:
        return self.height - BOTTOM

    @property
    def y_label_x(self) -> int:
        return LEFT - 6

    @property
    def x_label_y(self) -> int:
        return self.height - BOTTOM + 16

    @property
    def rule_label_x(self) -> int:
        """Rules are labelled at the left, where a rising line is lowest."""
        return LEFT + 4


def _line(index: int, label: str, points: list[tuple[float, float]], last: int) -> Line:
    return _styled(index, label, points_attr(points), len(points), points[-1], last)


def _styled(
    index: int, label: str, points: str, count: int, end: tuple[float, float], last: int
) -> Line:
    """The ``index``-th line of a chart, in its colour and dash, its points written."""
    colour, dash = PALETTE[index % len(PALETTE)]
    return Line(label, colour, dash, points, count, end, last)


def _x_scale(lo: float, hi: float) -> Scale:
    return Scale((lo, hi), (LEFT, WIDTH - RIGHT))


def _y_scale(top: float) -> Scale:
    return Scale((0, top), (HEIGHT - BOTTOM, TOP))


# Standings over time


@dataclass(frozen=True)
class WinsSeries:
    """One force's wins, counted per day it fought."""

    label: str
    wins_by_day: dict[datetime.date, int]

    @property
    def wins_by_week(self) -> dict[datetime.date, int]:
        """Its wins counted per week (keyed by the Monday that starts it)."""
        weeks: dict[datetime.date, int] = {}
        for day, wins in self.wins_by_day.items():
            monday = day - datetime.timedelta(days=day.weekday())
            weeks[monday] = weeks.get(monday, 0) + wins
        return weeks


@dataclass(frozen=True)
class WinsTable:
    """The chart's numbers, as a table: each force's wins so far at the end of at most
    `MOST_TABLE_DATES` of the weeks drawn (the last one always)."""

    dates: list[str]
    rows: list[tuple[str, list[tuple[str, int]]]]
    """(force, [(date, its wins so far by then), ...]), in the order of the lines."""


WEEK = datetime.timedelta(days=6)
"""From a week's Monday to its Sunday."""


def wins_over_time(series: list[WinsSeries]) -> tuple[LineChart, WinsTable] | None:
    """Each force's wins so far, at the end of each week in which any of them won: one
    line per force (at most `MOST_LINES`), each of at most `MOST_POINTS` + 1 points. None
    when nobody has won yet."""
    series = series[:MOST_LINES]
    by_week = [one.wins_by_week for one in series]
    weeks = sorted({week for wins in by_week for week in wins})
    if not weeks:
        return None
    picked = thinned(range(len(weeks)), MOST_POINTS)
    shown = [weeks[i] for i in picked]
    start, end = weeks[0], weeks[-1] + WEEK
    totals = [_cumulative(wins, weeks, picked) for wins in by_week]
    ticks = integer_ticks(max(max(t) for t in totals))
    x, y = _x_scale(start.toordinal(), end.toordinal()), _y_scale(ticks[-1])
    # Every line has its points at the same weeks, and the lines share most heights: each
    # position is worked out once for the chart, not once for each point of each line.
    # Written out once each, too: a line's points are joined from those words.
    xs = [x((week + WEEK).toordinal()) for week in shown]
    ys = {n: y(n) for n in {0}.union(*totals)}
    x_words = [f"{value:g}," for value in xs]
    y_words = {n: f"{value:g}" for n, value in ys.items()}
    first = f"{x(start.toordinal()):g},{y_words[0]}"
    lines = [
        _styled(
            i,
            one.label,
            " ".join([first, *map(str.__add__, x_words, [y_words[n] for n in counts])]),
            len(counts) + 1,
            (xs[-1], ys[counts[-1]]),
            counts[-1],
        )
        for i, (one, counts) in enumerate(zip(series, totals, strict=True))
    ]
    leader = max(lines, key=lambda line: line.last)
    chart = LineChart(
        title="Wins over time",
        description=(
            f"Wins so far of the top {len(lines)} forces of the standings, week by week, from "
            f"{long_date(start)} to {long_date(end)}. Most wins: {leader.label}, {leader.last}."
        ),
        lines=lines,
        x_ticks=[
            Tick(x(day), short_date(datetime.date.fromordinal(day)))
            for day in _date_ticks(start.toordinal(), end.toordinal())
        ],
        y_ticks=[Tick(y(tick), str(tick)) for tick in ticks],
        rules=[],
    )
    columns = thinned(range(len(shown)), MOST_TABLE_DATES)
    dates = [long_date(shown[i] + WEEK) for i in columns]
    rows = [
        (one.label, [(date, counts[i]) for date, i in zip(dates, columns, strict=True)])
        for one, counts in zip(series, totals, strict=True)
    ]
    return chart, WinsTable(dates, rows)


def _cumulative(
    by_week: dict[datetime.date, int], weeks: list[datetime.date], picked: list[int]
) -> list[int]:
    """Wins up to the end of each picked week of ``weeks`` (the weeks thinned away count
    too)."""
    so_far = list(itertools.accumulate(by_week.get(week, 0) for week in weeks))
    return [so_far[i] for i in picked]


def _date_ticks(start: int, end: int, most: int = 4) -> list[int]:
    """Up to ``most`` + 1 evenly spread days (as ordinals) from ``start`` to ``end``."""
    count = min(most, end - start)
    return [start + round(i * (end - start) / count) for i in range(count + 1)]


# A unit's XP over its battles


def xp_over_battles(
    xp: list[tuple[int, int]],
    *,
    thresholds: list[tuple[str, int]],
    label: str = "XP",
    names: Sequence[str] = (),
) -> LineChart | None:
    """A unit's XP before its first battle shown and after each battle (``xp`` holds
    (before, after) for each, oldest first; at most `MOST_POINTS` are drawn), with each
    rank's threshold (``thresholds``: (rank, its XP)) drawn as a line up to the rank
    above the unit's XP. Each battle's point is marked with a dot titled with the
    battle's name (``names``, one per battle, else "Battle N") and its XP. None when it
    has fought no battle."""
    names = list(names)[-MOST_POINTS:] if names else []
    xp = xp[-MOST_POINTS:]
    if not xp:
        return None
    values = [xp[0][0]] + [after for _, after in xp]
    highest = max(values)
    above = [floor for _, floor in thresholds if floor > highest]
    ticks = integer_ticks(min(above) if above else highest)
    x, y = _x_scale(0, len(xp)), _y_scale(ticks[-1])
    points = [(x(i), y(value)) for i, value in enumerate(values)]
    battles = "its battle" if len(xp) == 1 else f"each of the {len(xp)} battles shown"
    marks = tuple(
        Mark(*points[n], f"{names[n - 1] if names else f'Battle {n}'}: {before} to {after} XP")
        for n, (before, after) in enumerate(xp, start=1)
    )
    return LineChart(
        title="XP over its battles",
        description=(
            f"{label}: XP before its first battle shown and after {battles}, from "
            f"{values[0]} XP to {values[-1]} XP, with the XP each rank starts at."
        ),
        lines=[replace(_line(0, label, points, values[-1]), marks=marks)],
        x_ticks=[Tick(x(n), str(n)) for n in integer_ticks(len(xp), most=6) if n <= len(xp)],
        y_ticks=[Tick(y(tick), str(tick)) for tick in ticks],
        rules=[
            Rule(y(floor), f"{rank} ({floor} XP)")
            for rank, floor in thresholds
            if 0 < floor <= ticks[-1]
        ],
    )


# Alliances' Campaign Points over the phases


@dataclass(frozen=True)
class PointsSeries:
    """One alliance's Campaign Points so far: at the start, then after each phase."""

    label: str
    colour: str
    values: list[int]


@dataclass(frozen=True)
class PointsTable:
    """The chart's numbers, as a table: each alliance's points so far at the end of at
    most `MOST_TABLE_DATES` of the phases drawn (the last one always)."""

    phases: list[str]
    rows: list[tuple[str, list[tuple[str, int]]]]


def points_over_phases(
    series: list[PointsSeries], phases: list[str]
) -> tuple[LineChart, PointsTable] | None:
    """Each alliance's Campaign Points so far, at the start and at the end of each phase
    played (``phases``, their names in order): one line per alliance (at most
    `MOST_LINES`) in its own colour, dashed differently so that lines are told apart
    without telling colours apart. None when nobody has scored yet."""
    series = series[:MOST_LINES]
    if not series or not phases or not any(any(one.values) for one in series):
        return None
    phases = phases[-MOST_POINTS:]
    ticks = integer_ticks(max(max(one.values) for one in series))
    x, y = _x_scale(0, len(phases)), _y_scale(ticks[-1])
    lines = []
    for i, one in enumerate(series):
        values = one.values[-(len(phases) + 1) :]
        points = [(x(n), y(value)) for n, value in enumerate(values)]
        line = _line(i, one.label, points, values[-1])
        marks = tuple(
            Mark(*points[n], f"{one.label} after {phases[n - 1]}: {values[n]}")
            for n in range(1, len(values))
        )
        lines.append(replace(line, colour=one.colour, marks=marks))
    leader = max(lines, key=lambda line: line.last)
    chart = LineChart(
        title="Campaign Points over the phases",
        description=(
            f"Campaign Points so far of {len(lines)} alliance{'s' if len(lines) != 1 else ''} "
            f"at the end of each of {len(phases)} phase{'s' if len(phases) != 1 else ''}. "
            f"Most: {leader.label}, {leader.last}."
        ),
        lines=lines,
        x_ticks=[
            Tick(x(n), str(n) if n else "Start")
            for n in integer_ticks(len(phases), most=6)
            if n <= len(phases)
        ],
        y_ticks=[Tick(y(tick), str(tick)) for tick in ticks],
        rules=[],
    )
    columns = thinned(range(len(phases)), MOST_TABLE_DATES)
    names = [phases[i] for i in columns]
    rows = [
        (
            one.label,
            [
                (name, one.values[-(len(phases) + 1) :][i + 1])
                for name, i in zip(names, columns, strict=True)
            ],
        )
        for one in series
    ]
    return chart, PointsTable(names, rows)
