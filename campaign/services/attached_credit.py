"""Each occurrence of an Attached unit's kills or bonus XP goes to one of its units.

Shared by the record form (to show the refusal next to the field) and by `record_side`
and `preview_side` (which refuse it whatever the form let through)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from campaign import rules
from campaign.models import BattleUnit


class UnitOutcome(Protocol):
    """What this module reads of one unit's entry on the record form (`battles.UnitOutcome`
    has it; named here by shape, so the battles module can import this one)."""

    enemy_units_destroyed: int
    bonus_xp: int
    bonus_xp_reason: str
    marked_for_greatness: bool


MARKED_FIELD = "marked"


def kills_field(entry_pk: int) -> str:
    """Where a refusal of a unit's kills is shown: its kills box on the record form."""
    return f"kills_{entry_pk}"


def bonus_field(entry_pk: int) -> str:
    """Where a refusal of a unit's bonus XP is shown: its bonus XP box on the record form."""
    return f"bonus_{entry_pk}"


def _awards(outcome: UnitOutcome) -> tuple[str, ...]:
    marked = (rules.MARKED_FOR_GREATNESS,) if outcome.marked_for_greatness else ()
    bonus = (outcome.bonus_xp_reason,) if outcome.bonus_xp and outcome.bonus_xp_reason else ()
    return marked + bonus


def attached_credit_errors(
    army: list[BattleUnit], outcomes: Mapping[int, UnitOutcome]
) -> dict[str, list[str]]:
    """The refusals of `rules.attached_credit_refusals` for one side's army, by the record
    form's field (``kills_<pk>``, ``bonus_<pk>`` or ``marked``); empty when every occurrence
    of each Attached unit's kills and bonus XP goes to one of its units."""
    entries = {entry.pk: entry for entry in army}
    groups = rules.attached_units(
        {
            entry.pk: entry.attached_to_id if entry.attached_to_id in entries else None
            for entry in army
        }
    )
    errors: dict[str, list[str]] = {}
    for group in groups:
        credits = []
        for pk in group:
            outcome = outcomes.get(pk)
            if outcome is None:
                continue
            credits.append(
                rules.Credit(
                    key=pk,
                    name=entries[pk].unit.name,
                    kills=outcome.enemy_units_destroyed,
                    awards=_awards(outcome),
                )
            )
        for refusal in rules.attached_credit_refusals(credits):
            outcome = outcomes[refusal.key]
            if refusal.kills:
                field = kills_field(refusal.key)
            elif refusal.occurrence == rules.MARKED_FOR_GREATNESS and outcome.marked_for_greatness:
                field = MARKED_FIELD
            else:
                field = bonus_field(refusal.key)
            errors.setdefault(field, []).append(refusal.message)
    return errors
