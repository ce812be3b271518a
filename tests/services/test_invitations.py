"""Who fights a battle: the starter's force at once, every other force only when its player
accepts. Until then (and after a decline, a withdrawn invitation or a cancelled battle)
the force is free: requisitions, other battles, removing units."""

import pytest

from campaign import services
from campaign.models import Battle, BattleParticipant, HistoryEntry
from tests.factories import make_campaign, make_user, reload
from tests.services.cards import (
    commissar,
    krieg_force,
    krieg_squad,
    lord_of_contagion,
    plague_force,
)
from tests.services.checks import card_snapshot, refused
from tests.services.fights import go_to_battle

pytestmark = pytest.mark.django_db

Invitation = BattleParticipant.Invitation


def invite(starter, *opponents, **details) -> Battle:
    details.setdefault("battle_size", "Incursion")
    return services.start_battle(
        actor=starter.player, force=starter, opponents=list(opponents), **details
    )


def side(battle: Battle, force) -> BattleParticipant:
    return battle.participants.get(force=force)


def muster(battle: Battle, force, leader):
    return services.muster_army(
        actor=force.player,
        participant=side(battle, force),
        faction=force.faction,
        detachment="Combined Arms",
        units=[leader],
        warlord=leader,
    )


def test_it_commits_the_starters_force_and_only_invites_the_opponents():
    """R6: the starter's force is in the battle from its start; the opponent's is not."""
    krieg, plague = krieg_force(), plague_force()

    battle = invite(krieg, plague)

    assert side(battle, krieg).invitation == Invitation.ACCEPTED
    assert side(battle, plague).invitation == Invitation.INVITED
    assert reload(krieg).in_battle()
    assert not reload(plague).in_battle()
    invited = HistoryEntry.objects.get(action="battle_invited")
    assert (invited.force, invited.actor) == (plague, krieg.player)


def test_it_leaves_an_invited_force_free_for_requisitions_other_battles_and_removals():
    """R6, R1.4: an invitation nobody answered commits nothing: the invited player buys
    requisitions, removes units and starts battles of their own."""
    krieg, plague, cadia = krieg_force(), plague_force(), krieg_force(name="Cadian 8th")
    line = krieg_squad(plague)
    invite(krieg, plague)
    invite(cadia, plague)  # invited twice is fine

    services.increase_supply_limit(actor=plague.player, force=plague)
    services.remove_unit(actor=plague.player, unit=line, reason="Retired")
    own = invite(plague)

    assert reload(plague).rp == 4
    assert side(own, plague).invitation == Invitation.ACCEPTED


def test_it_commits_the_force_when_its_player_accepts():
    """R6: once accepted, the force is in a battle: no requisition until it ends."""
    krieg, plague = krieg_force(), plague_force()
    battle = invite(krieg, plague)

    services.accept_invitation(actor=plague.player, participant=side(battle, plague))

    assert side(battle, plague).invitation == Invitation.ACCEPTED
    assert reload(plague).in_battle()
    with refused(containing=["while a battle is being fought"]):
        services.increase_supply_limit(actor=plague.player, force=plague)
    entry = HistoryEntry.objects.get(action="invitation_accepted")
    assert (entry.force, entry.actor, entry.battle) == (plague, plague.player, battle)


def test_it_refuses_to_accept_for_a_force_already_committed_to_another_battle():
    """R6: a force fights one battle at a time."""
    krieg, plague, cadia = krieg_force(), plague_force(), krieg_force(name="Cadian 8th")
    first, second = invite(krieg, plague), invite(cadia, plague)
    services.accept_invitation(actor=plague.player, participant=side(first, plague))

    with refused(containing=["Plague Wall is already in a battle", "decline this one"]):
        services.accept_invitation(actor=plague.player, participant=side(second, plague))


def test_it_frees_the_force_again_when_its_battle_is_over():
    """R6: the battle's end frees the force, so it may accept the next invitation."""
    krieg, plague, cadia = krieg_force(), plague_force(), krieg_force(name="Cadian 8th")
    waiting = invite(cadia, plague)
    done = go_to_battle([commissar(krieg)], [lord_of_contagion(plague)])
    done.record()

    services.accept_invitation(actor=plague.player, participant=side(waiting, plague))

    assert side(waiting, plague).invitation == Invitation.ACCEPTED


def test_it_keeps_the_force_out_when_its_player_declines():
    krieg, plague = krieg_force(), plague_force()
    battle = invite(krieg, plague)
    before = card_snapshot(krieg, plague)

    services.decline_invitation(actor=plague.player, participant=side(battle, plague))

    assert side(battle, plague).invitation == Invitation.DECLINED
    assert not reload(plague).in_battle()
    assert card_snapshot(krieg, plague) == before
    assert HistoryEntry.objects.filter(action="invitation_declined", force=plague).exists()


@pytest.mark.parametrize("answer", ["accept_invitation", "decline_invitation"])
def test_it_refuses_to_answer_an_invitation_twice(answer):
    krieg, plague = krieg_force(), plague_force()
    battle = invite(krieg, plague)
    services.decline_invitation(actor=plague.player, participant=side(battle, plague))

    with refused("The invitation to Plague Wall is already answered: declined."):
        getattr(services, answer)(actor=plague.player, participant=side(battle, plague))


def test_it_lets_the_starter_withdraw_an_invitation_nobody_answered():
    krieg, plague = krieg_force(), plague_force()
    battle = invite(krieg, plague)

    services.withdraw_invitation(actor=krieg.player, participant=side(battle, plague))

    assert side(battle, plague).invitation == Invitation.WITHDRAWN
    with refused(containing=["already answered"]):
        services.accept_invitation(actor=plague.player, participant=side(battle, plague))


def test_it_refuses_to_withdraw_an_invitation_already_accepted():
    krieg, plague = krieg_force(), plague_force()
    battle = invite(krieg, plague)
    services.accept_invitation(actor=plague.player, participant=side(battle, plague))

    with refused("The invitation to Plague Wall is already answered: accepted."):
        services.withdraw_invitation(actor=krieg.player, participant=side(battle, plague))


def test_it_refuses_to_muster_before_the_invitation_is_accepted():
    """R8: only a force in the battle musters an army for it."""
    krieg, plague = krieg_force(), plague_force()
    lord = lord_of_contagion(plague)
    battle = invite(krieg, plague)

    with refused("Plague Wall has not accepted this battle."):
        muster(battle, plague, lord)


def test_it_waits_for_every_invitation_to_be_answered_before_a_side_records():
    """R9: the sides of a battle are known before its end is recorded."""
    krieg, plague, cadia = krieg_force(), plague_force(), krieg_force(name="Cadian 8th")
    battle = invite(krieg, plague, cadia)
    services.accept_invitation(actor=plague.player, participant=side(battle, plague))
    muster(battle, krieg, commissar(krieg))
    muster(battle, plague, lord_of_contagion(plague))

    def record():
        services.record_side(
            actor=krieg.player, participant=side(battle, krieg), result="win", outcomes={}
        )

    with refused(containing=["Waiting for Cadian 8th to answer the invitation"]):
        record()

    services.withdraw_invitation(actor=krieg.player, participant=side(battle, cadia))
    record()
    assert side(battle, krieg).claimed_result == "win"


def test_it_fights_alone_against_an_opponent_the_app_does_not_track():
    """R9: one side alone records any result, and the battle completes at once."""
    krieg = krieg_force()
    fight = go_to_battle([commissar(krieg)], results=["loss"])

    fight.record_side(krieg)

    assert reload(fight.battle).status == Battle.Status.COMPLETED
    assert (reload(krieg).battle_tally, reload(krieg).victories, reload(krieg).rp) == (1, 0, 6)


# --------------------------------------------------------------------------- cancelling


def test_it_cancels_a_battle_nobody_has_recorded_and_changes_nothing_on_any_force():
    """Cancelling: every force and card reads as before; each force gets a history row."""
    krieg, plague = krieg_force(), plague_force()
    fight = go_to_battle([commissar(krieg)], [lord_of_contagion(plague)])
    before = card_snapshot(krieg, plague)

    services.cancel_battle(actor=krieg.player, battle=fight.battle)

    battle = reload(fight.battle)
    assert battle.status == Battle.Status.CANCELLED
    assert battle.cancelled_at is not None
    assert card_snapshot(krieg, plague) == before
    assert not reload(krieg).in_battle() and not reload(plague).in_battle()
    rows = HistoryEntry.objects.filter(action="battle_cancelled", battle=battle)
    assert {row.force for row in rows} == {krieg, plague}
    assert {row.actor for row in rows} == {krieg.player}


def test_it_cancels_a_battle_whose_invitations_were_never_answered():
    krieg, plague = krieg_force(), plague_force()
    battle = invite(krieg, plague)

    services.cancel_battle(actor=krieg.player, battle=battle)

    with refused("This battle was cancelled."):
        services.accept_invitation(actor=plague.player, participant=side(battle, plague))


def test_it_refuses_to_cancel_once_a_side_has_recorded():
    krieg, plague = krieg_force(), plague_force()
    fight = go_to_battle([commissar(krieg)], [lord_of_contagion(plague)])
    fight.record_side(krieg)

    with refused(containing=["already recorded this battle", "void it"]):
        services.cancel_battle(actor=krieg.player, battle=fight.battle)


def test_it_refuses_to_void_a_cancelled_battle():
    krieg = krieg_force()
    battle = invite(krieg)
    services.cancel_battle(actor=krieg.player, battle=battle)

    with refused(containing=["cancelled", "nothing to void"]):
        services.void_battle(actor=make_user(), battle=battle, reason="Tidy up")


def test_it_voids_a_battle_never_completed_and_changes_nothing_on_any_force():
    """Voiding a battle still in progress (here: disputed) frees the forces, nothing else."""
    campaign = make_campaign()
    krieg, plague = krieg_force(campaign=campaign), plague_force(campaign=campaign)
    fight = go_to_battle(
        [commissar(krieg)],
        [lord_of_contagion(plague)],
        results=["win", "win"],
        campaign=campaign,
    )
    fight.record_side(krieg)
    fight.record_side(plague)
    assert reload(fight.battle).status == Battle.Status.DISPUTED
    before = card_snapshot(krieg, plague)

    services.void_battle(actor=make_user(), battle=fight.battle, reason="Never agreed")

    assert card_snapshot(krieg, plague) == before
    assert not reload(krieg).in_battle() and not reload(plague).in_battle()
