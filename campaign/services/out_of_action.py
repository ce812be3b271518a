"""Out of Action tests after a battle: the roll, the player's choice of a Battle
Scar or a Devastating Blow, and Battle Scars an organiser inflicts."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign import rules
from campaign.models import (
    BattleHonour,
    BattleScar,
    CustomContent,
    HistoryAction,
    OutOfActionTest,
    Unit,
)

from . import _common as common


def _lock_test(test: OutOfActionTest) -> tuple[OutOfActionTest, Unit]:
    unit = Unit.objects.get(pk=test.unit_id)
    common.lock_force(unit.force_id)
    test = OutOfActionTest.objects.select_for_update().get(pk=test.pk)
    unit = common.fresh_unit(unit)
    common.require_active(unit)
    return test, unit


@transaction.atomic
def take_out_of_action_test(
    *, actor, test: OutOfActionTest, roll: int | None = None, rng=None
) -> OutOfActionTest:
    """Roll (or enter the roll of) a D6; the rules say whether the unit passes."""
    test, unit = _lock_test(test)
    if test.status != OutOfActionTest.Status.PENDING:
        common.refuse("This Out of Action test has already been taken.")
    if roll is None:
        roll, test.rolled_by_app = rules.roll_d6(rng), True
    elif not 1 <= roll <= 6:
        common.refuse("A D6 shows 1 to 6.", field="roll")
    test.roll = roll
    passed = rules.unit_passes_out_of_action(unit.facts(), roll)
    now = timezone.now()
    if passed:
        test.status, test.outcome, test.resolved_at = (
            OutOfActionTest.Status.DONE,
            OutOfActionTest.Outcome.PASSED,
            now,
        )
    else:
        test.status = OutOfActionTest.Status.AWAITING_CHOICE
    test.save()
    common.record(
        actor,
        HistoryAction.OUT_OF_ACTION_ROLLED,
        f"{unit.name} rolled {roll} for Out of Action"
        + (" (rolled by the app)" if test.rolled_by_app else "")
        + (": passed" if passed else ": failed"),
        unit=unit,
        battle=test.battle_unit.participant.battle,
    )
    options = out_of_action_choices(test, unit=unit)
    if not passed and options == frozenset({rules.OutOfAction.REMOVED}):
        test = resolve_out_of_action(actor=actor, test=test, choice=rules.OutOfAction.REMOVED)
    return test


def out_of_action_choices(test: OutOfActionTest, *, unit: Unit | None = None):
    """The outcomes the player may pick after a failed test."""
    unit = unit or test.unit
    return rules.out_of_action_options(
        battle_honours=len(unit.active_honours()), battle_scars=len(unit.active_scars())
    )


@transaction.atomic
def resolve_out_of_action(
    *,
    actor,
    test: OutOfActionTest,
    choice: str,
    honour: BattleHonour | None = None,
    scar_name: str | None = None,
    custom_scar: CustomContent | None = None,
    rng=None,
) -> OutOfActionTest:
    """Apply the player's (legal) choice after a failed Out of Action test."""
    test, unit = _lock_test(test)
    if test.status != OutOfActionTest.Status.AWAITING_CHOICE:
        common.refuse("This Out of Action test is not waiting for a choice.")
    choice = rules.OutOfAction(choice)
    honours = unit.active_honours()
    scars = unit.active_scars()
    with common.rule_refusals("choice"):
        refusal = rules.out_of_action_refusal(
            choice, battle_honours=len(honours), battle_scars=len(scars)
        )
        if refusal:
            raise rules.RuleError(refusal)
    now = timezone.now()
    battle = test.battle_unit.participant.battle
    points_before = unit.crusade_points
    if choice is rules.OutOfAction.DEVASTATING_BLOW:
        if honour is None or honour.pk not in {h.pk for h in honours}:
            common.refuse("Pick one of the unit's Battle Honours to lose.", field="honour")
        honour = next(h for h in honours if h.pk == honour.pk)
        honour.status, honour.lost_at = BattleHonour.Status.LOST, now
        honour.lost_reason = "Devastating Blow"
        honour.save(update_fields=["status", "lost_at", "lost_reason"])
        test.honour_lost = honour
        summary = f"{unit.name} suffers a Devastating Blow and loses {honour.name}"
    elif choice is rules.OutOfAction.BATTLE_SCAR:
        scar = _new_scar(unit, scars, scar_name=scar_name, custom=custom_scar, rng=rng, now=now)
        test.scar_gained = scar
        summary = f"{unit.name} gains the Battle Scar {scar.name}"
    else:
        _remove_for_good(unit, now=now, reason=rules.REMOVED_FOR_GOOD)
        summary = f"{unit.name} is removed from the Order of Battle after its Out of Action test"
    test.outcome = choice
    test.status, test.resolved_at = OutOfActionTest.Status.DONE, now
    test.save()
    unit = common.fresh_unit(unit)
    common.refresh_totals(unit.force)
    common.record(
        actor,
        HistoryAction.OUT_OF_ACTION_RESOLVED,
        summary,
        unit=unit,
        battle=battle,
        changed={"crusade_points": [points_before, unit.crusade_points]}
        | ({"status": ["active", "removed"]} if choice is rules.OutOfAction.REMOVED else {}),
    )
    return test


def _new_scar(unit: Unit, scars, *, scar_name, custom, rng, now) -> BattleScar:
    held = {s.name for s in scars}
    effect = ""
    if custom is not None:
        common.require_campaign_content(
            custom, unit, CustomContent.Kind.BATTLE_SCAR, field="scar_name"
        )
        scar_name, effect = custom.name, custom.effect
    elif scar_name:
        if scar_name not in rules.BATTLE_SCARS.values():
            common.refuse("Pick a Battle Scar from the table.", field="scar_name")
        effect = rules.BATTLE_SCAR_EFFECTS[scar_name]
    else:
        with common.rule_refusals("scar_name"):
            scar_name = rules.roll_battle_scar(held, rng=rng)
        effect = rules.BATTLE_SCAR_EFFECTS[scar_name]
    if scar_name in held:
        common.refuse(
            f"{unit.name} already bears {scar_name}; a unit never has the same scar twice.",
            field="scar_name",
        )
    return BattleScar.objects.create(
        unit=unit, name=scar_name, effect=effect, custom_content=custom, gained_at=now
    )


@transaction.atomic
def inflict_battle_scar(*, actor, unit: Unit, reason: str, **scar) -> BattleScar:
    """A Battle Scar a mission or Agenda inflicts outside an Out of Action test, with its
    reason: rolled, or chosen, never one the unit has, never past the most it may bear.

    ``scar`` is as for a Battle Scar after an Out of Action test: ``scar_name``, or
    ``custom_scar``, or neither to roll (with ``rng``)."""
    reason = common.require_reason(
        reason, "Say which mission or Agenda inflicted it; the reason is kept in the history."
    )
    common.lock_force(unit.force_id)
    unit = common.fresh_unit(unit)
    common.require_active(unit)
    scars = unit.active_scars()
    if len(scars) >= rules.MAX_BATTLE_SCARS:
        common.refuse(
            f"{unit.name} already bears {rules.MAX_BATTLE_SCARS} Battle Scars, the most a unit "
            "can bear.",
            field="scar_name",
        )
    points_before = unit.crusade_points
    scar = _new_scar(
        unit,
        scars,
        scar_name=scar.get("scar_name"),
        custom=scar.get("custom_scar"),
        rng=scar.get("rng"),
        now=timezone.now(),
    )
    unit = common.fresh_unit(unit)
    common.refresh_totals(unit.force)
    common.record(
        actor,
        HistoryAction.SCAR_INFLICTED,
        f"{unit.name} gains the Battle Scar {scar.name} (mission reward)",
        unit=unit,
        reason=reason,
        changed={"crusade_points": [points_before, unit.crusade_points]},
    )
    return scar


def _remove_for_good(unit: Unit, *, now, reason: str) -> None:
    """A status, never a delete."""
    unit.status, unit.removed_at, unit.removed_reason = Unit.Status.REMOVED, now, reason
    unit.save(update_fields=["status", "removed_at", "removed_reason"])
