"""The core Requisitions: cost, timing and eligibility asked of the rules engine."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from campaign import rules
from campaign.models import (
    BattleHonour,
    CrusadeForce,
    HistoryAction,
    Promotion,
    RequisitionPurchase,
    Unit,
)
from campaign.prepared import Prepared

from . import _common as common
from .approval import require_approved

Req = rules.Requisition


@dataclass(frozen=True)
class RequisitionOption:
    """One Requisition as a player sees it: what it costs now and why it can't be bought."""

    requisition: rules.Requisition
    cost: int
    refusals: tuple[str, ...]

    @property
    def available(self) -> bool:
        return not self.refusals

    @property
    def label(self) -> str:
        return self.requisition.label

    @property
    def description(self) -> str:
        return rules.REQUISITION_DESCRIPTIONS[self.requisition]


def _enhanced(force: int, excluding: int | None = None):
    units = Unit.objects.filter(force_id=force).active().exclude(enhancement="")
    if excluding is not None:
        units = units.exclude(pk=excluding)
    return units.order_by().values("force").annotate(n=Count("pk")).values_list("n", flat=True)


# `other_enhancements`, compiled once (`campaign.prepared`): asked by every card page.
_ENHANCED = Prepared(_enhanced, force=int)
_ENHANCED_BUT = Prepared(_enhanced, force=int, excluding=int)


def other_enhancements(
    force: CrusadeForce, *, excluding: Unit | None = None, counted: list | None = None
) -> int:
    """Enhancements already held by active units of the Order of Battle. ``counted``: what
    `other_enhancements_read` fetched, when the caller read it with its other reads."""
    if counted is None:
        if excluding is None:
            counted = _ENHANCED.fetch(force=force.pk)
        else:
            counted = _ENHANCED_BUT.fetch(force=force.pk, excluding=excluding.pk)
    return counted[0] if counted else 0


def other_enhancements_read(unit: Unit) -> tuple[Prepared, dict[str, int]]:
    """The read `other_enhancements` makes for ``unit``'s Requisitions, for a page that
    reads it with others (`prepared.fetch_together`)."""
    return _ENHANCED_BUT, {"force": unit.force_id, "excluding": unit.pk}


def requisition_options(
    force: CrusadeForce,
    *,
    unit: Unit | None = None,
    in_battle: bool | None = None,
    enhancements_counted: list | None = None,
) -> list[RequisitionOption]:
    """Every Requisition for the force (or one of its units), with cost and refusals.
    The force's other Enhancements are counted only for a unit's Requisitions (they set
    what a new Enhancement costs): the force's own never depend on them.
    ``enhancements_counted``: what `other_enhancements_read` fetched, if it was."""
    in_battle = force.in_battle() if in_battle is None else in_battle
    enhancements = (
        other_enhancements(force, excluding=unit, counted=enhancements_counted)
        if unit is not None
        else 0
    )
    facts = unit.facts() if unit is not None else None
    options = []
    for req in rules.Requisition:
        if req.needs_unit != (unit is not None):
            continue
        refusals = rules.requisition_refusals(
            req,
            rp=force.rp,
            in_battle=in_battle,
            unit=facts,
            other_enhancements=enhancements,
            force_has_played=force.battle_tally > 0,
            unit_has_played=unit.battles_played > 0 if unit is not None else True,
        )
        if unit is not None and not unit.is_active:
            refusals = [f"{unit.name} has been removed.", *refusals]
        cost = rules.requisition_cost(
            req,
            battle_honours=facts.battle_honours if facts else 0,
            other_enhancements=enhancements,
        )
        options.append(RequisitionOption(req, cost, tuple(refusals)))
    return options


@dataclass
class _Purchase:
    """A Requisition the rules allow: the locked force, the fresh unit and the cost."""

    req: rules.Requisition
    force: CrusadeForce
    unit: Unit | None
    cost: int

    def pay(self, *, actor, summary: str, changed: dict, details: dict | None = None):
        """Spend the RP, keep the purchase and write its history row."""
        force = self.force
        common.refresh_totals(force)
        rp_before = force.rp
        force.rp -= self.cost
        force.save(update_fields=["rp", *(["supply_limit"] if "supply_limit" in changed else [])])
        purchase = RequisitionPurchase.objects.create(
            force=force,
            unit=self.unit,
            requisition=self.req.value,
            cost=self.cost,
            details=details or {},
            bought_by=common.real_user(actor),
        )
        common.record(
            actor,
            HistoryAction.for_requisition(self.req),
            f"{self.req.label} ({self.cost}RP): {summary}",
            force=force,
            unit=self.unit,
            changed={"rp": [rp_before, force.rp], **changed},
        )
        return purchase

    def check_points(self, new_points: int, field: str) -> None:
        """A change of the unit's points must still fit in the Supply Limit."""
        unit = self.unit
        if not unit.counts_towards_supply or new_points <= unit.points:
            return
        with common.rule_refusals(field):
            rules.check_supply(
                supply_used=self.force.supply_used,
                supply_limit=self.force.supply_limit,
                extra_points=new_points - unit.points,
            )

    def change_unit(self, **values) -> dict:
        """Set ``values`` on the unit and save them; returns what changed."""
        diff = common.apply_changes(self.unit, tuple(values), values)
        self.unit.save(update_fields=list(values))
        return diff


def _start(req: rules.Requisition, *, force=None, unit: Unit | None = None) -> _Purchase:
    """Lock the force, re-read the unit and ask the rules; refuses with every reason."""
    force = common.lock_force(force if unit is None else unit.force_id)
    require_approved(force, "buy Requisitions")
    if unit is not None:
        unit = common.fresh_unit(unit)
        common.require_active(unit)
    enhancements = other_enhancements(force, excluding=unit)
    facts = unit.facts() if unit is not None else None
    refusals = rules.requisition_refusals(
        req,
        rp=force.rp,
        in_battle=force.in_battle(),
        unit=facts,
        other_enhancements=enhancements,
        force_has_played=force.battle_tally > 0,
        unit_has_played=unit.battles_played > 0 if unit is not None else True,
    )
    if refusals:
        common.refuse(" ".join(refusals))
    cost = rules.requisition_cost(
        req, battle_honours=facts.battle_honours if facts else 0, other_enhancements=enhancements
    )
    return _Purchase(req, force, unit, cost)


@transaction.atomic
def increase_supply_limit(*, actor, force: CrusadeForce) -> RequisitionPurchase:
    """More Supply Limit (by the campaign's house rules) for RP."""
    buy = _start(Req.INCREASE_SUPPLY_LIMIT, force=force)
    force = buy.force
    before = force.supply_limit
    common.apply_changes(
        force, ["supply_limit"], {"supply_limit": before + force.house_rules.supply_limit_increase}
    )
    return buy.pay(
        actor=actor,
        summary=f"Supply Limit {before} -> {force.supply_limit}",
        changed={"supply_limit": [before, force.supply_limit]},
    )


@transaction.atomic
def renowned_heroes(
    *,
    actor,
    unit: Unit,
    enhancement: str,
    enhancement_points: int,
    promotion: Promotion | None = None,
    weapon: str = "",
) -> RequisitionPurchase:
    """An Enhancement for a CHARACTER, instead of a promotion's honour or at the start.

    ``weapon`` names the weapon the Enhancement is or replaces: a relic or Weapon
    Modifications on that weapon are lost with it.
    """
    enhancement = enhancement.strip()
    if not enhancement:
        common.refuse("Name the Enhancement.", field="enhancement")
    buy = _start(Req.RENOWNED_HEROES, unit=unit)
    unit = buy.unit
    new_points = unit.points + enhancement_points
    buy.check_points(new_points, "enhancement_points")
    pending = unit.pending_promotions()
    if promotion is not None and promotion.pk not in {p.pk for p in pending}:
        common.refuse("That promotion is not waiting to be settled.")
    if promotion is None and pending:
        promotion = pending[0]
    lost = _lose_honours_on(buy.unit, {weapon.strip().lower()} - {""}, by=Req.RENOWNED_HEROES)
    changed = buy.change_unit(
        enhancement=enhancement,
        enhancement_points=enhancement_points,
        enhancement_weapon=weapon.strip(),
        points=new_points,
    )
    if lost:
        changed["honours_lost"] = [[h.name for h in lost], []]
    if promotion is not None:
        Promotion.objects.filter(pk=promotion.pk).update(
            status=Promotion.Status.SETTLED,
            settled_by=rules.PromotionReward.RENOWNED_HEROES,
            settled_with=enhancement,
            settled_at=timezone.now(),
        )
    return buy.pay(
        actor=actor,
        summary=f"{unit.name} gains the Enhancement {enhancement}",
        changed=changed,
        details={
            "enhancement": enhancement,
            "points": enhancement_points,
            "promotion": promotion.pk if promotion else None,
        },
    )


@transaction.atomic
def legendary_veterans(*, actor, unit: Unit) -> RequisitionPurchase:
    """Lift a non-CHARACTER unit's XP cap and raise its honour limit."""
    buy = _start(Req.LEGENDARY_VETERANS, unit=unit)
    return buy.pay(
        actor=actor,
        summary=f"{buy.unit.name} become {Req.LEGENDARY_VETERANS.label}",
        changed=buy.change_unit(legendary_veteran=True),
    )


def _lose_honours_on(unit: Unit, weapons: set[str], *, by: rules.Requisition):
    """Weapon Modifications and relics on the replaced weapons (lower-case names) are lost."""
    kinds = (rules.HonourCategory.WEAPON_MODIFICATION, rules.HonourCategory.CRUSADE_RELIC)
    lost = [
        h
        for h in unit.active_honours()
        if h.weapon and h.weapon.strip().lower() in weapons and h.category in kinds
    ]
    now = timezone.now()
    for honour in lost:
        honour.status, honour.lost_at = BattleHonour.Status.LOST, now
        honour.lost_reason = f"{honour.weapon} replaced by {by.label}"
        honour.save(update_fields=["status", "lost_at", "lost_reason"])
    return lost


@transaction.atomic
def rearm_and_resupply(
    *,
    actor,
    unit: Unit,
    wargear: str,
    points: int,
    replaced_weapons: list[str] | tuple[str, ...] = (),
) -> RequisitionPurchase:
    """New wargear and points; modified or relic weapons that are replaced are lost."""
    buy = _start(Req.REARM_AND_RESUPPLY, unit=unit)
    buy.check_points(points, "points")
    replaced = {w.strip().lower() for w in replaced_weapons if w.strip()}
    lost = _lose_honours_on(buy.unit, replaced, by=Req.REARM_AND_RESUPPLY)
    changed = buy.change_unit(wargear=wargear, points=points)
    if lost:
        changed["honours_lost"] = [[h.name for h in lost], []]
    return buy.pay(
        actor=actor,
        summary=f"{buy.unit.name} rearmed"
        + (f"; lost {', '.join(h.name for h in lost)}" if lost else ""),
        changed=changed,
        details={"replaced_weapons": sorted(replaced), "honours_lost": [h.pk for h in lost]},
    )


@transaction.atomic
def repair_and_recuperate(*, actor, unit: Unit, scar) -> RequisitionPurchase:
    """Remove one Battle Scar (its Crusade point comes back)."""
    buy = _start(Req.REPAIR_AND_RECUPERATE, unit=unit)
    held = {s.pk: s for s in buy.unit.active_scars()}
    scar_pk = getattr(scar, "pk", scar)
    if scar_pk not in held:
        common.refuse(f"{buy.unit.name} does not bear that Battle Scar.", field="scar")
    scar = held[scar_pk]
    points_before = buy.unit.crusade_points
    scar.status = scar.Status.REPAIRED
    scar.removed_at = timezone.now()
    scar.save(update_fields=["status", "removed_at"])
    buy.unit = common.fresh_unit(buy.unit)
    return buy.pay(
        actor=actor,
        summary=f"{buy.unit.name} recovers from {scar.name}",
        changed={
            "crusade_points": [points_before, buy.unit.crusade_points],
            "battle_scars": [scar.name, None],
        },
        details={"scar": scar.pk},
    )


@transaction.atomic
def fresh_recruits(
    *,
    actor,
    unit: Unit,
    models_added: int,
    points: int,
    models_description: str | None = None,
    max_model_count: int | None = None,
) -> RequisitionPurchase:
    """More models, up to the datasheet maximum, at their new points within the Supply Limit.

    A card that doesn't know its datasheet maximum takes it from ``max_model_count``.
    """
    buy = _start(Req.FRESH_RECRUITS, unit=unit)
    unit = buy.unit
    most = unit.max_model_count if unit.max_model_count is not None else max_model_count
    refusals = rules.fresh_recruits_refusals(
        name=unit.name,
        model_count=unit.model_count,
        models_added=models_added,
        max_model_count=most,
        points=unit.points,
        new_points=points,
    )
    if refusals:
        raise ValidationError({field: [message] for field, message in refusals.items()})
    buy.check_points(points, "points")
    values = {"model_count": unit.model_count + models_added, "points": points}
    if unit.max_model_count is None:
        values["max_model_count"] = most
    if models_description is not None:
        values["models_description"] = models_description
    return buy.pay(
        actor=actor,
        summary=f"{unit.name} gains {models_added} model(s)",
        changed=buy.change_unit(**values),
        details={"models_added": models_added},
    )
