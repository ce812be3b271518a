"""R5 Out of Action tests and Battle Scars."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules import (
    MAX_BATTLE_SCARS,
    OUT_OF_ACTION_PASS,
    OutOfAction,
    out_of_action_options,
    out_of_action_passes,
    out_of_action_refusal,
)

RULES = settings(max_examples=100, deadline=None, database=None)
DB, SCAR, REMOVED = OutOfAction.DEVASTATING_BLOW, OutOfAction.BATTLE_SCAR, OutOfAction.REMOVED


@pytest.mark.parametrize(
    ("roll", "passes"), [(1, False), (2, True), (3, True), (4, True), (5, True), (6, True)]
)
def test_it_passes_an_out_of_action_test_on_2_or_more(roll, passes):
    """R5.1: roll a D6; 2+ passes."""
    assert out_of_action_passes(roll) is passes
    assert OUT_OF_ACTION_PASS == 2


@pytest.mark.parametrize(
    ("roll", "passes"), [(1, False), (2, False), (3, True), (4, True), (5, True), (6, True)]
)
def test_it_subtracts_one_from_a_battle_weary_units_roll(roll, passes):
    """R5.1/R5.4 Battle-weary: -1 to the roll, so a 2 now fails."""
    assert out_of_action_passes(roll, battle_weary=True) is passes


@pytest.mark.parametrize("roll", range(1, 7))
@pytest.mark.parametrize("battle_weary", [False, True])
def test_it_always_passes_no_xp_units(roll, battle_weary):
    """R2.6/R5.1: no-XP units pass automatically, even on a 1."""
    assert out_of_action_passes(roll, battle_weary=battle_weary, no_xp=True)


@pytest.mark.parametrize("roll", [0, 7, -1, True])
def test_it_refuses_a_roll_a_d6_cannot_make(roll):
    """R5.1: the test is one D6."""
    with pytest.raises(ValueError):
        out_of_action_passes(roll)


@pytest.mark.parametrize(
    ("honours", "scars", "options"),
    [
        (0, 0, {SCAR}),
        (0, 2, {SCAR}),
        (1, 0, {DB, SCAR}),
        (2, 2, {DB, SCAR}),
        (1, 3, {DB}),
        (6, 3, {DB}),
        (0, 3, {REMOVED}),
    ],
)
def test_it_offers_the_r5_2_and_r5_3_outcomes_for_each_corner(honours, scars, options):
    """R5.2 Devastating Blow needs an honour; R5.3 3 scars forces it, or removal if none."""
    assert out_of_action_options(battle_honours=honours, battle_scars=scars) == options


@RULES
@given(honours=st.integers(0, 6), scars=st.integers(0, 3))
def test_it_always_offers_an_outcome_and_only_lawful_ones(honours, scars):
    """R5.2/R5.3: never empty; removal only at 3 scars with no honour; scars stop at 3."""
    options = out_of_action_options(battle_honours=honours, battle_scars=scars)
    assert options
    assert (REMOVED in options) == (scars >= MAX_BATTLE_SCARS and honours == 0)
    if DB in options:
        assert honours > 0
    if SCAR in options:
        assert scars < MAX_BATTLE_SCARS


@pytest.mark.parametrize("choice", list(OutOfAction))
@pytest.mark.parametrize(("honours", "scars"), [(0, 0), (1, 0), (1, 3), (0, 3), (2, 2)])
def test_it_refuses_exactly_the_outcomes_the_unit_cannot_take(choice, honours, scars):
    """R5.2/R5.3: the refusal explains any choice outside the allowed options."""
    options = out_of_action_options(battle_honours=honours, battle_scars=scars)
    refusal = out_of_action_refusal(choice, battle_honours=honours, battle_scars=scars)
    if choice in options:
        assert refusal is None
    else:
        assert isinstance(refusal, str)
        assert refusal


def test_it_caps_battle_scars_at_three():
    """R5.3: three scars is the maximum."""
    assert MAX_BATTLE_SCARS == 3


@pytest.mark.parametrize(
    ("outcome", "label"),
    [(DB, "Devastating Blow"), (SCAR, "Battle Scar")],
)
def test_it_names_out_of_action_outcomes_as_the_rules_do(outcome, label):
    """R5.2: outcome names."""
    assert outcome.label == label
