"""R1: Supply Limit and Requisition points."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules import (
    DEFAULT_HOUSE_RULES,
    RP_PER_BATTLE,
    HouseRules,
    RuleError,
    add_rp,
    check_supply,
    resources_in_campaign,
    rp_refusal,
    supply_over,
    supply_refusal,
)

RULES = settings(max_examples=100, deadline=None, database=None)


def test_it_starts_a_force_with_1000_supply_and_5rp_capped_at_10():
    """R1.2/R1.5/R6.1 house defaults: 1000 Supply Limit, 5RP, cap 10RP, +200 per increase."""
    assert DEFAULT_HOUSE_RULES == HouseRules()
    assert DEFAULT_HOUSE_RULES.starting_supply_limit == 1000
    assert DEFAULT_HOUSE_RULES.starting_rp == 5
    assert DEFAULT_HOUSE_RULES.rp_cap == 10
    assert DEFAULT_HOUSE_RULES.supply_limit_increase == 200


def test_it_keeps_house_rules_read_only():
    """R1.2 (house): a campaign's numbers change by making new HouseRules, not in place."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_HOUSE_RULES.rp_cap = 20  # type: ignore[misc]


def test_it_refuses_house_rules_that_start_a_force_above_the_rp_cap():
    """R1.5: RP can never exceed the cap, not even at the start."""
    with pytest.raises(ValueError):
        HouseRules(starting_rp=11, rp_cap=10)


@pytest.mark.parametrize(
    ("rp", "gained", "result"), [(5, 1, 6), (9, 1, 10), (10, 1, 10), (8, 5, 10)]
)
def test_it_loses_rp_gained_above_the_cap(rp, gained, result):
    """R1.5: RP above 10 is lost."""
    assert add_rp(rp, gained, cap=10) == result


def test_it_gives_one_rp_after_every_battle():
    """R1.5: win, lose or draw, +1RP."""
    assert RP_PER_BATTLE == 1


@RULES
@given(rp=st.integers(0, 10), gained=st.integers(0, 50))
def test_it_never_lets_rp_exceed_the_cap(rp, gained):
    """R1.5: RP can never exceed the cap, and gaining never lowers it."""
    assert rp <= add_rp(rp, gained, cap=10) <= 10


def test_it_refuses_a_negative_rp_gain():
    """R1.5: RP is gained here; spending is a requisition."""
    with pytest.raises(ValueError):
        add_rp(5, -1, cap=10)


def test_it_refuses_a_unit_that_would_exceed_the_supply_limit_and_shows_the_numbers():
    """R1.3: a 150-point unit with 900 of 1000 used is refused, naming every number."""
    message = supply_refusal(supply_used=900, supply_limit=1000, extra_points=150)
    assert message is not None
    for number in ("150", "100", "1000", "900"):
        assert number in message


@pytest.mark.parametrize(
    ("used", "limit", "extra", "message"),
    [
        (
            0,
            1500,
            2000,
            "That needs 2000 points, but your Supply Limit is 1500 and none of it is used yet.",
        ),
        (
            900,
            1000,
            150,
            "That needs 150 more points, but only 100 points are left of your 1000-point "
            "Supply Limit (900 used).",
        ),
        (
            999,
            1000,
            5,
            "That needs 5 more points, but only 1 point is left of your 1000-point "
            "Supply Limit (999 used).",
        ),
        (
            1000,
            1000,
            1,
            "That needs 1 more point, but your 1000-point Supply Limit is used up (1000 used).",
        ),
        (
            1040,
            1000,
            10,
            "That needs 10 more points, but your 1000-point Supply Limit is used up "
            "(1040 used, 40 over).",
        ),
    ],
    ids=["none-used", "some-free", "one-free", "none-free", "already-over"],
)
def test_it_words_the_supply_refusal_plainly_for_what_is_left(used, limit, extra, message):
    """R1.3: the refusal says what the change needs and what of the limit is left, and
    never calls points "more" or "free" when none of the limit is used yet."""
    assert supply_refusal(supply_used=used, supply_limit=limit, extra_points=extra) == message


def test_it_lets_the_caller_name_what_needs_the_points():
    message = supply_refusal(
        supply_used=0, supply_limit=1500, extra_points=2000, needing="The units ticked need"
    )
    assert message == (
        "The units ticked need 2000 points, but your Supply Limit is 1500 and none of it is "
        "used yet."
    )


@pytest.mark.parametrize(("used", "extra"), [(900, 100), (0, 1000), (500, 0), (1200, -50)])
def test_it_allows_changes_that_stay_within_the_supply_limit(used, extra):
    """R1.3: reaching the limit exactly is fine; adding no points is never refused."""
    assert supply_refusal(supply_used=used, supply_limit=1000, extra_points=extra) is None


@RULES
@given(used=st.integers(0, 3000), limit=st.integers(0, 3000), extra=st.integers(1, 1000))
def test_it_refuses_exactly_when_supply_used_would_pass_the_limit(used, limit, extra):
    """R1.3: Supply Used may never exceed the Supply Limit."""
    refused = supply_refusal(supply_used=used, supply_limit=limit, extra_points=extra) is not None
    assert refused == (used + extra > limit)


def test_it_raises_the_supply_refusal_as_a_rule_error():
    """R1.3: check_supply raises RuleError carrying the player-facing message."""
    expected = supply_refusal(supply_used=950, supply_limit=1000, extra_points=100)
    with pytest.raises(RuleError) as caught:
        check_supply(supply_used=950, supply_limit=1000, extra_points=100)
    assert caught.value.message == expected
    check_supply(supply_used=900, supply_limit=1000, extra_points=100)


def test_it_refuses_a_requisition_the_force_cannot_pay_for_naming_both_amounts():
    """R6: buying reduces RP by the cost, so RP must cover it."""
    message = rp_refusal(rp=1, cost=2)
    assert message is not None
    assert "2RP" in message
    assert "1RP" in message
    assert rp_refusal(rp=2, cost=2) is None


CAMPAIGN = HouseRules(starting_supply_limit=1500, starting_rp=3, rp_cap=6)


def test_it_starts_a_force_still_being_raised_again_under_the_campaigns_house_rules():
    """Decision (R1.2): brought into a campaign before its first battle or requisition, a
    force starts from the campaign's Supply Limit and RP, as if created there."""
    assert resources_in_campaign(supply_limit=1000, rp=5, being_raised=True, house=CAMPAIGN) == (
        1500,
        3,
    )


@pytest.mark.parametrize(("rp", "kept"), [(2, 2), (6, 6), (9, 6)])
def test_it_keeps_what_a_seasoned_force_earned_but_loses_rp_above_the_cap(rp, kept):
    """Decision (R1.5): a force that has fought or spent RP keeps its Supply Limit and RP;
    RP above the campaign's cap is lost."""
    assert resources_in_campaign(supply_limit=1400, rp=rp, being_raised=False, house=CAMPAIGN) == (
        1400,
        kept,
    )


@RULES
@given(
    supply=st.integers(0, 10_000),
    rp=st.integers(0, 20),
    cap=st.integers(1, 20),
    raised=st.booleans(),
)
def test_it_never_leaves_a_force_above_the_campaigns_rp_cap(supply, rp, cap, raised):
    """R1.5 as a law: whatever the force brings, its RP fits the campaign's cap."""
    house = HouseRules(starting_rp=min(3, cap), rp_cap=cap)
    _, kept = resources_in_campaign(supply_limit=supply, rp=rp, being_raised=raised, house=house)
    assert 0 <= kept <= cap


@pytest.mark.parametrize(
    ("used", "limit", "over"), [(1040, 1000, 40), (1000, 1000, 0), (900, 1000, 0), (1, 0, 1)]
)
def test_it_says_how_far_supply_used_is_over_the_limit(used, limit, over):
    """R1.3: a force can be found over its limit (points that start to count); by how much."""
    assert supply_over(supply_used=used, supply_limit=limit) == over
