"""Organiser corrections: change a tracked number directly, with a reason in history."""

from __future__ import annotations

from django.db import transaction

from campaign import rules
from campaign.models import CARD_FIELDS, CrusadeForce, HistoryAction, Unit

from . import _common as common

FORCE_CORRECTABLE = CrusadeForce.TRACKED_FIELDS
UNIT_CORRECTABLE = CARD_FIELDS.tracked
WHY = "Say why this correction is made; it is kept in the history."


@transaction.atomic
def correct_force(*, actor, force: CrusadeForce, reason: str, **values: int) -> CrusadeForce:
    """Set a force's numbers directly. RP stays between 0 and the cap."""
    reason = common.require_reason(reason, WHY)
    common.only(values, FORCE_CORRECTABLE, "correctable")
    force = common.lock_force(force)
    if not 0 <= values.get("rp", force.rp) <= force.rp_cap:
        common.refuse(f"RP must be between 0 and {force.rp_cap}.", field="rp")
    diff = common.apply_changes(force, FORCE_CORRECTABLE, values)
    if force.victories > force.battle_tally:
        common.refuse("Victories cannot outnumber battles.", field="victories")
    if force.supply_limit < force.supply_used:
        common.refuse(
            f"The units already use {force.supply_used} points; the Supply Limit cannot be lower.",
            field="supply_limit",
        )
    summary = f"{force.name} corrected by an organiser"
    about = {"force": force, "reason": reason}
    common.save_changes(force, diff, actor, HistoryAction.FORCE_CORRECTED, summary, **about)
    return force


@transaction.atomic
def correct_unit(*, actor, unit: Unit, reason: str, **values) -> Unit:
    """Set a card's numbers directly (a datasheet change keeps XP, honours and scars).

    XP stays within its cap; points stay within the Supply Limit.
    """
    reason = common.require_reason(reason, WHY)
    common.only(values, UNIT_CORRECTABLE, "correctable")
    force = common.lock_force(unit.force_id)
    unit = common.fresh_unit(unit)
    old_points = unit.points if unit.counts_towards_supply and unit.is_active else 0
    diff = common.apply_changes(unit, UNIT_CORRECTABLE, values)
    cap = rules.xp_cap(is_character=unit.is_character, legendary_veteran=unit.legendary_veteran)
    if cap is not None and unit.xp > cap:
        common.refuse(f"This unit's XP cannot go above {cap}.", field="xp")
    if unit.model_count < 1:
        common.refuse("A unit has at least one model.", field="model_count")
    if unit.battles_survived > unit.battles_played:
        common.refuse(
            "A unit cannot survive more battles than it played.", field="battles_survived"
        )
    new_points = unit.points if unit.counts_towards_supply and unit.is_active else 0
    if new_points > old_points:
        refusal = rules.supply_refusal(
            supply_used=force.supply_used,
            supply_limit=force.supply_limit,
            extra_points=new_points - old_points,
        )
        if refusal:
            common.refuse(refusal, field="points")
    summary = f"{unit.name} corrected by an organiser"
    about = {"unit": unit, "reason": reason}
    common.save_changes(unit, diff, actor, HistoryAction.UNIT_CORRECTED, summary, **about)
    common.refresh_totals(force)
    return unit
