"""Organiser corrections: change a tracked number directly, with a reason in history."""

from __future__ import annotations

from django.db import transaction

from campaign import rules
from campaign.models import CrusadeForce, Unit

from ._common import changes, fresh_unit, lock_force, record, refuse, snapshot

FORCE_CORRECTABLE = ["supply_limit", "rp", "battle_tally", "victories"]
UNIT_CORRECTABLE = [
    "datasheet",
    "points",
    "model_count",
    "max_model_count",
    "models_description",
    "wargear",
    "xp",
    "battles_played",
    "battles_survived",
    "units_destroyed",
    "faction_keywords",
    "trait_table",
    "is_character",
    "is_epic_hero",
    "is_titanic",
    "is_fortification",
    "is_swarm",
    "is_battleline",
    "is_dedicated_transport",
    "counts_towards_supply",
    "legendary_veteran",
    "enhancement",
    "enhancement_points",
]


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        refuse("Say why this correction is made; it is kept in the history.", field="reason")
    return reason


@transaction.atomic
def correct_force(*, actor, force: CrusadeForce, reason: str, **values: int) -> CrusadeForce:
    """Set a force's numbers directly. RP stays within 0..cap (R1.5)."""
    reason = _require_reason(reason)
    unknown = set(values) - set(FORCE_CORRECTABLE)
    if unknown:
        raise ValueError(f"not correctable: {sorted(unknown)}")
    force = lock_force(force)
    before = snapshot(force, FORCE_CORRECTABLE)
    for key, value in values.items():
        setattr(force, key, value)
    if not 0 <= force.rp <= force.rp_cap:
        refuse(f"RP must be between 0 and {force.rp_cap}.", field="rp")
    if force.victories > force.battle_tally:
        refuse("Victories cannot outnumber battles.", field="victories")
    if force.supply_limit < force.supply_used:
        refuse(
            f"The units already use {force.supply_used} points; the Supply Limit cannot be lower.",
            field="supply_limit",
        )
    diff = changes(before, snapshot(force, FORCE_CORRECTABLE))
    if diff:
        force.save(update_fields=list(diff))
        record(
            actor=actor,
            action="force_corrected",
            summary=f"{force.name} corrected by an organiser",
            force=force,
            changed=diff,
            reason=reason,
        )
    return force


@transaction.atomic
def correct_unit(*, actor, unit: Unit, reason: str, **values) -> Unit:
    """Set a card's numbers directly (e.g. a datasheet change keeps XP, honours and scars, R2.3).

    XP stays within its cap (R3.6); points stay within the Supply Limit (R1.3).
    """
    reason = _require_reason(reason)
    unknown = set(values) - set(UNIT_CORRECTABLE)
    if unknown:
        raise ValueError(f"not correctable: {sorted(unknown)}")
    force = lock_force(unit.force_id)
    unit = fresh_unit(unit)
    before = snapshot(unit, UNIT_CORRECTABLE)
    old_points = unit.points if unit.counts_towards_supply and unit.is_active else 0
    for key, value in values.items():
        setattr(unit, key, value)
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
    diff = changes(before, snapshot(unit, UNIT_CORRECTABLE))
    if diff:
        unit.save(update_fields=list(diff))
        record(
            actor=actor,
            action="unit_corrected",
            summary=f"{unit.name} corrected by an organiser",
            unit=unit,
            changed=diff,
            reason=reason,
        )
    return unit
