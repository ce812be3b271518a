"""R5: Out of Action tests, Devastating Blows and Battle Scars."""

import random

import pytest

from campaign import rules, services
from campaign.models import BattleHonour, BattleScar, CustomContent, OutOfActionTest, Unit
from tests.factories import make_campaign, reload
from tests.services.cards import baneblade, commissar, krieg_force, krieg_squad
from tests.services.checks import latest_history, refused
from tests.services.earned import campaign_content, grant_relic, grant_trait, old_scars, set_xp
from tests.services.fights import Dice, destroyed_in_battle, resolve, roll

pytestmark = pytest.mark.django_db

Outcome = rules.OutOfAction


def failed_test(unit: Unit) -> OutOfActionTest:
    """The unit was destroyed and rolled a 1."""
    return roll(destroyed_in_battle(unit), 1)


# --------------------------------------------------------------------------- R5.1 the roll


@pytest.mark.parametrize(
    ("value", "status", "outcome"),
    [(1, "awaiting_choice", ""), (2, "done", "passed"), (6, "done", "passed")],
)
def test_it_passes_an_entered_roll_of_2_or_more(value, status, outcome):
    """R5.1: D6, 2+ passes."""
    squad = krieg_squad(krieg_force())
    test = destroyed_in_battle(squad)

    roll(test, value)

    test = reload(test)
    assert (test.roll, test.status, test.outcome, test.rolled_by_app) == (
        value,
        status,
        outcome,
        False,
    )
    assert (test.resolved_at is not None) == (status == "done")
    assert latest_history("out_of_action_rolled", unit=squad).actor == squad.force.player


@pytest.mark.parametrize(("value", "status"), [(2, "awaiting_choice"), (3, "done")])
def test_it_takes_1_off_the_roll_of_a_battle_weary_unit(value, status):
    """R5.1 / R5.4: Battle-weary subtracts 1, so a 2 fails."""
    squad = krieg_squad(krieg_force())
    old_scars(squad, "Battle-weary")
    test = destroyed_in_battle(squad)

    roll(test, value)

    assert reload(test).status == status


def test_it_rolls_for_the_player_with_the_apps_dice():
    """R5.1: the app may roll; the test says so."""
    squad = krieg_squad(krieg_force())
    test = destroyed_in_battle(squad)
    expected = random.Random(40).randint(1, 6)

    roll(test, rng=random.Random(40))

    test = reload(test)
    assert (test.roll, test.rolled_by_app) == (expected, True)
    assert test.status == ("done" if expected >= 2 else "awaiting_choice")


def test_it_refuses_a_roll_a_d6_cannot_show():
    squad = krieg_squad(krieg_force())
    test = destroyed_in_battle(squad)

    with refused("A D6 shows 1 to 6."):
        roll(test, 7)


def test_it_refuses_to_take_the_same_test_twice():
    squad = krieg_squad(krieg_force())
    test = destroyed_in_battle(squad)
    roll(test, 4)

    with refused("This Out of Action test has already been taken."):
        roll(test, 1)


def test_it_refuses_a_choice_after_a_passed_test():
    squad = krieg_squad(krieg_force())
    test = roll(destroyed_in_battle(squad), 5)

    with refused("This Out of Action test is not waiting for a choice."):
        resolve(test, Outcome.BATTLE_SCAR, scar_name="Fatigued")


# --------------------------------------------------------------------------- R5.2 choices


def test_it_refuses_a_devastating_blow_for_a_unit_without_honours():
    """R5.2 / R5.3: no honours and fewer than 3 scars: a Battle Scar it must be."""
    squad = krieg_squad(krieg_force())
    test = failed_test(squad)
    assert services.out_of_action_choices(test) == frozenset({Outcome.BATTLE_SCAR})

    with refused("It has no Battle Honours to lose, so it must take a Battle Scar."):
        resolve(test, Outcome.DEVASTATING_BLOW)


def test_it_gives_a_chosen_battle_scar_and_takes_a_crusade_point():
    """R5.2 / R5.4: the unit gains the scar; each scar is -1 Crusade point, even below 0."""
    squad = krieg_squad(krieg_force())
    test = failed_test(squad)
    assert reload(squad).crusade_points == 0

    resolve(test, Outcome.BATTLE_SCAR, scar_name="Fatigued")

    squad, test = reload(squad), reload(test)
    assert [(s.name, s.status) for s in squad.scars.all()] == [("Fatigued", "active")]
    assert squad.crusade_points == -1
    assert (test.status, test.outcome, test.scar_gained.name) == ("done", "battle_scar", "Fatigued")
    assert test.resolved_at is not None
    entry = latest_history("out_of_action_resolved", unit=squad)
    assert entry.changes == {"crusade_points": [0, -1]}


def test_it_offers_both_outcomes_to_a_unit_with_honours():
    """R5.2: with at least one honour, Devastating Blow or Battle Scar."""
    squad = krieg_squad(krieg_force())
    grant_trait(squad, "Obdurate Obedience")
    test = failed_test(squad)

    assert services.out_of_action_choices(test) == frozenset(
        {Outcome.DEVASTATING_BLOW, Outcome.BATTLE_SCAR}
    )
    resolve(test, Outcome.BATTLE_SCAR, scar_name="Deep Scars")

    squad = reload(squad)
    assert squad.crusade_points == 0  # +1 honour, -1 scar
    assert squad.honours.get().status == BattleHonour.Status.ACTIVE


def test_it_removes_the_chosen_honour_with_a_devastating_blow():
    """R5.2: the player picks the honour lost; Crusade points -1."""
    squad = krieg_squad(krieg_force())
    kept = grant_trait(squad, "Obdurate Obedience")
    lost = grant_trait(squad, "Headhunters")
    test = failed_test(squad)
    assert reload(squad).crusade_points == 2

    resolve(test, Outcome.DEVASTATING_BLOW, honour=lost)

    squad, test, lost, kept = reload(squad), reload(test), reload(lost), reload(kept)
    assert (lost.status, lost.lost_reason) == (BattleHonour.Status.LOST, "Devastating Blow")
    assert lost.lost_at is not None
    assert kept.status == BattleHonour.Status.ACTIVE
    assert squad.crusade_points == 1
    assert (test.outcome, test.honour_lost) == ("devastating_blow", lost)
    assert not squad.scars.exists()


def test_it_takes_back_what_a_relic_or_a_titanic_honour_gave_with_a_devastating_blow():
    """R5.2: -2 for a TITANIC unit's honour; a relic gives back what it gave."""
    force = krieg_force()
    tank = baneblade(force)
    honour = grant_trait(tank, "Elite Crew")
    vell = commissar(force)
    set_xp(vell, 31)
    relic = grant_relic(vell, "Sigil of Sol")
    assert (reload(tank).crusade_points, reload(vell).crusade_points) == (2, 2)

    resolve(failed_test(tank), Outcome.DEVASTATING_BLOW, honour=honour)
    resolve(failed_test(vell), Outcome.DEVASTATING_BLOW, honour=relic)

    assert (reload(tank).crusade_points, reload(vell).crusade_points) == (0, 0)


def test_it_refuses_a_devastating_blow_without_naming_an_honour_of_the_unit():
    squad = krieg_squad(krieg_force())
    grant_trait(squad, "Obdurate Obedience")
    other = krieg_squad(squad.force, "2nd Line Company")
    not_its_own = grant_trait(other, "Headhunters")
    test = failed_test(squad)

    with refused("Pick one of the unit's Battle Honours to lose."):
        resolve(test, Outcome.DEVASTATING_BLOW, honour=not_its_own)


def test_it_forces_a_devastating_blow_on_a_unit_with_three_scars():
    """R5.3: at 3 scars (the maximum) a Battle Scar is refused."""
    squad = krieg_squad(krieg_force())
    honour = grant_trait(squad, "Obdurate Obedience")
    old_scars(squad, "Fatigued", "Deep Scars", "Crippling Damage")
    test = failed_test(squad)
    assert services.out_of_action_choices(test) == frozenset({Outcome.DEVASTATING_BLOW})

    with refused("It already has 3 Battle Scars, so it must take a Devastating Blow."):
        resolve(test, Outcome.BATTLE_SCAR, scar_name="Disgraced")

    resolve(test, Outcome.DEVASTATING_BLOW, honour=honour)
    assert reload(squad).crusade_points == -3


def test_it_removes_a_unit_with_three_scars_and_no_honours_right_after_it_fails():
    """R5.3 / R1.4: removed from the Order of Battle, as a status with date and reason."""
    force = krieg_force()
    squad = krieg_squad(force)
    old_scars(squad, "Fatigued", "Deep Scars", "Crippling Damage")
    test = destroyed_in_battle(squad)
    used_before = reload(force).supply_used

    roll(test, 1)

    squad, test = reload(squad), reload(test)
    assert squad.status == Unit.Status.REMOVED
    assert squad.removed_at is not None
    assert squad.removed_reason == rules.REMOVED_FOR_GOOD
    assert (test.status, test.outcome) == ("done", "removed")
    assert reload(force).supply_used == used_before - squad.points
    assert reload(force).supply_limit == 1000
    assert latest_history("out_of_action_resolved", unit=squad).changes["status"] == [
        "active",
        "removed",
    ]
    assert squad.scars.count() == 3  # the card stays readable


def test_it_keeps_a_unit_with_three_scars_and_no_honours_that_passes():
    squad = krieg_squad(krieg_force())
    old_scars(squad, "Fatigued", "Deep Scars", "Crippling Damage")

    roll(destroyed_in_battle(squad), 2)

    assert reload(squad).is_active


def test_it_refuses_a_scar_the_unit_already_bears():
    """R5.2: never the same scar twice."""
    squad = krieg_squad(krieg_force())
    old_scars(squad, "Fatigued")
    test = failed_test(squad)

    with refused("1st Line Company already bears Fatigued; a unit never has the same scar twice."):
        resolve(test, Outcome.BATTLE_SCAR, scar_name="Fatigued")


def test_it_rerolls_a_scar_the_unit_already_bears():
    """R5.2: rolling re-rolls duplicates (the die shows 3 = Fatigued twice, then 1)."""
    squad = krieg_squad(krieg_force())
    old_scars(squad, "Fatigued", "Deep Scars")
    test = failed_test(squad)

    resolve(test, Outcome.BATTLE_SCAR, rng=Dice(3, 6, 3, 1))

    assert reload(test).scar_gained.name == "Crippling Damage"
    assert set(reload(squad).scars.values_list("name", flat=True)) == {
        "Fatigued",
        "Deep Scars",
        "Crippling Damage",
    }


@pytest.mark.parametrize("seed", range(8))
def test_it_never_rolls_a_scar_the_unit_already_bears(seed):
    squad = krieg_squad(krieg_force())
    old_scars(squad, "Battle-weary", "Disgraced")
    test = failed_test(squad)

    resolve(test, Outcome.BATTLE_SCAR, rng=random.Random(seed))

    assert reload(test).scar_gained.name not in {"Battle-weary", "Disgraced"}
    assert reload(squad).scars.count() == 3


def test_it_gives_a_campaigns_own_battle_scar():
    """R5.2 / R4.1: scars are data; a campaign may add its own."""
    gas = campaign_content(
        CustomContent.Kind.BATTLE_SCAR, "Gas-scarred Lungs", effect="-1 to Advance rolls."
    )
    squad = krieg_squad(krieg_force(campaign=gas.campaign))
    test = failed_test(squad)

    resolve(test, Outcome.BATTLE_SCAR, custom_scar=gas)

    scar = reload(squad).scars.get()
    assert (scar.name, scar.effect, scar.custom_content) == (
        "Gas-scarred Lungs",
        "-1 to Advance rolls.",
        gas,
    )
    assert reload(squad).crusade_points == -1


def test_it_refuses_a_battle_scar_from_another_campaign():
    other = campaign_content(CustomContent.Kind.BATTLE_SCAR, "Spore-rot")
    squad = krieg_squad(krieg_force(campaign=make_campaign()))
    test = failed_test(squad)

    with refused("That is not one of this campaign's Battle Scars."):
        resolve(test, Outcome.BATTLE_SCAR, custom_scar=other)


def test_it_refuses_a_scar_that_is_not_on_the_table():
    squad = krieg_squad(krieg_force())
    test = failed_test(squad)

    with refused("Pick a Battle Scar from the table."):
        resolve(test, Outcome.BATTLE_SCAR, scar_name="Lost an Arm")


def test_it_keeps_scars_on_the_card_after_the_battle():
    """R5.5: destroyed models return; only scars last."""
    squad = krieg_squad(krieg_force())
    resolve(failed_test(squad), Outcome.BATTLE_SCAR, scar_name="Crippling Damage")

    squad = reload(squad)
    assert squad.is_active
    assert squad.model_count == 10
    assert squad.scars.filter(status=BattleScar.Status.ACTIVE).count() == 1


def test_it_refuses_an_out_of_action_test_for_a_unit_removed_since_the_battle():
    """R1.4: a removed card never changes, so it takes no test and gains no scar
    (as settling a promotion of a removed unit is refused)."""
    squad = krieg_squad(krieg_force())
    test = destroyed_in_battle(squad)
    services.remove_unit(actor=squad.force.player, unit=squad, reason="Disbanded after Vraks")

    with refused("1st Line Company has been removed from the Order of Battle and cannot change."):
        roll(test, 1)
