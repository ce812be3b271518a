"""Organiser corrections: a reason in the history, and the rules' limits still hold."""

import pytest

from campaign import services
from tests.factories import make_user, reload
from tests.services.cards import commissar, krieg_force, krieg_squad
from tests.services.checks import latest_history, refused
from tests.services.earned import grant_trait, old_scars, set_xp
from tests.services.fights import fight

pytestmark = pytest.mark.django_db


def correct_force(force, reason="Lost a battle report", **values):
    return services.correct_force(actor=make_user(), force=force, reason=reason, **values)


def correct_unit(unit, reason="Checked against the paper roster", **values):
    return services.correct_unit(actor=make_user(), unit=unit, reason=reason, **values)


@pytest.mark.parametrize("reason", ["", "  "])
def test_it_refuses_a_force_correction_without_a_reason(reason):
    force = krieg_force()

    with refused("Say why this correction is made; it is kept in the history."):
        correct_force(force, reason=reason, rp=7)


@pytest.mark.parametrize("reason", ["", "  "])
def test_it_refuses_a_unit_correction_without_a_reason(reason):
    squad = krieg_squad(krieg_force())

    with refused("Say why this correction is made; it is kept in the history."):
        correct_unit(squad, reason=reason, xp=3)


def test_it_corrects_a_forces_numbers_and_keeps_the_reason():
    force = krieg_force()
    fight([commissar(force)])
    organiser = make_user()

    services.correct_force(
        actor=organiser,
        force=force,
        reason="Battle against Cadia was a draw, not a win",
        victories=0,
        rp=8,
    )

    force = reload(force)
    assert (force.victories, force.rp, force.battle_tally) == (0, 8, 1)
    entry = latest_history("force_corrected", force=force)
    assert entry.actor == organiser
    assert entry.reason == "Battle against Cadia was a draw, not a win"
    assert entry.changes == {"rp": [6, 8], "victories": [1, 0]}


@pytest.mark.parametrize("rp", [11, -1])
def test_it_keeps_rp_between_0_and_the_cap(rp):
    """R1.5: a correction never takes RP outside 0..cap."""
    force = krieg_force()

    with refused("RP must be between 0 and 10."):
        correct_force(force, rp=rp)


def test_it_refuses_more_victories_than_battles():
    force = krieg_force()

    with refused("Victories cannot outnumber battles."):
        correct_force(force, victories=1)


def test_it_keeps_a_non_characters_xp_within_its_cap():
    """R3.6: 30XP for a unit that is not a CHARACTER."""
    squad = krieg_squad(krieg_force())

    with refused("This unit's XP cannot go above 30."):
        correct_unit(squad, xp=31)

    correct_unit(squad, xp=30)
    assert reload(squad).xp == 30


def test_it_lets_a_character_be_corrected_past_30xp():
    leader = commissar(krieg_force())

    correct_unit(leader, xp=55)

    assert reload(leader).xp == 55


def test_it_refuses_to_unmake_a_character_holding_more_than_30xp():
    """R3.6: taking CHARACTER away would leave XP above the cap."""
    leader = commissar(krieg_force())
    set_xp(leader, 40)

    with refused("This unit's XP cannot go above 30."):
        correct_unit(leader, is_character=False)


@pytest.mark.parametrize(
    ("correct", "too_far", "just_right", "message"),
    [
        pytest.param(
            lambda force, squad, n: correct_force(force, supply_limit=n),
            960,
            970,
            "The units already use 970 points; the Supply Limit cannot be lower.",
            id="supply-limit-below-supply-used",
        ),
        pytest.param(
            lambda force, squad, n: correct_unit(squad, points=n),
            110,
            100,
            "That needs 40 more points, but only 30 points are left of your 1000-point "
            "Supply Limit (970 used).",
            id="points-beyond-the-supply-limit",
        ),
    ],
)
def test_it_keeps_supply_used_within_the_supply_limit(correct, too_far, just_right, message):
    """R1.3: a correction to the Supply Limit or to a unit's points leaves every unit of
    the Order of Battle within the Supply Limit; exactly full is allowed."""
    force = krieg_force()
    commissar(force, points=900)
    squad = krieg_squad(force, points=70)

    with refused(message):
        correct(force, squad, too_far)

    correct(force, squad, just_right)
    force = reload(force)
    assert force.supply_used == force.supply_limit


def test_it_changes_a_datasheet_and_keeps_xp_honours_and_scars():
    """R2.3 decision: a conversion rule changes the datasheet; the card keeps its story."""
    force = krieg_force()
    squad = krieg_squad(force)
    set_xp(squad, 12)
    grant_trait(squad, "Headhunters")
    old_scars(squad, "Fatigued")
    organiser = make_user()

    services.correct_unit(
        actor=organiser,
        unit=squad,
        reason="Converted to grenadiers by the campaign's Siege rule",
        datasheet="Death Korps Grenadiers",
    )

    squad = reload(squad)
    assert squad.datasheet == "Death Korps Grenadiers"
    assert squad.xp == 12
    assert [h.name for h in squad.active_honours()] == ["Headhunters"]
    assert [s.name for s in squad.active_scars()] == ["Fatigued"]
    assert squad.crusade_points == 0
    entry = latest_history("unit_corrected", unit=squad)
    assert entry.actor == organiser
    assert entry.reason == "Converted to grenadiers by the campaign's Siege rule"
    assert entry.changes == {"datasheet": ["Death Korps of Krieg", "Death Korps Grenadiers"]}


def test_it_refuses_more_battles_survived_than_played():
    squad = krieg_squad(krieg_force())

    with refused("A unit cannot survive more battles than it played."):
        correct_unit(squad, battles_survived=1)
