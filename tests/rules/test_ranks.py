"""R2.6 and R3: experience, caps and ranks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules import (
    BATTLE_XP,
    MARKED_FOR_GREATNESS_XP,
    NON_CHARACTER_XP_CAP,
    RANK_THRESHOLDS,
    Rank,
    add_xp,
    battle_xp_gained,
    dealers_of_death_xp,
    is_no_xp,
    rank_for_xp,
    ranks_gained,
    xp_cap,
)

RULES = settings(max_examples=100, deadline=None, database=None)
xp_values = st.integers(min_value=0, max_value=400)
tallies = st.integers(min_value=0, max_value=200)


@pytest.mark.parametrize(
    ("xp", "rank"),
    [
        (0, Rank.BATTLE_READY),
        (5, Rank.BATTLE_READY),
        (6, Rank.BLOODED),
        (15, Rank.BLOODED),
        (16, Rank.BATTLE_HARDENED),
        (30, Rank.BATTLE_HARDENED),
        (31, Rank.HEROIC),
        (50, Rank.HEROIC),
        (51, Rank.LEGENDARY),
        (500, Rank.LEGENDARY),
    ],
)
def test_it_gives_the_rank_the_r3_5_table_lists_at_each_boundary(xp, rank):
    """R3.5: 0-5 Battle-ready, 6-15 Blooded, 16-30 Battle-hardened, 31-50 Heroic, 51+."""
    assert rank_for_xp(xp) is rank


@pytest.mark.parametrize(
    ("rank", "label"),
    [
        (Rank.BATTLE_READY, "Battle-ready"),
        (Rank.BLOODED, "Blooded"),
        (Rank.BATTLE_HARDENED, "Battle-hardened"),
        (Rank.HEROIC, "Heroic"),
        (Rank.LEGENDARY, "Legendary"),
    ],
)
def test_it_labels_each_rank_as_the_rulebook_names_it(rank, label):
    """R3.5: rank names."""
    assert rank.label == label


def test_it_orders_ranks_from_battle_ready_up_to_legendary():
    """R3.5: a higher rank compares greater."""
    assert Rank.BATTLE_READY < Rank.BLOODED < Rank.BATTLE_HARDENED < Rank.HEROIC < Rank.LEGENDARY


@pytest.mark.parametrize("rank", list(Rank))
def test_it_starts_each_rank_exactly_at_its_threshold(rank):
    """R3.5: RANK_THRESHOLDS holds the first XP of each rank; one less is the rank below."""
    floor = RANK_THRESHOLDS[rank]
    assert rank_for_xp(floor) is rank
    assert rank.min_xp == floor
    if rank is not Rank.BATTLE_READY:
        assert rank_for_xp(floor - 1) == rank - 1


def test_it_refuses_negative_xp_when_ranking():
    """R2.4/R3.5: XP starts at 0 and never goes below it."""
    with pytest.raises(ValueError):
        rank_for_xp(-1)


@RULES
@given(xp=xp_values, more=xp_values)
def test_it_never_lowers_the_rank_as_xp_rises(xp, more):
    """R3.5: rank is monotonic in XP."""
    assert rank_for_xp(xp + more) >= rank_for_xp(xp)


@pytest.mark.parametrize(
    ("before", "after", "promotions"),
    [(0, 5, 0), (5, 6, 1), (6, 15, 0), (15, 16, 1), (0, 16, 2), (14, 31, 2), (0, 51, 4)],
)
def test_it_earns_one_promotion_per_rank_gained(before, after, promotions):
    """R3.7: each rank gained is a promotion; jumping two ranks earns two."""
    assert ranks_gained(before, after) == promotions


@pytest.mark.parametrize(
    ("is_character", "legendary_veteran", "cap"),
    [(False, False, 30), (True, False, None), (False, True, None), (True, True, None)],
)
def test_it_caps_xp_at_30_only_for_non_characters_without_legendary_veterans(
    is_character, legendary_veteran, cap
):
    """R3.6/R6.3: only CHARACTERs and Legendary Veterans go past 30XP."""
    assert xp_cap(is_character=is_character, legendary_veteran=legendary_veteran) == cap
    assert NON_CHARACTER_XP_CAP == 30


def test_it_loses_xp_gained_beyond_the_cap():
    """R3.6: a non-CHARACTER at 28XP gaining 5 stops at 30."""
    assert add_xp(28, 5, is_character=False, legendary_veteran=False) == 30


@pytest.mark.parametrize(("is_character", "legendary_veteran"), [(True, False), (False, True)])
def test_it_lets_characters_and_legendary_veterans_keep_xp_past_30(is_character, legendary_veteran):
    """R3.6/R6.3: uncapped units keep every XP they gain."""
    assert add_xp(28, 5, is_character=is_character, legendary_veteran=legendary_veteran) == 33


@pytest.mark.parametrize("is_character", [True, False])
def test_it_gives_no_xp_to_a_no_xp_unit(is_character):
    """R2.6: EPIC HERO, FORTIFICATION and SWARM units never gain XP."""
    assert add_xp(0, 4, is_character=is_character, legendary_veteran=False, no_xp=True) == 0


def test_it_refuses_a_negative_xp_gain():
    """R3.1-R3.4: XP is only ever gained."""
    with pytest.raises(ValueError):
        add_xp(10, -1, is_character=True, legendary_veteran=False)


@RULES
@given(xp=st.integers(0, 30), gained=xp_values)
def test_it_never_lets_a_capped_unit_exceed_30xp(xp, gained):
    """R3.6: XP never exceeds the cap."""
    assert add_xp(xp, gained, is_character=False, legendary_veteran=False) <= 30


@RULES
@given(
    xp=xp_values,
    gained=xp_values,
    is_character=st.booleans(),
    legendary_veteran=st.booleans(),
    no_xp=st.booleans(),
)
def test_it_never_decreases_xp_when_adding(xp, gained, is_character, legendary_veteran, no_xp):
    """R3.6: caps only stop gains; XP a unit holds is never taken away."""
    result = add_xp(
        xp, gained, is_character=is_character, legendary_veteran=legendary_veteran, no_xp=no_xp
    )
    assert result >= xp


@RULES
@given(xp=xp_values, gained=xp_values)
def test_it_adds_every_point_for_an_uncapped_unit(xp, gained):
    """R3.6: a CHARACTER has no XP cap."""
    assert add_xp(xp, gained, is_character=True, legendary_veteran=False) == xp + gained


@pytest.mark.parametrize(
    ("before", "after", "xp"),
    [(2, 4, 1), (2, 7, 2), (0, 3, 1), (0, 2, 0), (3, 5, 0), (5, 6, 1), (0, 9, 3), (4, 4, 0)],
)
def test_it_awards_dealers_of_death_for_each_new_multiple_of_three(before, after, xp):
    """R3.2: 2->4 gives 1XP, 2->7 gives 2XP, 0->3 gives 1XP."""
    assert dealers_of_death_xp(before, after) == xp


@pytest.mark.parametrize(
    ("gained", "values"),
    [
        pytest.param(ranks_gained, xp_values, id="R3.7-promotions"),
        pytest.param(dealers_of_death_xp, tallies, id="R3.2-dealers-of-death"),
    ],
)
@RULES
@given(data=st.data())
def test_it_gives_as_much_for_a_climb_split_anywhere_as_for_the_whole(gained, values, data):
    """R3.7: promotions over a climb split at any point add up to the whole climb.
    R3.2: d(a,b) + d(b,c) == d(a,c), so splitting kills across battles changes nothing."""
    low, mid, high = sorted(data.draw(values) for _ in range(3))
    assert gained(low, mid) + gained(mid, high) == gained(low, high)


@RULES
@given(before=tallies, kills=st.integers(0, 30))
def test_it_counts_dealers_of_death_as_multiples_of_three_passed(before, kills):
    """R3.2: one XP for every multiple of 3 in (before, after]."""
    after = before + kills
    multiples = [n for n in range(before + 1, after + 1) if n % 3 == 0]
    assert dealers_of_death_xp(before, after) == len(multiples)


def test_it_refuses_a_units_destroyed_tally_that_goes_down():
    """R2.5/R3.2: the tally only grows."""
    with pytest.raises(ValueError):
        dealers_of_death_xp(5, 4)


@pytest.mark.parametrize(
    ("tally_before", "kills", "marked", "bonus", "xp"),
    [
        (0, 0, False, 0, 1),
        (0, 0, True, 0, 4),
        (2, 2, False, 0, 2),
        (2, 5, True, 2, 1 + 2 + 3 + 2),
    ],
)
def test_it_sums_battle_experience_dealers_of_death_marked_and_bonus_xp(
    tally_before, kills, marked, bonus, xp
):
    """R3.1 1XP + R3.2 kills + R3.3 3XP if Marked for Greatness + R3.4 bonus."""
    assert (
        battle_xp_gained(
            tally_before=tally_before,
            enemy_units_destroyed=kills,
            marked_for_greatness=marked,
            bonus_xp=bonus,
        )
        == xp
    )
    assert BATTLE_XP == 1
    assert MARKED_FOR_GREATNESS_XP == 3


@pytest.mark.parametrize("epic_hero", [False, True])
@pytest.mark.parametrize("fortification", [False, True])
@pytest.mark.parametrize("swarm", [False, True])
def test_it_treats_epic_heroes_fortifications_and_swarms_as_no_xp_units(
    epic_hero, fortification, swarm
):
    """R2.6: any one of the three keywords makes a no-XP unit."""
    assert is_no_xp(epic_hero=epic_hero, fortification=fortification, swarm=swarm) == (
        epic_hero or fortification or swarm
    )
