"""A narrative campaign's phases: organisers define them and move the campaign from one to
the next. Each change is a history row naming the campaign (its page shows the phases)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from campaign import rules
from campaign.models import Campaign, HistoryAction, Phase
from campaign.models.phases import MOST_PHASES

from . import _common as common

PHASE_FIELDS = ("name", "narrative", "battle_size", "points_limit")
NARRATIVE_LENGTH = Phase._meta.get_field("narrative").max_length
NAME_LENGTH = Phase._meta.get_field("name").max_length
UNCHECKED = object()
"""`advance_phase` without ``from_phase``: whatever phase is current."""


def _lock(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _checked(values: dict) -> dict:
    name = (values["name"] or "").strip()
    if not name:
        common.refuse("Give the phase a name.", field="name")
    if len(name) > NAME_LENGTH:
        common.refuse(f"A phase's name is at most {NAME_LENGTH} characters.", field="name")
    narrative = (values["narrative"] or "").strip()
    if len(narrative) > NARRATIVE_LENGTH:
        common.refuse(
            f"A phase's story is at most {NARRATIVE_LENGTH} characters.", field="narrative"
        )
    battle_size = values["battle_size"] or ""
    if battle_size and battle_size not in rules.BATTLE_SIZES:
        common.refuse("Pick one of the battle sizes, or leave it blank.", field="battle_size")
    points_limit = values["points_limit"]
    if points_limit is not None and not isinstance(points_limit, int):
        common.refuse("A points limit is a whole number.", field="points_limit")
    checked = {
        "name": name,
        "narrative": narrative,
        "battle_size": battle_size,
        "points_limit": points_limit,
    }
    if points_limit is not None:
        common.refuse_out_of_range(Phase, {"points_limit": points_limit})
    return checked


@transaction.atomic
def define_phase(
    *,
    actor,
    campaign: Campaign,
    name: str,
    narrative: str = "",
    battle_size: str = "",
    points_limit: int | None = None,
    phase: Phase | None = None,
) -> Phase:
    """A new phase of the campaign, played after the others (or, with ``phase``, that
    phase's name, story, battle size and points limit changed)."""
    values = _checked(
        {
            "name": name,
            "narrative": narrative,
            "battle_size": battle_size,
            "points_limit": points_limit,
        }
    )
    campaign = _lock(campaign)
    if phase is None:
        last = campaign.phases.aggregate(last=Max("position"))["last"] or 0
        if last >= MOST_PHASES:
            common.refuse(f"A campaign has at most {MOST_PHASES} phases.", field="name")
        phase = Phase.objects.create(campaign=campaign, position=last + 1, **values)
        common.record(
            actor,
            HistoryAction.PHASE_CHANGED,
            f"{campaign.name}: phase {phase.position}, {phase.name}, added",
            campaign=campaign,
            changed={key: [None, value] for key, value in values.items()},
        )
        return phase
    phase = Phase.objects.select_for_update().filter(pk=phase.pk, campaign=campaign).first()
    if phase is None:
        common.refuse("That phase is not one of this campaign's.")
    diff = common.apply_changes(phase, PHASE_FIELDS, values)
    common.save_changes(
        phase,
        diff,
        actor,
        HistoryAction.PHASE_CHANGED,
        f"{campaign.name}: phase {phase.position}, {phase.name}, edited",
        campaign=campaign,
    )
    return phase


def _phase_id(phase) -> int | None:
    if phase is None or phase == "":
        return None
    return phase.pk if isinstance(phase, Phase) else int(phase)


@transaction.atomic
def advance_phase(*, actor, campaign: Campaign, reason: str = "", from_phase=UNCHECKED) -> Phase:
    """Start the campaign's first phase, or end the current one and start the next.

    The campaign's row is locked, so two organisers who click at once advance one after
    the other; with ``from_phase`` (the phase the organiser saw as current, None before
    the first) the second is refused instead of skipping a phase."""
    campaign = _lock(campaign)
    current = campaign.current_phase
    if from_phase is not UNCHECKED and _phase_id(from_phase) != campaign.current_phase_id:
        now_playing = current.name if current is not None else "no phase"
        common.refuse(f"The campaign has moved on already: it is now at {now_playing}.")
    later = campaign.phases.order_by("position")
    if current is not None:
        later = later.filter(position__gt=current.position)
    following = later.first()
    if following is None:
        if current is None:
            common.refuse("This campaign has no phases yet: add one in the admin first.")
        common.refuse(f"{current.name} is the last phase: add the next one in the admin first.")
    now = timezone.now()
    if current is not None:
        current.ended_at = now
        current.save(update_fields=["ended_at"])
    following.started_at = now
    following.save(update_fields=["started_at"])
    campaign.current_phase = following
    campaign.save(update_fields=["current_phase"])
    common.record(
        actor,
        HistoryAction.PHASE_ADVANCED,
        f"{campaign.name}: phase {following.position}, {following.name}, begins",
        campaign=campaign,
        changed={"current_phase": [current.name if current else None, following.name]},
        reason=(reason or "").strip(),
    )
    return following


def off_phase_size(battle) -> str:
    """A warning when a battle is played at another size than its phase's ("" if not)."""
    phase = battle.phase
    size = phase.suggested_battle_size if phase is not None else ""
    if not size or size == battle.battle_size:
        return ""
    return (
        f"This battle is played at {battle.battle_size}, but {phase.name} is played at "
        f"{size}: agree on it with your opponent."
    )
