"""Services for campaigns, forces and cards: create, edit, add, remove (R1, R2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from campaign import rules
from campaign.models import Campaign, CrusadeForce, Membership, Unit

from ._common import (
    changes,
    fresh_unit,
    lock_force,
    record,
    refuse,
    require_active,
    rule_refusals,
    snapshot,
)

FORCE_NARRATIVE_FIELDS = ["name", "faction", "goals", "victories_notes", "vendettas", "background"]
UNIT_FREE_FIELDS = ["name", "notes", "selectable_keywords", "crusade_rules"]


HOUSE_RULE_FIELDS = ["starting_supply_limit", "starting_rp", "rp_cap", "supply_limit_increase"]


def _check_house_rules(campaign: Campaign) -> None:
    if campaign.rp_cap < 1:
        refuse("The RP cap must be at least 1.", field="rp_cap")
    if campaign.starting_rp > campaign.rp_cap:
        refuse("Starting RP cannot be above the RP cap.", field="starting_rp")


@transaction.atomic
def create_campaign(*, actor, name: str, description: str = "", **house_rules: int) -> Campaign:
    """A new campaign with the actor as its first organiser."""
    campaign = Campaign(name=name, description=description, **house_rules)
    _check_house_rules(campaign)
    campaign.save()
    Membership.objects.create(campaign=campaign, user=actor, role=Membership.Role.ORGANISER)
    record(
        actor=actor,
        action="campaign_created",
        summary=f"{name} created",
        campaign=campaign,
        changed={k: [None, v] for k, v in snapshot(campaign, HOUSE_RULE_FIELDS).items()},
    )
    return campaign


@transaction.atomic
def join_campaign(*, actor, user, campaign: Campaign, role: str = Membership.Role.PLAYER):
    """Add a member (by invitation code or by an organiser). Joining twice changes nothing."""
    membership, created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    if created:
        record(
            actor=actor,
            action="member_joined",
            summary=f"{user.username} joined {campaign.name} as {membership.get_role_display()}",
            campaign=campaign,
        )
    return membership


@transaction.atomic
def set_house_rules(*, actor, campaign: Campaign, reason: str = "", **values: int) -> Campaign:
    """Change a campaign's house rules. A lower RP cap trims RP above it (R1.5)."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    unknown = set(values) - set(HOUSE_RULE_FIELDS)
    if unknown:
        raise ValueError(f"not house rules: {sorted(unknown)}")
    before = snapshot(campaign, HOUSE_RULE_FIELDS)
    for key, value in values.items():
        setattr(campaign, key, value)
    _check_house_rules(campaign)
    campaign.save()
    diff = changes(before, snapshot(campaign, HOUSE_RULE_FIELDS))
    if diff:
        record(
            actor=actor,
            action="house_rules_changed",
            summary=f"House rules of {campaign.name} changed",
            campaign=campaign,
            changed=diff,
            reason=reason,
        )
    if "rp_cap" in diff:
        forces = CrusadeForce.objects.select_for_update().filter(campaign=campaign).order_by("pk")
        for force in forces:
            old = snapshot(force, ["rp", "rp_cap"])
            force.rp_cap = campaign.rp_cap
            force.rp = min(force.rp, force.rp_cap)
            force.save(update_fields=["rp", "rp_cap"])
            record(
                actor=actor,
                action="rp_cap_changed",
                summary=f"RP cap of {force.name} is now {force.rp_cap}",
                force=force,
                changed=changes(old, snapshot(force, ["rp", "rp_cap"])),
                reason=reason or "Campaign house rules changed",
            )
    return campaign


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
    """A new Order of Battle with the starting Supply Limit and RP (R1.2)."""
    if campaign is not None and not campaign.memberships.filter(user=player).exists():
        refuse("Join the campaign before creating a force in it.", field="campaign")
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
    record(
        actor=actor,
        action="force_created",
        summary=f"{force.name} mustered with a {force.supply_limit}-point Supply Limit "
        f"and {force.rp}RP",
        force=force,
        changed={"supply_limit": [None, force.supply_limit], "rp": [None, force.rp]},
    )
    return force


@transaction.atomic
def update_force_details(*, actor, force: CrusadeForce, **values: str) -> CrusadeForce:
    """Edit a force's name, faction and narrative (R1.1). Numbers are never edited here."""
    unknown = set(values) - set(FORCE_NARRATIVE_FIELDS)
    if unknown:
        raise ValueError(f"not editable here: {sorted(unknown)}")
    force = lock_force(force)
    before = snapshot(force, FORCE_NARRATIVE_FIELDS)
    for key, value in values.items():
        setattr(force, key, value.strip() if key in ("name", "faction") else value)
    diff = changes(before, snapshot(force, FORCE_NARRATIVE_FIELDS))
    if diff:
        force.save(update_fields=list(diff))
        record(
            actor=actor,
            action="force_edited",
            summary=f"{force.name}: details edited",
            force=force,
            changed=diff,
        )
    return force


@dataclass(frozen=True)
class NewUnit:
    """What a player fills in on a new Crusade card (R2.1, R2.2)."""

    name: str
    datasheet: str
    points: int
    faction_keywords: str
    models_description: str = ""
    model_count: int = 1
    max_model_count: int | None = None
    wargear: str = ""
    enhancement: str = ""
    enhancement_points: int = 0
    selectable_keywords: str = ""
    crusade_rules: str = ""
    trait_table: str = ""
    is_character: bool = False
    is_epic_hero: bool = False
    is_titanic: bool = False
    is_fortification: bool = False
    is_swarm: bool = False
    is_battleline: bool = False
    is_dedicated_transport: bool = False
    counts_towards_supply: bool = True
    notes: str = ""
    extra: dict = field(default_factory=dict)


def _check_name_free(force: CrusadeForce, name: str, *, exclude_pk: int | None = None) -> None:
    taken = force.units.active().filter(name__iexact=name)
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    if taken.exists():
        refuse(f"{force.name} already has a unit called {name}.", field="name")


@transaction.atomic
def add_unit(*, actor, force: CrusadeForce, unit: NewUnit) -> Unit:
    """Add a Crusade card within the Supply Limit (R1.3, R1.4); it starts at zero (R2.4)."""
    force = lock_force(force)
    name = unit.name.strip()
    if not name:
        refuse("Give the unit a name.", field="name")
    _check_name_free(force, name)
    if unit.enhancement and not unit.is_character:
        refuse("Only CHARACTER units can have an Enhancement.", field="enhancement")
    if unit.enhancement and unit.is_epic_hero:
        refuse("EPIC HEROES cannot have an Enhancement.", field="enhancement")
    if unit.max_model_count is not None and unit.model_count > unit.max_model_count:
        refuse("The unit has more models than its datasheet maximum.", field="model_count")
    if unit.counts_towards_supply:
        with rule_refusals("points"):
            rules.check_supply(
                supply_used=force.supply_used,
                supply_limit=force.supply_limit,
                extra_points=unit.points,
            )
    values = {k: v for k, v in unit.__dict__.items() if k != "extra"}
    values["name"] = name
    card = Unit.objects.create(force=force, xp=0, **values)
    record(
        actor=actor,
        action="unit_added",
        summary=f"{card.name} ({card.datasheet}, {card.points} points) joined {force.name}",
        unit=card,
        force=force,
        changed={
            "supply_used": [force.supply_used - _supply(card), force.supply_used],
        },
    )
    return card


def _supply(unit: Unit) -> int:
    return unit.points if unit.counts_towards_supply else 0


@transaction.atomic
def update_unit_details(*, actor, unit: Unit, **values: str) -> Unit:
    """Edit a card's free fields (R2.3 decision: name, notes, keywords chosen, rules)."""
    unknown = set(values) - set(UNIT_FREE_FIELDS)
    if unknown:
        raise ValueError(f"not editable here: {sorted(unknown)}")
    lock_force(unit.force_id)
    unit = fresh_unit(unit)
    require_active(unit)
    if "name" in values:
        values["name"] = values["name"].strip()
        if not values["name"]:
            refuse("Give the unit a name.", field="name")
        _check_name_free(unit.force, values["name"], exclude_pk=unit.pk)
    before = snapshot(unit, UNIT_FREE_FIELDS)
    for key, value in values.items():
        setattr(unit, key, value)
    diff = changes(before, snapshot(unit, UNIT_FREE_FIELDS))
    if diff:
        unit.save(update_fields=list(diff))
        record(
            actor=actor,
            action="unit_edited",
            summary=f"{unit.name}: card details edited",
            unit=unit,
            changed=diff,
        )
    return unit


@transaction.atomic
def set_unit_picture(*, actor, unit: Unit, picture, thumbnail) -> Unit:
    """Store a processed picture and its thumbnail on a card."""
    lock_force(unit.force_id)
    unit = fresh_unit(unit)
    require_active(unit)
    old = unit.picture.name
    unit.picture = picture
    unit.thumbnail = thumbnail
    unit.save(update_fields=["picture", "thumbnail"])
    record(
        actor=actor,
        action="unit_picture",
        summary=f"{unit.name}: new picture",
        unit=unit,
        changed={"picture": [old or None, unit.picture.name]},
    )
    return unit


@transaction.atomic
def set_force_banner(*, actor, force: CrusadeForce, banner, thumbnail) -> CrusadeForce:
    force = lock_force(force)
    old = force.banner.name
    force.banner = banner
    force.banner_thumbnail = thumbnail
    force.save(update_fields=["banner", "banner_thumbnail"])
    record(
        actor=actor,
        action="force_banner",
        summary=f"{force.name}: new banner",
        force=force,
        changed={"banner": [old or None, force.banner.name]},
    )
    return force


@transaction.atomic
def remove_unit(*, actor, unit: Unit, reason: str) -> Unit:
    """Remove a unit for good (R1.4): a status with a date and reason, never a delete.

    The Supply Limit does not change; the freed points are simply no longer used.
    """
    force = lock_force(unit.force_id)
    unit = fresh_unit(unit)
    require_active(unit)
    if unit.battle_entries.filter(participant__battle__status="in_progress").exists():
        refuse(f"{unit.name} is in a battle that has not been recorded yet.")
    reason = reason.strip() or "Removed by the player"
    used_before = force.supply_used
    unit.status = Unit.Status.REMOVED
    unit.removed_at = timezone.now()
    unit.removed_reason = reason
    unit.save(update_fields=["status", "removed_at", "removed_reason"])
    record(
        actor=actor,
        action="unit_removed",
        summary=f"{unit.name} was removed from {force.name}",
        unit=unit,
        force=force,
        reason=reason,
        changed={
            "status": [Unit.Status.ACTIVE, Unit.Status.REMOVED],
            "supply_used": [used_before, used_before - _supply(unit)],
        },
    )
    return unit
