"""Voiding a battle: every effect it had undone exactly, and the void recorded."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign import rules
from campaign.models import (
    Battle,
    BattleHonour,
    BattleParticipant,
    BattleScar,
    BattleUnit,
    CrusadeForce,
    HistoryAction,
    OutOfActionTest,
    Promotion,
    Unit,
)

from . import _common as common
from . import agendas as agenda_service
from . import campaign_points as points_service
from . import territories as territory_service


@transaction.atomic
def void_battle(*, actor, battle: Battle, reason: str) -> Battle:
    """Organisers only: undo every effect of a battle exactly, and record the void.

    Promotions it caused are voided, with the honours that settled them; Out of
    Action outcomes are undone (scars voided, lost honours restored, removed units
    back). RP spent since is never taken below 0.
    """
    reason = reason.strip()
    if not reason:
        common.refuse("Say why the battle is voided.", field="reason")
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if battle.status == Battle.Status.VOIDED:
        common.refuse("This battle has already been voided.")
    if battle.status == Battle.Status.CANCELLED:
        common.refuse("This battle was cancelled before it was recorded: there is nothing to void.")
    forces = common.lock_forces(list(battle.participants.values_list("force_id", flat=True)))
    promotions = list(battle.promotions.exclude(status=Promotion.Status.VOIDED))
    if any(p.settled_by == rules.PromotionReward.RENOWNED_HEROES for p in promotions):
        common.refuse(
            "A promotion from this battle was settled with an Enhancement; "
            "correct that Enhancement first, then void the battle."
        )
    now = timezone.now()
    if battle.status == Battle.Status.COMPLETED:
        participants = list(battle.participants.order_by("pk"))
        points_service.unscore(battle, participants, forces)
        territory_service.after_void(actor, battle, reason)
        for participant in participants:
            _undo_participant(actor, battle, participant, forces[participant.force_id], reason)
        for promotion in promotions:
            gained = promotion.honours.filter(status=BattleHonour.Status.ACTIVE)
            BattleHonour.objects.filter(
                pk__in=gained.exclude(replaces=None).values("replaces")
            ).update(status=BattleHonour.Status.ACTIVE, lost_at=None, lost_reason="")
            gained.update(
                status=BattleHonour.Status.VOIDED, lost_at=now, lost_reason="Battle voided"
            )
            promotion.status = Promotion.Status.VOIDED
            promotion.save(update_fields=["status"])
    else:
        for force in forces.values():
            common.record(
                actor,
                HistoryAction.BATTLE_VOIDED,
                f"{force.name}: battle voided",
                force=force,
                battle=battle,
                reason=reason,
            )
    for force in forces.values():
        common.refresh_totals(force)
    battle.status, battle.voided_at, battle.void_reason = Battle.Status.VOIDED, now, reason
    battle.save(update_fields=["status", "voided_at", "void_reason"])
    return battle


def _undo_participant(actor, battle, participant, force: CrusadeForce, reason: str) -> None:
    before = {"battle_tally": force.battle_tally, "victories": force.victories, "rp": force.rp}
    force.battle_tally -= 1
    force.victories -= 1 if participant.result == BattleParticipant.Result.WIN else 0
    force.rp = max(0, force.rp - (participant.rp_after - participant.rp_before))
    force.save(update_fields=["battle_tally", "victories", "rp"])
    common.record(
        actor,
        HistoryAction.BATTLE_VOIDED,
        f"{force.name}: battle voided, its results undone",
        force=force,
        battle=battle,
        reason=reason,
        changed={k: [v, getattr(force, k)] for k, v in before.items()},
    )
    for entry in participant.army.select_related("unit").prefetch_related(
        "agenda_achievements__agenda"
    ):
        _undo_unit(actor, battle, entry, force, reason)


def _undo_unit(actor, battle, entry: BattleUnit, force: CrusadeForce, reason: str) -> None:
    unit = entry.unit
    before = {
        "xp": unit.xp,
        "battles_played": unit.battles_played,
        "battles_survived": unit.battles_survived,
        "units_destroyed": unit.units_destroyed,
        "agenda_tallies": unit.agenda_tallies,
        "status": unit.status,
    }
    unit.xp = max(0, unit.xp - (entry.xp_after - entry.xp_before))
    unit.battles_played -= 1
    unit.battles_survived -= 0 if entry.destroyed else 1
    unit.units_destroyed -= entry.enemy_units_destroyed
    unit.agenda_tallies = agenda_service.taken_back(unit.agenda_tallies, entry)
    test = getattr(entry, "out_of_action", None)
    if test is not None and test.status != OutOfActionTest.Status.VOIDED:
        if test.scar_gained_id:
            BattleScar.objects.filter(pk=test.scar_gained_id).update(
                status=BattleScar.Status.VOIDED, removed_at=timezone.now()
            )
        if test.honour_lost_id:
            BattleHonour.objects.filter(pk=test.honour_lost_id).update(
                status=BattleHonour.Status.ACTIVE, lost_at=None, lost_reason=""
            )
        if test.outcome == OutOfActionTest.Outcome.REMOVED:
            if force.units.active().filter(name__iexact=unit.name).exists():
                common.refuse(f"{force.name} has a new unit called {unit.name}; rename it first.")
            unit.status, unit.removed_at, unit.removed_reason = Unit.Status.ACTIVE, None, ""
        test.status = OutOfActionTest.Status.VOIDED
        test.save(update_fields=["status"])
    unit.save(
        update_fields=[
            "xp",
            "battles_played",
            "battles_survived",
            "units_destroyed",
            "agenda_tallies",
            "status",
            "removed_at",
            "removed_reason",
        ]
    )
    common.record(
        actor,
        HistoryAction.UNIT_BATTLE_VOIDED,
        f"{unit.name}: results of a voided battle undone",
        unit=unit,
        battle=battle,
        reason=reason,
        changed={k: [v, getattr(unit, k)] for k, v in before.items() if v != getattr(unit, k)},
    )
