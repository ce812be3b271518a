"""R9 (decision: each occurrence): an Attached unit's kills and each bonus XP award go to
one of its units, whatever its number of Leaders; R8.7: which units form one."""

import pytest

from campaign.rules import (
    KILLS,
    MARKED_FOR_GREATNESS,
    Credit,
    attached_credit_refusals,
    attached_units,
)

AGENDA = "Agenda: Cull the Horde"


def unit(key, kills=0, *awards):
    return Credit(key=key, name=key, kills=kills, awards=tuple(awards))


@pytest.mark.parametrize(
    ("attached", "refused"),
    [
        # One Leader and its Bodyguard.
        ([unit("Leader", 2), unit("Bodyguard")], []),
        ([unit("Leader"), unit("Bodyguard", 2)], []),
        ([unit("Leader", 1), unit("Bodyguard", 2)], [("Bodyguard", KILLS)]),
        # Kills to one unit, an Agenda's XP to another: allowed.
        ([unit("Leader", 3), unit("Bodyguard", 0, AGENDA)], []),
        ([unit("Leader", 0, AGENDA), unit("Bodyguard", 0, AGENDA)], [("Bodyguard", AGENDA)]),
        # The same award whatever its case or spacing.
        (
            [unit("Leader", 0, AGENDA), unit("Bodyguard", 0, "agenda:  cull the HORDE")],
            [("Bodyguard", "agenda:  cull the HORDE")],
        ),
        # Two different awards to two units: allowed.
        ([unit("Leader", 0, AGENDA), unit("Bodyguard", 0, "Mission: Hold the Line")], []),
        # Marked for Greatness is an award like any other.
        (
            [unit("Leader", 0, MARKED_FOR_GREATNESS), unit("Bodyguard", 0, "Marked for greatness")],
            [("Bodyguard", "Marked for greatness")],
        ),
        # Two Leaders (R8.7): never two units for one occurrence.
        ([unit("First", 1), unit("Second", 1), unit("Bodyguard")], [("Second", KILLS)]),
        (
            [unit("First", 1), unit("Second", 1), unit("Bodyguard", 1)],
            [("Second", KILLS), ("Bodyguard", KILLS)],
        ),
        (
            [
                unit("First", 2),
                unit("Second", 0, AGENDA),
                unit("Bodyguard", 0, MARKED_FOR_GREATNESS),
            ],
            [],
        ),
        (
            [unit("First", 0, AGENDA), unit("Second", 0, AGENDA), unit("Bodyguard")],
            [("Second", AGENDA)],
        ),
        # One unit naming the same award twice claims it once.
        ([unit("Leader", 0, AGENDA, AGENDA), unit("Bodyguard")], []),
        ([unit("Leader"), unit("Bodyguard")], []),
    ],
)
def test_it_credits_each_occurrence_to_exactly_one_unit_of_an_attached_unit(attached, refused):
    """R9: each occurrence (the kills of a battle, each bonus XP award) goes to one unit of
    the Attached unit; the first that claims it keeps it and every later claim is refused."""
    assert [(r.key, r.occurrence) for r in attached_credit_refusals(attached)] == refused


def test_it_says_which_unit_already_has_the_kills():
    """R9: the refusal names the other units of the Attached unit and the holder."""
    refusal = attached_credit_refusals(
        [unit("Lord Vhorl", 1), unit("Lord Grath", 2), unit("Blightguard")]
    )[0]

    assert refusal.message == (
        "Lord Grath fought as one Attached unit with Lord Vhorl and Blightguard: its enemy "
        "units destroyed in this battle go to one of them only, and Lord Vhorl already has them."
    )


@pytest.mark.parametrize(
    ("leads", "groups"),
    [
        ({"a": None, "b": None}, []),
        ({"leader": "squad", "squad": None}, [("leader", "squad")]),
        ({"squad": None, "leader": "squad"}, [("squad", "leader")]),
        (
            {"first": "squad", "squad": None, "second": "squad", "alone": None},
            [("first", "squad", "second")],
        ),
        (
            {"l1": "s1", "s1": None, "l2": "s2", "s2": None},
            [("l1", "s1"), ("l2", "s2")],
        ),
    ],
)
def test_it_groups_each_bodyguard_with_every_leader_attached_to_it(leads, groups):
    """R8.7: an Attached unit is a Bodyguard and its Leader (two when a rule allows)."""
    assert attached_units(leads) == groups
