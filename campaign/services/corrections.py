"""Organiser corrections: change a tracked number directly, with a reason in history."""

from __future__ import annotations

from django.db import transaction

from campaign import rules
from campaign.models import CARD_FIELDS, CrusadeForce, HistoryAction, Unit

from ._common import (
    apply_changes,
    fresh_unit,
    lock_force,
    refresh_totals,
    refuse,
    require_reason,
    save_changes,
)

FORCE_CORRECTABLE = CrusadeForce.TRACKED_FIELDS
UNIT_CORRECTABLE = CARD_FIELDS.tracked
WHY = "Say why this correction is made; it is kept in the history."


@transaction.atomic
def correct_force(*, actor, force: CrusadeForce, reason: str, **values: int) -> CrusadeForce:
    """Set a force's numbers directly. RP stays between 0 and the cap."""
    reason = require_reason(reason, WHY)
    unknown = set(values) - set(FORCE_CORRECTABLE)
    if unknown:
        raise ValueError(f"not correctable: {sorted(unknown)}")
    force = lock_force(force)
    diff = apply_changes(force, FORCE_CORRECTABLE, values)
    if not 0 <= force.rp <= force.rp_cap:
        refuse(f"RP must be between 0 and {force.rp_cap}.", field="rp")
    if force.victories > force.battle_tally:
        refuse("Victories cannot outnumber battles.", field="victories")
    if force.supply_limit < force.supply_used:
        refuse(
            f"The units already use {force.supply_used} points; the Supply Limit cannot be lower.",
            field="supply_limit",
        )
    summary = f"{force.name} corrected by an organiser"
    about = {"force": force, "reason": reason}
    save_changes(
        force, diff, actor=actor, action=HistoryAction.FORCE_CORRECTED, summary=summary, **about
    )
    return force


@transaction.atomic
def correct_unit(*, actor, unit: Unit, reason: str, **values) -> Unit:
    """Set a card's numbers directly (a datasheet change keeps XP, honours and scars).

    XP stays within its cap; points stay within the Supply Limit.
    """
    reason = require_reason(reason, WHY)
    unknown = set(values) - set(UNIT_CORRECTABLE)
    if unknown:
        raise ValueError(f"not correctable: {sorted(unknown)}")
    force = lock_force(unit.force_id)
    unit = fresh_unit(unit)
    old_points = unit.points if unit.counts_towards_supply and unit.is_active else 0
    diff = apply_changes(unit, UNIT_CORRECTABLE, values)
    cap = rules.xp_cap(is_character=unit.is_character, legendary_veteran=unit.legendary_veteran)
    if cap is not None and unit.xp > cap:
        refuse(f"This unit's XP cannot go above {cap}.", field="xp")
    if unit.model_count < 1:
        refuse("A unit has at least one model.", field="model_count")
    if unit.battles_survived > unit.battles_played:
        refuse("A unit cannot survive more battles than it played.", field="battles_survived")
    new_points = unit.points if unit.counts_towards_supply and unit.is_active else 0
    if new_points > old_points:
        refusal = rules.supply_refusal(
            supply_used=force.supply_used,
            supply_limit=force.supply_limit,
            extra_points=new_points - old_points,
        )
        if refusal:
            refuse(refusal, field="points")
    summary = f"{unit.name} corrected by an organiser"
    about = {"unit": unit, "reason": reason}
    save_changes(
        unit, diff, actor=actor, action=HistoryAction.UNIT_CORRECTED, summary=summary, **about
    )
    refresh_totals(force)
    return unit
