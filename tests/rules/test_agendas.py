"""Agendas in play (R11.1): how many a side picks, what its marks may claim, the XP within
the caps (R3.6) and the tally bound a restored card must keep."""

import pytest

from campaign import rules
from campaign.packs.model import Agenda


def agenda(*, xp=2, keeps_tally=False, limit=None, name="Hold the Beacon") -> Agenda:
    return Agenda("a", name, "", xp, keeps_tally, limit)


@pytest.mark.parametrize(
    ("packs", "allowed"),
    [
        ([], 0),
        ([rules.PackAgendas(0, 3)], 0),  # a pack without Agendas offers none to pick
        ([rules.PackAgendas(2, 1), rules.PackAgendas(4, 3)], 3),  # the largest number
        ([rules.PackAgendas(2, 2), rules.PackAgendas(0, 5)], 2),  # only packs with Agendas
        ([rules.PackAgendas(1, None)], 1),
    ],
)
def test_it_allows_the_largest_number_among_the_packs_that_hold_agendas(packs, allowed):
    """R11.1: how many Agendas is pack data."""
    assert rules.agendas_per_battle(packs) == allowed


def test_it_refuses_more_picks_than_allowed_and_says_how_many():
    assert rules.agenda_pick_refusal(2, 2) is None
    assert rules.agenda_pick_refusal(0, 0) is None
    assert rules.agenda_pick_refusal(3, 2) == "Pick at most 2 Agendas for a battle (3 picked)."
    assert rules.agenda_pick_refusal(1, 0) == "This campaign's packs hold no Agendas to pick."


def test_it_takes_a_tally_agenda_many_times_for_one_unit():
    assert rules.agenda_mark_refusals(agenda(keeps_tally=True), [("Squad", 5)]) == []


def test_it_takes_any_other_agenda_once_per_unit_whatever_its_limit():
    """R11.1 (decision): a non-tally Agenda, once per unit; its limit caps how many units."""
    assert rules.agenda_mark_refusals(agenda(limit=2), [("Squad", 2)]) == [
        "Hold the Beacon keeps no tally: Squad can achieve it only once in a battle."
    ]
    assert rules.agenda_mark_refusals(agenda(limit=2), [("Squad", 1), ("Captain", 1)]) == []


def test_it_counts_the_limit_per_battle_over_all_the_sides_units():
    assert rules.agenda_mark_refusals(
        agenda(keeps_tally=True, limit=3), [("Squad", 2), ("Captain", 2)]
    ) == ["Hold the Beacon can be achieved at most 3 times in a battle (4 marked)."]


def test_it_refuses_an_achievement_of_no_time():
    assert rules.agenda_mark_refusals(agenda(), [("Squad", 0)]) == [
        "Squad achieved Hold the Beacon at least once, or not at all."
    ]


def test_it_gives_the_packs_xp_for_each_time_and_a_tally_only_for_a_tally_agenda():
    """R11.1: XP per achievement; a tally Agenda adds to the Agenda tally (R2.5)."""
    assert rules.agenda_xp(agenda(xp=2, keeps_tally=True), 3) == 6
    assert rules.agenda_tally_gained(agenda(keeps_tally=True), 3) == 3
    assert rules.agenda_tally_gained(agenda(keeps_tally=False), 1) == 0


@pytest.mark.parametrize(
    ("xp", "other", "awards", "character", "no_xp", "shares"),
    [
        (0, 1, [2, 3], False, False, (2, 3)),
        (28, 1, [2], False, False, (1,)),  # R3.6: 30XP at most, the rest is lost
        (29, 1, [2, 3], False, False, (0, 0)),
        (40, 1, [4], True, False, (4,)),  # a CHARACTER has no cap
        (3, 1, [4], False, True, (0,)),  # R2.6: a no-XP unit gains nothing
    ],
)
def test_it_applies_agenda_xp_after_the_battles_other_xp_within_the_caps(
    xp, other, awards, character, no_xp, shares
):
    caps = {"is_character": character, "legendary_veteran": False, "no_xp": no_xp}
    assert rules.agenda_xp_shares(xp, other, awards, **caps) == shares
    # Together they are what the battle's XP gives in one go.
    assert rules.add_xp(xp, other, **caps) + sum(shares) == rules.add_xp(
        xp, other + sum(awards), **caps
    )


def test_it_bounds_a_restored_cards_agenda_tally_by_its_battles():
    """R2.4: a card starts at 0; only battles add to its Agendas achieved (R11.1)."""
    assert rules.agenda_tally_refusals("Squad", 0, battles_played=0) == []
    assert rules.agenda_tally_refusals("Squad", 4, battles_played=1) == []
    assert rules.agenda_tally_refusals("Squad", 3, battles_played=0) == [
        "Squad achieved 3 Agendas without playing a battle (R2.4, R11.1)."
    ]
    most = rules.agenda_tally_bound(battles_played=2)
    assert rules.agenda_tally_refusals("Squad", most, battles_played=2) == []
    assert rules.agenda_tally_refusals("Squad", most + 1, battles_played=2)
