"""Who fights a battle: its starter invites, each invited player accepts or declines, and
the starter may withdraw an unanswered invitation or cancel the battle before anyone has
recorded it. Nothing here changes a force's numbers; each step leaves a history row."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign.models import Battle, BattleParticipant, HistoryAction

from . import _common as common
from .approval import FIGHT, require_approved
from .battles import describe, lock_battle, require_open, side_of

Invitation = BattleParticipant.Invitation


def _answer(actor, participant: BattleParticipant, answer: str, action, summary: str):
    """Lock the battle and its forces, check the invitation is still open, answer it."""
    battle, sides = lock_battle(participant.battle_id)
    side = side_of(sides, participant)
    if battle.status != Battle.Status.IN_PROGRESS:
        require_open(battle)
        common.refuse("Every side has recorded this battle: it no longer takes new players.")
    if not side.is_invited:
        common.refuse(
            f"The invitation to {side.force.name} is already answered: "
            f"{side.get_invitation_display().lower()}."
        )
    if answer == Invitation.ACCEPTED:
        require_approved(side.force, FIGHT)
    if answer == Invitation.ACCEPTED and side.force.in_battle():
        common.refuse(
            f"{side.force.name} is already in a battle that has not been recorded: finish "
            "that one first, or decline this one."
        )
    side.invitation = answer
    side.save(update_fields=["invitation"])
    common.record(
        actor,
        action,
        f"{side.force.name} {summary} ({describe(battle)})",
        force=side.force,
        battle=battle,
    )
    return side


@transaction.atomic
def accept_invitation(*, actor, participant: BattleParticipant) -> BattleParticipant:
    """The invited player commits their force to the battle (refused while it is committed
    to another one)."""
    return _answer(
        actor, participant, Invitation.ACCEPTED, HistoryAction.INVITATION_ACCEPTED, "accepts"
    )


@transaction.atomic
def decline_invitation(*, actor, participant: BattleParticipant) -> BattleParticipant:
    """The invited player says no: their force stays out of the battle."""
    return _answer(
        actor, participant, Invitation.DECLINED, HistoryAction.INVITATION_DECLINED, "declines"
    )


@transaction.atomic
def withdraw_invitation(*, actor, participant: BattleParticipant) -> BattleParticipant:
    """The battle's starter takes back an invitation nobody has answered."""
    return _answer(
        actor,
        participant,
        Invitation.WITHDRAWN,
        HistoryAction.INVITATION_WITHDRAWN,
        "is no longer invited",
    )


@transaction.atomic
def cancel_battle(*, actor, battle: Battle) -> Battle:
    """The battle's starter calls it off before any side has recorded it. No force
    changes: each one in it gets a history row, and nothing else."""
    battle, sides = lock_battle(battle)
    require_open(battle)
    if any(side.has_recorded for side in sides):
        common.refuse(
            "A side has already recorded this battle, so it can't be cancelled any more. "
            "Ask an organiser to void it if it should not count."
        )
    battle.status, battle.cancelled_at = Battle.Status.CANCELLED, timezone.now()
    battle.save(update_fields=["status", "cancelled_at"])
    common.write_history(
        [
            common.history_row(
                actor,
                HistoryAction.BATTLE_CANCELLED,
                f"{side.force.name}: battle cancelled before it was recorded ({describe(battle)})",
                force=side.force,
                battle=battle,
            )
            for side in sides
        ]
    )
    return battle
