"""Chart geometry: scales, ticks, thinning and the two charts, without Django."""

from __future__ import annotations

import ast
import datetime
from pathlib import Path

import pytest

from campaign import charts
from campaign.charts import (
    HEIGHT,
    MOST_LINES,
    MOST_POINTS,
    Scale,
    WinsSeries,
    integer_ticks,
    points_attr,
    short_date,
    thinned,
    wins_over_time,
    xp_over_battles,
)

MONDAY = datetime.date(2025, 1, 6)
RANKS = [("Battle-ready", 0), ("Blooded", 6), ("Battle-hardened", 16), ("Heroic", 31)]


def week(n: int) -> datetime.date:
    return MONDAY + datetime.timedelta(weeks=n)


def parsed(points: str) -> list[tuple[float, float]]:
    return [tuple(map(float, pair.split(","))) for pair in points.split()]


# Scales and ticks


def test_it_maps_a_domain_onto_pixels_linearly():
    scale = Scale((0, 10), (100, 200))
    assert [scale(0), scale(5), scale(10)] == [100, 150, 200]


def test_it_maps_upwards_for_a_y_axis():
    scale = Scale((0, 40), (200, 0))
    assert scale(0) == 200 and scale(40) == 0 and scale(10) == 150


def test_it_puts_an_empty_domain_in_the_middle():
    assert Scale((3, 3), (0, 100))(3) == 50


@pytest.mark.parametrize(
    ("top", "ticks"),
    [
        (0, [0, 1]),
        (1, [0, 1]),
        (3, [0, 1, 2, 3]),
        (7, [0, 2, 4, 6, 8]),
        (20, [0, 5, 10, 15, 20]),
        (31, [0, 10, 20, 30, 40]),
        (51, [0, 20, 40, 60]),
        (230, [0, 50, 100, 150, 200, 250]),
    ],
)
def test_it_picks_round_ticks_that_reach_the_top(top, ticks):
    assert integer_ticks(top) == ticks


def test_it_never_makes_more_than_the_ticks_asked_for():
    for top in range(1, 2000, 7):
        ticks = integer_ticks(top, most=5)
        assert ticks[0] == 0 and ticks[-1] >= top
        assert len(ticks) <= 6


def test_it_thins_a_long_series_to_the_most_points_keeping_both_ends():
    items = list(range(500))
    kept = thinned(items, 60)
    assert len(kept) == 60
    assert kept[0] == 0 and kept[-1] == 499
    assert kept == sorted(kept)


def test_it_leaves_a_short_series_alone():
    assert thinned([1, 2, 3], 60) == [1, 2, 3]


def test_it_writes_polyline_points():
    assert points_attr([(1.0, 2.5), (30, 4)]) == "1,2.5 30,4"


def test_it_names_dates_in_english_whatever_the_locale():
    assert short_date(datetime.date(2025, 3, 9)) == "9 Mar"


# Wins over time


def test_it_draws_a_line_per_force_from_zero_to_its_wins():
    chart, table = wins_over_time(
        [
            WinsSeries("Iron Wolves", {week(0): 1, week(2): 2}),
            WinsSeries("Red Talons", {week(1): 1}),
        ]
    )

    assert [line.label for line in chart.lines] == ["Iron Wolves", "Red Talons"]
    assert [line.last for line in chart.lines] == [3, 1]
    # A start at 0, then one point at the end of each week anyone won.
    assert [line.count for line in chart.lines] == [4, 4]
    assert parsed(chart.lines[0].points)[0] == (chart.left, chart.bottom)  # 0 wins, at the start
    # The table: a row per force, its wins so far at the end of each week drawn.
    assert table.dates == ["12 Jan 2025", "19 Jan 2025", "26 Jan 2025"]
    assert table.rows == [
        ("Iron Wolves", [("12 Jan 2025", 1), ("19 Jan 2025", 1), ("26 Jan 2025", 3)]),
        ("Red Talons", [("12 Jan 2025", 0), ("19 Jan 2025", 1), ("26 Jan 2025", 1)]),
    ]


def test_it_adds_up_the_wins_of_each_week_from_monday_to_sunday():
    tuesday, sunday, next_monday = (MONDAY + datetime.timedelta(days=d) for d in (1, 6, 7))
    series = WinsSeries("Iron Wolves", {tuesday: 1, sunday: 2, next_monday: 1})

    assert series.wins_by_week == {MONDAY: 3, next_monday: 1}
    chart, table = wins_over_time([series])
    assert chart.lines[0].count == 3
    assert table.rows == [("Iron Wolves", [("12 Jan 2025", 3), ("19 Jan 2025", 4)])]


def test_it_draws_lines_that_never_go_down():
    chart, _ = wins_over_time([WinsSeries("A", {week(n): n % 3 for n in range(30)})])
    ys = [y for _, y in parsed(chart.lines[0].points)]
    assert ys == sorted(ys, reverse=True)  # SVG's y grows downwards


def test_it_draws_at_most_eight_lines_of_a_bounded_number_of_points():
    series = [WinsSeries(f"Force {i}", {week(n): 1 for n in range(i, 300, 2)}) for i in range(12)]

    chart, table = wins_over_time(series)

    assert len(chart.lines) == MOST_LINES
    assert all(line.count <= MOST_POINTS + 1 for line in chart.lines)
    assert len(table.rows) == MOST_LINES
    assert len(table.dates) == charts.MOST_TABLE_DATES
    assert table.rows[0][1][-1] == (table.dates[-1], chart.lines[0].last)
    # Thinning drops points, never wins: the last point is every win so far.
    assert [line.last for line in chart.lines] == [len(range(i, 300, 2)) for i in range(8)]


def test_it_keeps_every_point_inside_the_plot():
    chart, _ = wins_over_time([WinsSeries("A", {week(n): 2 for n in range(70)})])
    for x, y in parsed(chart.lines[0].points):
        assert chart.left <= x <= chart.right
        assert chart.top <= y <= chart.bottom


def test_it_draws_nothing_before_anyone_has_won():
    assert wins_over_time([WinsSeries("A", {}), WinsSeries("B", {})]) is None
    assert wins_over_time([]) is None


def test_it_describes_the_chart_for_screen_readers():
    chart, _ = wins_over_time(
        [WinsSeries("Iron Wolves", {week(0): 4}), WinsSeries("Red Talons", {week(0): 1})]
    )
    assert chart.title == "Wins over time"
    assert "6 Jan 2025" in chart.description
    assert "Most wins: Iron Wolves, 4" in chart.description


# XP over battles


def test_it_draws_xp_before_the_first_battle_and_after_each():
    chart = xp_over_battles([(0, 3), (3, 7), (7, 9)], thresholds=RANKS)

    (line,) = chart.lines
    assert line.count == 4
    assert line.last == 9
    xs = [x for x, _ in parsed(line.points)]
    assert xs == sorted(xs)


def test_it_marks_every_battles_point_with_a_title_naming_the_battle():
    names = ["3 Mar 2025, Sweep and Clear", "10 Mar 2025", "17 Mar 2025, Purge"]
    chart = xp_over_battles([(0, 3), (3, 7), (7, 9)], thresholds=RANKS, names=names)

    (line,) = chart.lines
    assert [mark.title for mark in line.marks] == [
        "3 Mar 2025, Sweep and Clear: 0 to 3 XP",
        "10 Mar 2025: 3 to 7 XP",
        "17 Mar 2025, Purge: 7 to 9 XP",
    ]
    drawn = [(round(mark.x, 1), round(mark.y, 1)) for mark in line.marks]
    assert drawn == [(round(x, 1), round(y, 1)) for x, y in parsed(line.points)[1:]]
    assert (line.marks[-1].x, line.marks[-1].y) == line.end


def test_it_names_each_battle_by_its_number_when_not_told_its_name():
    chart = xp_over_battles([(n, n + 1) for n in range(200)], thresholds=RANKS)

    marks = chart.lines[0].marks
    assert len(marks) == MOST_POINTS
    assert marks[0].title == "Battle 1: 140 to 141 XP" and marks[-1].title.endswith("to 200 XP")


def test_it_draws_the_thresholds_up_to_the_rank_above_the_units_xp():
    chart = xp_over_battles([(0, 3), (3, 9)], thresholds=RANKS)

    assert [rule.label for rule in chart.rules] == ["Blooded (6 XP)", "Battle-hardened (16 XP)"]
    assert int(chart.y_ticks[-1].label) >= 16
    blooded, hardened = chart.rules
    assert chart.top <= hardened.y < blooded.y <= chart.bottom


def test_it_draws_every_threshold_below_the_top_rank_reached():
    chart = xp_over_battles([(40, 45)], thresholds=RANKS)
    assert len(chart.rules) == 3  # Battle-ready's 0 is the axis itself


def test_it_draws_only_the_last_battles():
    chart = xp_over_battles([(n, n + 1) for n in range(200)], thresholds=RANKS)
    assert chart.lines[0].count == MOST_POINTS + 1
    assert chart.lines[0].last == 200


def test_it_draws_no_xp_chart_before_the_first_battle():
    assert xp_over_battles([], thresholds=RANKS) is None


def test_it_keeps_the_chart_to_its_own_size():
    chart = xp_over_battles([(0, 1)], thresholds=RANKS)
    assert chart.viewbox == f"0 0 {chart.width} {HEIGHT}"


def test_it_builds_charts_without_django():
    tree = ast.parse(Path(charts.__file__).read_text())
    modules = {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    } | {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert "django" not in modules and "campaign" not in modules
