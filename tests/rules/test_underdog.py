"""R11.2 (army Crusade points) and R11.3 (the underdog and its Crusade Blessings)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.rules import (
    ArmyCard,
    Standing,
    army_crusade_points,
    blessing_pick_refusal,
    blessings_allowed,
    pack_blessings,
    standings,
)

SAMPLE = [(5, 1), (15, 2)]
"""Thresholds as a pack gives them: a gap of at least 5 gives 1 Blessing, 15 gives 2."""


def test_it_totals_the_crusade_points_of_the_units_in_the_army_r11_2():
    assert army_crusade_points([ArmyCard(3), ArmyCard(1), ArmyCard(-1)]) == 3


def test_it_leaves_removed_units_out_of_the_army_total_r11_2():
    assert army_crusade_points([ArmyCard(3), ArmyCard(4, removed=True)]) == 3


def test_it_totals_an_empty_army_as_nothing_r11_2():
    assert army_crusade_points([]) == 0


@given(st.lists(st.tuples(st.integers(-6, 12), st.booleans())))
def test_it_is_the_sum_of_the_cards_that_still_count_r11_2(cards):
    total = army_crusade_points(ArmyCard(points, removed) for points, removed in cards)

    assert total == sum(points for points, removed in cards if not removed)


def test_it_makes_the_army_with_fewer_crusade_points_the_underdog_r11_3():
    result = standings({"red": 4, "blue": 10})

    assert result["red"].underdog and result["red"].gap == 6
    assert not result["blue"].underdog and result["blue"].gap == 0


def test_it_makes_nobody_the_underdog_when_the_totals_are_equal_r11_3():
    result = standings({"red": 7, "blue": 7})

    assert not any(s.underdog for s in result.values())
    assert {s.gap for s in result.values()} == {0}


def test_it_makes_nobody_the_underdog_of_an_army_that_fights_alone_r11_3():
    (alone,) = standings({"solo": 0}).values()

    assert not alone.underdog and alone.strongest_opponent is None


def test_it_compares_each_of_several_armies_with_the_strongest_opposing_army_r11_3():
    result = standings({"a": 2, "b": 6, "c": 10})

    assert (result["a"].gap, result["b"].gap, result["c"].gap) == (8, 4, 0)
    assert result["a"].underdog and result["b"].underdog and not result["c"].underdog


def test_it_gives_no_one_the_edge_when_the_two_strongest_of_three_are_equal_r11_3():
    result = standings({"a": 9, "b": 9, "c": 1})

    assert not result["a"].underdog and not result["b"].underdog
    assert result["c"].gap == 8


@given(st.dictionaries(st.text(max_size=3), st.integers(-20, 40), min_size=2, max_size=5))
def test_it_never_makes_the_strongest_army_the_underdog_r11_3(totals):
    result = standings(totals)
    strongest = max(totals.values())

    for key, standing in result.items():
        assert standing.underdog == (totals[key] < strongest)


@pytest.mark.parametrize(
    ("gap", "blessings"), [(0, 0), (1, 0), (4, 0), (5, 1), (14, 1), (15, 2), (99, 2)]
)
def test_it_gives_the_blessings_of_the_highest_threshold_the_gap_reaches_r11_3(gap, blessings):
    assert pack_blessings(gap, SAMPLE) == blessings
    assert pack_blessings(gap, list(reversed(SAMPLE))) == blessings


def test_it_gives_the_most_that_any_one_enabled_pack_gives_for_the_gap_r11_3():
    generous = [(3, 1), (10, 3)]

    assert blessings_allowed(4, [SAMPLE, generous]) == 1
    assert blessings_allowed(12, [SAMPLE, generous]) == 3
    assert blessings_allowed(20, [SAMPLE, generous]) == 3


def test_it_gives_no_blessings_without_a_gap_or_without_thresholds_r11_3():
    assert blessings_allowed(0, [SAMPLE]) == 0
    assert blessings_allowed(-3, [[(0, 2)]]) == 0
    assert blessings_allowed(30, []) == 0
    assert blessings_allowed(30, [[]]) == 0


def test_it_lets_the_underdog_pick_up_to_what_the_gap_gives_r11_3():
    underdog = Standing(points=2, strongest_opponent=9)

    assert blessing_pick_refusal(standing=underdog, allowed=1, picked=1) is None
    assert "gap of 7" in blessing_pick_refusal(standing=underdog, allowed=1, picked=2)


def test_it_refuses_blessings_to_an_army_that_is_not_the_underdog_r11_3():
    stronger = Standing(points=9, strongest_opponent=2)
    equal = Standing(points=5, strongest_opponent=5)

    assert "not the underdog" in blessing_pick_refusal(standing=stronger, allowed=0, picked=1)
    assert "equal" in blessing_pick_refusal(standing=equal, allowed=0, picked=1)


def test_it_says_the_underdog_may_pick_none_when_the_gap_reaches_no_threshold_r11_3():
    underdog = Standing(points=4, strongest_opponent=6)

    assert "no Blessings" in blessing_pick_refusal(standing=underdog, allowed=0, picked=1)
