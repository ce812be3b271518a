"""Services for forces and their cards: create, edit, add, remove."""

from __future__ import annotations

import dataclasses

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign import pictures, rules
from campaign.models import (
    CARD_FIELDS,
    BattleParticipant,
    Campaign,
    CrusadeForce,
    HistoryAction,
    HistoryEntry,
    Unit,
)

from . import _common as common
from .requisitions import renowned_heroes

FORCE_NARRATIVE_FIELDS = CrusadeForce.NARRATIVE_FIELDS
UNIT_FREE_FIELDS = CARD_FIELDS.player


def _new_unit_class() -> type:
    """What a player fills in on a new card, as a value object: derived from the model."""
    specs = []
    for name in CARD_FIELDS.new:
        model_field = Unit._meta.get_field(name)
        if model_field.has_default() or model_field.blank:
            spec = dataclasses.field(default=model_field.get_default())
        else:
            spec = dataclasses.field()
        specs.append((name, object, spec))
    specs.sort(key=lambda item: item[2].default is not dataclasses.MISSING)
    return dataclasses.make_dataclass("NewUnit", specs, frozen=True, kw_only=True)


NewUnit = _new_unit_class()
NewUnit.__doc__ = "A new Crusade card as the player describes it (fields of CARD_FIELDS.new)."


def require_member(player, campaign: Campaign | None) -> None:
    """A force joins a campaign only with its player as a member."""
    if campaign is not None and not campaign.memberships.filter(user=player).exists():
        common.refuse("Join the campaign before creating a force in it.", field="campaign")


@transaction.atomic
def create_force(
    *,
    actor,
    player,
    name: str,
    faction: str,
    campaign: Campaign | None = None,
    goals: str = "",
    victories_notes: str = "",
    vendettas: str = "",
    background: str = "",
) -> CrusadeForce:
    """A new Order of Battle with the campaign's starting Supply Limit and RP."""
    require_member(player, campaign)
    house = campaign.house_rules if campaign is not None else rules.DEFAULT_HOUSE_RULES
    force = CrusadeForce.objects.create(
        player=player,
        campaign=campaign,
        name=name.strip(),
        faction=faction.strip(),
        supply_limit=house.starting_supply_limit,
        rp=house.starting_rp,
        rp_cap=house.rp_cap,
        goals=goals,
        victories_notes=victories_notes,
        vendettas=vendettas,
        background=background,
    )
    common.record(
        actor,
        HistoryAction.FORCE_CREATED,
        f"{force.name} mustered with a {force.supply_limit}-point Supply Limit and {force.rp}RP",
        force=force,
        changed={"supply_limit": [None, force.supply_limit], "rp": [None, force.rp]},
    )
    return force


@transaction.atomic
def bring_force_into_campaign(*, actor, force: CrusadeForce, campaign: Campaign) -> CrusadeForce:
    """A force raised outside any campaign joins one its player is a member of.

    From then on the campaign's house rules apply (`rules.resources_in_campaign`): its RP
    cap, and for a force still being raised (no battle fought, no RP spent) the campaign's
    starting Supply Limit and RP, which its units must fit. The force's earlier history
    comes with it, so the campaign's organisers see how its numbers came to be. Moving a
    force from one campaign to another is not this: export it and restore it there.
    """
    force = common.lock_force(force)
    if force.campaign_id is not None:
        common.refuse(f"{force.name} is already in {force.campaign.name}.", field="campaign")
    if not campaign.memberships.filter(user_id=force.player_id).exists():
        common.refuse("Join the campaign before bringing a force into it.", field="campaign")
    if force.battle_entries.filter(BattleParticipant.in_play()).exists():
        common.refuse(
            f"{force.name} is in a battle that has not been recorded yet. "
            "Bring it into the campaign once that battle is over."
        )
    house = campaign.house_rules
    being_raised = force.battle_tally == 0 and not force.requisitions.exists()
    supply_limit, rp = rules.resources_in_campaign(
        supply_limit=force.supply_limit, rp=force.rp, being_raised=being_raised, house=house
    )
    if force.supply_used > supply_limit:
        common.refuse(
            f"{force.name} uses {force.supply_used} points, more than the {supply_limit}-point "
            f"Supply Limit forces start with in {campaign.name}. Remove units first.",
            field="campaign",
        )
    diff = common.apply_changes(
        force,
        ["supply_limit", "rp", "rp_cap"],
        {"supply_limit": supply_limit, "rp": rp, "rp_cap": house.rp_cap},
    )
    force.campaign = campaign
    force.save(update_fields=["campaign", *diff])
    HistoryEntry.objects.filter(force=force, campaign__isnull=True).update(campaign=campaign)
    common.record(
        actor,
        HistoryAction.FORCE_JOINED_CAMPAIGN,
        f"{force.name} joined {campaign.name}",
        force=force,
        changed={"campaign": [None, campaign.name], **diff},
    )
    return force


@transaction.atomic
def update_force_details(*, actor, force: CrusadeForce, **values: str) -> CrusadeForce:
    """Edit a force's name, faction and narrative. Numbers are never edited here."""
    common.only(values, FORCE_NARRATIVE_FIELDS, "editable here")
    force = common.lock_force(force)
    for key in ("name", "faction"):
        if key in values:
            values[key] = values[key].strip()
            if not values[key]:
                common.refuse("This can't be left empty.", field=key)
    diff = common.apply_changes(force, FORCE_NARRATIVE_FIELDS, values)
    summary = f"{force.name}: details edited"
    common.save_changes(force, diff, actor, HistoryAction.FORCE_EDITED, summary, force=force)
    return force


def _check_name_free(force: CrusadeForce, name: str, *, exclude_pk: int | None = None) -> None:
    taken = force.units.active().filter(name__iexact=name)
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    if taken.exists():
        common.refuse(f"{force.name} already has a unit called {name}.", field="name")


ENHANCEMENT_FIELDS = ("enhancement", "enhancement_points", "enhancement_weapon")


@transaction.atomic
def add_unit(*, actor, force: CrusadeForce, unit: NewUnit) -> Unit:
    """Add a Crusade card within the Supply Limit; it starts with no XP and empty tallies.

    ``unit.points`` is the datasheet's points. An Enhancement on a new card is bought with
    the Requisition that grants one, as the rules allow only while the force is first
    being raised; the card's points then include it.
    """
    force = common.lock_force(force)
    name = unit.name.strip()
    if not name:
        common.refuse("Give the unit a name.", field="name")
    _check_name_free(force, name)
    common.refuse_out_of_range(Unit, dataclasses.asdict(unit))
    if unit.max_model_count is not None and unit.model_count > unit.max_model_count:
        common.refuse("The unit has more models than its datasheet maximum.", field="model_count")
    if unit.counts_towards_supply:
        with common.rule_refusals("points"):
            rules.check_supply(
                supply_used=force.supply_used,
                supply_limit=force.supply_limit,
                extra_points=unit.points,
            )
    values = dataclasses.asdict(unit)
    values["name"] = name
    enhancement = {key: values.pop(key) for key in ENHANCEMENT_FIELDS}
    used_before = force.supply_used
    card = Unit.objects.create(force=force, xp=0, **values)
    common.refresh_totals(force)
    common.record(
        actor,
        HistoryAction.UNIT_ADDED,
        f"{card.name} ({card.datasheet}, {card.points} points) joined {force.name}",
        unit=card,
        force=force,
        changed={
            "supply_used": [used_before, force.supply_used],
        },
    )
    if (enhancement["enhancement"] or "").strip():
        _buy_enhancement(actor, card, enhancement)
        card = common.fresh_unit(card)
    return card


def _buy_enhancement(actor, card: Unit, enhancement: dict) -> None:
    """The Enhancement's Requisition for a card just added; a refusal shows by its field."""
    try:
        renowned_heroes(
            actor=actor,
            unit=card,
            enhancement=enhancement["enhancement"],
            enhancement_points=enhancement["enhancement_points"] or 0,
            weapon=enhancement["enhancement_weapon"] or "",
        )
    except ValidationError as error:
        if hasattr(error, "error_dict"):
            raise
        raise ValidationError({"enhancement": error.messages}) from error


@transaction.atomic
def update_unit_details(*, actor, unit: Unit, **values: str) -> Unit:
    """Edit the fields of a card its player may still change (CARD_FIELDS.player)."""
    common.only(values, UNIT_FREE_FIELDS, "editable here")
    common.lock_force(unit.force_id)
    unit = common.fresh_unit(unit)
    common.require_active(unit)
    if "name" in values:
        values["name"] = values["name"].strip()
        if not values["name"]:
            common.refuse("Give the unit a name.", field="name")
        _check_name_free(unit.force, values["name"], exclude_pk=unit.pk)
    diff = common.apply_changes(unit, UNIT_FREE_FIELDS, values)
    summary = f"{unit.name}: card details edited"
    common.save_changes(unit, diff, actor, HistoryAction.UNIT_EDITED, summary, unit=unit)
    return unit


def _store_picture(
    obj, files: pictures.WrittenFiles, field: str, thumb_field: str, picture, thumbnail
) -> dict:
    """Put a processed picture and its thumbnail on ``obj``; returns the change. The files
    they replace are deleted once the transaction commits."""
    old = files.replace(obj, field, picture)
    files.replace(obj, thumb_field, thumbnail)
    obj.save(update_fields=[field, thumb_field])
    return {field: [old or None, getattr(obj, field).name]}


def set_unit_picture(*, actor, unit: Unit, picture, thumbnail) -> Unit:
    """Store a processed picture and its thumbnail on a card; the new files are deleted
    again if that fails, the old ones once it is saved."""
    with pictures.kept_if_committed() as files, transaction.atomic():
        common.lock_force(unit.force_id)
        unit = common.fresh_unit(unit)
        common.require_active(unit)
        changed = _store_picture(unit, files, "picture", "thumbnail", picture, thumbnail)
        summary = f"{unit.name}: new picture"
        common.record(actor, HistoryAction.UNIT_PICTURE, summary, unit=unit, changed=changed)
    return unit


def set_force_banner(*, actor, force: CrusadeForce, banner, thumbnail) -> CrusadeForce:
    """Store a processed banner and its thumbnail on a force; the new files are deleted
    again if that fails, the old ones once it is saved."""
    with pictures.kept_if_committed() as files, transaction.atomic():
        force = common.lock_force(force)
        changed = _store_picture(force, files, "banner", "banner_thumbnail", banner, thumbnail)
        summary = f"{force.name}: new banner"
        common.record(actor, HistoryAction.FORCE_BANNER, summary, force=force, changed=changed)
    return force


@transaction.atomic
def remove_unit(*, actor, unit: Unit, reason: str) -> Unit:
    """Remove a unit for good: a status with a date and reason, never a delete.

    The Supply Limit does not change; the freed points are simply no longer used.
    """
    force = common.lock_force(unit.force_id)
    unit = common.fresh_unit(unit)
    common.require_active(unit)
    if unit.battle_entries.filter(BattleParticipant.committed("participant__")).exists():
        common.refuse(f"{unit.name} is in a battle that has not been recorded yet.")
    reason = reason.strip() or "Removed by the player"
    used_before = force.supply_used
    unit.status = Unit.Status.REMOVED
    unit.removed_at = timezone.now()
    unit.removed_reason = reason
    unit.save(update_fields=["status", "removed_at", "removed_reason"])
    common.refresh_totals(force)
    common.record(
        actor,
        HistoryAction.UNIT_REMOVED,
        f"{unit.name} was removed from {force.name}",
        unit=unit,
        force=force,
        reason=reason,
        changed={
            "status": [Unit.Status.ACTIVE, Unit.Status.REMOVED],
            "supply_used": [used_before, force.supply_used],
        },
    )
    return unit
