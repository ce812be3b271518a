"""Where a restored force came from, and the organiser's approval it may need first.

The server signs each export; only an untouched export of this server reads as verified.
A force restored from any other file, or from another player's force, can't fight or buy
Requisitions until an organiser of its campaign approves it (R6, R8, R9 blocked)."""

from __future__ import annotations

import copy
import json

import pytest
from django.test import override_settings

from campaign import documents, services
from campaign.models import HistoryEntry, Provenance
from tests.factories import make_campaign, make_user
from tests.services.cards import commissar, krieg_force
from tests.services.checks import refused
from tests.services.fights import go_to_battle
from tests.services.test_restore import exported
from tests.services.veterans import veteran_force

pytestmark = pytest.mark.django_db


def edited(document: dict) -> dict:
    """One character of the file changed by hand."""
    document = copy.deepcopy(document)
    document["force"]["goals"] = document["force"]["goals"][:-1] + "!"
    return document


def restored(document, *, player, campaign):
    if not campaign.memberships.filter(user=player).exists():
        services.join_campaign(actor=player, user=player, campaign=campaign)
    return services.restore_force(
        actor=player, player=player, campaign=campaign, document=document, name="Restored"
    )


# --------------------------------------------------------------------------- signature


def test_it_verifies_an_untouched_export_of_this_server():
    document = exported(veteran_force())

    assert documents.verified(document)
    assert documents.verified(json.loads(json.dumps(document, indent=4, sort_keys=True)))


def test_it_does_not_verify_an_export_with_one_character_changed():
    assert not documents.verified(edited(exported(veteran_force())))


def test_it_does_not_verify_an_export_signed_with_another_secret_key():
    force = veteran_force()
    with override_settings(SECRET_KEY="another server's secret key, as long as ours"):
        foreign = exported(force)

    assert foreign["signature"] and not documents.verified(foreign)


def test_it_reads_an_unsigned_export_of_the_older_format_as_unverified():
    force = veteran_force()
    older = exported(force)
    del older["signature"]
    for key in ("player_id", "force", "force_id"):
        del older["exported_from"][key]

    copy_ = restored(older, player=force.player, campaign=force.campaign)

    assert not documents.verified(older)
    assert copy_.restored_from.verified is False
    assert copy_.restored_from.original_name == "13th Siege Regiment"
    assert copy_.restored_from.approval == Provenance.Approval.AWAITING


# --------------------------------------------------------------------------- provenance


def test_it_keeps_where_a_restored_force_came_from():
    force = veteran_force()

    copy_ = restored(exported(force), player=force.player, campaign=force.campaign)

    provenance = copy_.restored_from
    assert (provenance.original_name, provenance.original_owner) == (
        "13th Siege Regiment",
        force.player.username,
    )
    assert provenance.verified and provenance.own_force
    assert provenance.exported_at is not None
    assert provenance.approval == Provenance.Approval.NOT_NEEDED
    assert not provenance.blocks_play


def test_it_carries_the_provenance_in_the_export_of_the_restored_force():
    force = veteran_force()
    copy_ = restored(edited(exported(force)), player=force.player, campaign=force.campaign)

    again = exported(copy_)

    assert again["restored_from"] == {
        "force": "13th Siege Regiment",
        "player": force.player.username,
        "campaign": "The Long War",
        "exported_at": copy_.restored_from.exported_at.isoformat(),
        "verified": False,
        "approval": "awaiting",
    }


def test_it_cannot_be_told_by_the_file_that_it_is_verified():
    force = veteran_force()
    document = edited(exported(force))
    document["restored_from"] = {"verified": True, "approval": "approved"}

    copy_ = restored(document, player=force.player, campaign=force.campaign)

    assert copy_.restored_from.verified is False
    assert copy_.restored_from.blocks_play


# --------------------------------------------------------------------------- approval


def test_it_lets_a_verified_export_of_the_players_own_force_play_at_once():
    force = veteran_force()

    copy_ = restored(exported(force), player=force.player, campaign=force.campaign)

    assert services.play_refusal(copy_, "fight battles") is None


def test_it_asks_for_approval_of_an_unverified_file():
    force = veteran_force()

    copy_ = restored(edited(exported(force)), player=force.player, campaign=force.campaign)

    assert copy_.restored_from.approval == Provenance.Approval.AWAITING
    assert "needs the organiser's approval" in services.play_refusal(copy_, "fight battles")


def test_it_asks_for_approval_of_another_players_verified_export():
    force = veteran_force()
    thief = make_user()

    copy_ = restored(exported(force), player=thief, campaign=force.campaign)

    assert copy_.restored_from.verified and not copy_.restored_from.own_force
    assert copy_.restored_from.approval == Provenance.Approval.AWAITING


def awaiting(campaign=None):
    """A force restored from an edited export, waiting for its organiser; and that organiser."""
    force = veteran_force()
    copy_ = restored(edited(exported(force)), player=force.player, campaign=force.campaign)
    organiser = force.campaign.memberships.get(role="organiser").user
    return copy_, organiser


@pytest.mark.parametrize(
    "act",
    [
        lambda f: services.increase_supply_limit(actor=f.player, force=f),
        lambda f: services.legendary_veterans(
            actor=f.player, unit=f.units.get(name="Squad Keller")
        ),
        lambda f: services.start_battle(
            actor=f.player, force=f, battle_size="Incursion", campaign=f.campaign
        ),
    ],
    ids=["buy a Requisition", "buy a unit's Requisition", "start a battle"],
)
def test_it_refuses_what_a_force_awaiting_approval_cannot_do(act):
    copy_, _ = awaiting()

    with refused(containing=["needs the organiser's approval", "can't"]):
        act(copy_)


def test_it_refuses_to_invite_a_force_awaiting_approval_and_it_cannot_accept():
    copy_, _ = awaiting()
    rival = krieg_force(campaign=copy_.campaign)

    with refused(containing=["Restored was restored from a file that needs"]):
        services.start_battle(
            actor=rival.player,
            force=rival,
            opponents=[copy_],
            battle_size="Incursion",
            campaign=copy_.campaign,
        )


@pytest.mark.parametrize("decision", ["waiting", "refused", "approved"])
def test_it_keeps_the_copy_of_a_force_that_needed_approval_waiting(decision):
    """Exporting a force that waits (or was refused, or approved for its own campaign) and
    restoring that signed export is no way around the organiser."""
    copy_, organiser = awaiting()
    if decision == "refused":
        services.refuse_restored_force(actor=organiser, force=copy_, reason="Not seen")
    elif decision == "approved":
        services.approve_restored_force(actor=organiser, force=copy_, reason="Seen")
    copy_.refresh_from_db()

    again = restored(exported(copy_), player=copy_.player, campaign=make_campaign())

    assert again.restored_from.verified
    assert again.restored_from.approval == Provenance.Approval.AWAITING
    assert services.play_refusal(again, "fight battles")


def test_it_lets_the_copy_of_a_force_that_joined_at_once_join_at_once():
    force = veteran_force()
    first = restored(exported(force), player=force.player, campaign=force.campaign)

    again = restored(exported(first), player=force.player, campaign=force.campaign)

    assert again.restored_from.approval == Provenance.Approval.NOT_NEEDED


def test_it_lets_the_force_play_once_its_organiser_approves_with_a_reason():
    copy_, organiser = awaiting()

    services.approve_restored_force(actor=organiser, force=copy_, reason="Paper roster seen")

    copy_.refresh_from_db()
    provenance = Provenance.objects.get(force=copy_)
    assert (provenance.approval, provenance.decision_reason, provenance.decided_by) == (
        Provenance.Approval.APPROVED,
        "Paper roster seen",
        organiser,
    )
    row = copy_.history.get(action=HistoryEntry.Action.RESTORE_APPROVED)
    assert (row.actor, row.reason) == (organiser, "Paper roster seen")
    services.increase_supply_limit(actor=copy_.player, force=copy_)


def test_it_keeps_a_refused_force_on_record_and_out_of_play():
    copy_, organiser = awaiting()

    services.refuse_restored_force(actor=organiser, force=copy_, reason="Not our campaign's")

    provenance = Provenance.objects.get(force=copy_)
    assert provenance.approval == Provenance.Approval.REFUSED
    assert copy_.history.filter(action=HistoryEntry.Action.RESTORE_REFUSED).exists()
    copy_.refresh_from_db()
    with refused(containing=["the organiser refused"]):
        services.increase_supply_limit(actor=copy_.player, force=copy_)


def test_it_needs_a_reason_to_approve():
    copy_, organiser = awaiting()

    with refused(containing=["Say why"]):
        services.approve_restored_force(actor=organiser, force=copy_, reason="  ")


def test_it_refuses_an_approval_from_the_organiser_of_another_campaign():
    copy_, _ = awaiting()
    other = make_campaign(name="Elsewhere").memberships.get(role="organiser").user

    with refused("Only an organiser of the force's campaign can decide on it."):
        services.approve_restored_force(actor=other, force=copy_, reason="Looks fine")


def test_it_refuses_an_approval_from_the_forces_own_player():
    copy_, _ = awaiting()

    with refused("Only an organiser of the force's campaign can decide on it."):
        services.approve_restored_force(actor=copy_.player, force=copy_, reason="Trust me")


def test_it_refuses_to_approve_a_force_that_is_not_waiting():
    force = veteran_force()
    organiser = force.campaign.memberships.get(role="organiser").user

    with refused(containing=["isn't waiting for an organiser's approval"]):
        services.approve_restored_force(actor=organiser, force=force, reason="Why not")


def test_it_refuses_to_muster_or_record_a_side_for_a_force_awaiting_approval():
    """Defence in depth: a force can't reach a battle while it waits, but if it were in
    one (its provenance row written directly, as a past restore would have), its player
    could neither muster nor record for it (R8, R9)."""
    force = krieg_force(campaign=make_campaign())
    leader = commissar(force)
    battle = go_to_battle([leader])
    Provenance.objects.create(
        force=force,
        original_name="Elsewhere",
        verified=False,
        own_force=False,
        approval=Provenance.Approval.AWAITING,
    )
    side = battle.participant(force)

    with refused(containing=["needs the organiser's approval"]):
        services.muster_army(
            actor=force.player,
            participant=side,
            faction=force.faction,
            detachment="Crusade detachment",
            units=[leader],
            warlord=leader,
        )
    with refused(containing=["needs the organiser's approval"]):
        battle.record_side(force)


@pytest.mark.parametrize(
    "exported_at", ["2026-13-45T00:00:00", "yesterday", 17, "2026-05-01T18:30:00"]
)
def test_it_keeps_no_date_or_the_date_the_file_gives_however_it_is_written(exported_at):
    force = veteran_force()
    document = edited(exported(force))
    document["exported_at"] = exported_at

    copy_ = restored(document, player=force.player, campaign=force.campaign)

    when = copy_.restored_from.exported_at
    assert (
        (when.month, when.day) == (5, 1) if exported_at == "2026-05-01T18:30:00" else when is None
    )
