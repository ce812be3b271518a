"""The six core Requisitions (R6): cost, timing and eligibility asked of the rules engine."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
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

from ._common import (
    fresh_unit,
    lock_force,
    real_user,
    record,
    refuse,
    require_active,
    rule_refusals,
)

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


def other_enhancements(force: CrusadeForce, *, excluding: Unit | None = None) -> int:
    """R6.2: Enhancements already held by active units of the Order of Battle."""
    units = force.units.active().exclude(enhancement="")
    if excluding is not None:
        units = units.exclude(pk=excluding.pk)
    return units.count()


def requisition_options(
    force: CrusadeForce,
    *,
    unit: Unit | None = None,
    in_battle: bool | None = None,
    enhancements: int | None = None,
) -> list[RequisitionOption]:
    """Every Requisition for the force (or one of its units), with cost and refusals."""
    in_battle = force.in_battle() if in_battle is None else in_battle
    if enhancements is None:
        enhancements = other_enhancements(force, excluding=unit)
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


def _start(
    req: rules.Requisition, *, force: CrusadeForce | int, unit: Unit | None
) -> tuple[CrusadeForce, Unit | None, int]:
    """Lock the force, re-read the unit and check the rules; returns the cost to pay."""
    force = lock_force(force)
    if unit is not None:
        unit = fresh_unit(unit)
        require_active(unit)
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
        refuse(" ".join(refusals))
    cost = rules.requisition_cost(
        req, battle_honours=facts.battle_honours if facts else 0, other_enhancements=enhancements
    )
    return force, unit, cost


def _pay(
    *,
    actor,
    req: rules.Requisition,
    force: CrusadeForce,
    unit: Unit | None,
    cost: int,
    summary: str,
    changed: dict,
    details: dict | None = None,
) -> RequisitionPurchase:
    rp_before = force.rp
    force.rp -= cost
    force.save(update_fields=["rp", *(["supply_limit"] if "supply_limit" in changed else [])])
    purchase = RequisitionPurchase.objects.create(
        force=force,
        unit=unit,
        requisition=req.value,
        cost=cost,
        details=details or {},
        bought_by=real_user(actor),
    )
    record(
        actor=actor,
        action=HistoryAction.for_requisition(req),
        summary=f"{req.label} ({cost}RP): {summary}",
        force=force,
        unit=unit,
        changed={"rp": [rp_before, force.rp], **changed},
    )
    return purchase


def _check_new_points(force: CrusadeForce, unit: Unit, new_points: int, field: str) -> None:
    """R1.3: a change of points must still fit in the Supply Limit."""
    if not unit.counts_towards_supply or new_points <= unit.points:
        return
    with rule_refusals(field):
        rules.check_supply(
            supply_used=force.supply_used,
            supply_limit=force.supply_limit,
            extra_points=new_points - unit.points,
        )


@transaction.atomic
def increase_supply_limit(*, actor, force: CrusadeForce) -> RequisitionPurchase:
    """R6.1: +200 (house) Supply Limit for 1RP."""
    force, _, cost = _start(Req.INCREASE_SUPPLY_LIMIT, force=force, unit=None)
    before = force.supply_limit
    force.supply_limit += force.house_rules.supply_limit_increase
    return _pay(
        actor=actor,
        req=Req.INCREASE_SUPPLY_LIMIT,
        force=force,
        unit=None,
        cost=cost,
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
) -> RequisitionPurchase:
    """R6.2: an Enhancement for a CHARACTER, instead of a promotion's honour or at the start."""
    enhancement = enhancement.strip()
    if not enhancement:
        refuse("Name the Enhancement.", field="enhancement")
    force, unit, cost = _start(Req.RENOWNED_HEROES, force=unit.force_id, unit=unit)
    new_points = unit.points + enhancement_points
    _check_new_points(force, unit, new_points, "enhancement_points")
    pending = unit.pending_promotions()
    if promotion is not None and promotion.pk not in {p.pk for p in pending}:
        refuse("That promotion is not waiting to be settled.")
    if promotion is None and pending:
        promotion = pending[0]
    old_points = unit.points
    unit.enhancement = enhancement
    unit.enhancement_points = enhancement_points
    unit.points = new_points
    unit.save(update_fields=["enhancement", "enhancement_points", "points"])
    if promotion is not None:
        Promotion.objects.filter(pk=promotion.pk).update(
            status=Promotion.Status.SETTLED,
            settled_by=rules.PromotionReward.RENOWNED_HEROES,
            settled_with=enhancement,
            settled_at=timezone.now(),
        )
    return _pay(
        actor=actor,
        req=Req.RENOWNED_HEROES,
        force=force,
        unit=unit,
        cost=cost,
        summary=f"{unit.name} gains the Enhancement {enhancement}",
        changed={"points": [old_points, new_points], "enhancement": [None, enhancement]},
        details={
            "enhancement": enhancement,
            "points": enhancement_points,
            "promotion": promotion.pk if promotion else None,
        },
    )


@transaction.atomic
def legendary_veterans(*, actor, unit: Unit) -> RequisitionPurchase:
    """R6.3: lift a non-CHARACTER unit's 30XP cap and raise its honour limit to 6."""
    force, unit, cost = _start(Req.LEGENDARY_VETERANS, force=unit.force_id, unit=unit)
    unit.legendary_veteran = True
    unit.save(update_fields=["legendary_veteran"])
    return _pay(
        actor=actor,
        req=Req.LEGENDARY_VETERANS,
        force=force,
        unit=unit,
        cost=cost,
        summary=f"{unit.name} become Legendary Veterans",
        changed={"legendary_veteran": [False, True]},
    )


@transaction.atomic
def rearm_and_resupply(
    *,
    actor,
    unit: Unit,
    wargear: str,
    points: int,
    replaced_weapons: list[str] | tuple[str, ...] = (),
) -> RequisitionPurchase:
    """R6.4: new wargear and points; modified or relic weapons replaced are lost (R4.7)."""
    force, unit, cost = _start(Req.REARM_AND_RESUPPLY, force=unit.force_id, unit=unit)
    _check_new_points(force, unit, points, "points")
    replaced = {w.strip().lower() for w in replaced_weapons if w.strip()}
    lost = [
        h
        for h in unit.active_honours()
        if h.weapon
        and h.weapon.strip().lower() in replaced
        and h.category
        in (rules.HonourCategory.WEAPON_MODIFICATION, rules.HonourCategory.CRUSADE_RELIC)
    ]
    now = timezone.now()
    for honour in lost:
        honour.status = BattleHonour.Status.LOST
        honour.lost_at = now
        honour.lost_reason = f"{honour.weapon} replaced by Rearm and Resupply"
        honour.save(update_fields=["status", "lost_at", "lost_reason"])
    before = {"wargear": unit.wargear, "points": unit.points}
    unit.wargear = wargear
    unit.points = points
    unit.save(update_fields=["wargear", "points"])
    changed = {k: [v, getattr(unit, k)] for k, v in before.items() if v != getattr(unit, k)}
    if lost:
        changed["honours_lost"] = [[h.name for h in lost], []]
    return _pay(
        actor=actor,
        req=Req.REARM_AND_RESUPPLY,
        force=force,
        unit=unit,
        cost=cost,
        summary=f"{unit.name} rearmed"
        + (f"; lost {', '.join(h.name for h in lost)}" if lost else ""),
        changed=changed,
        details={"replaced_weapons": sorted(replaced), "honours_lost": [h.pk for h in lost]},
    )


@transaction.atomic
def repair_and_recuperate(*, actor, unit: Unit, scar) -> RequisitionPurchase:
    """R6.5: remove one Battle Scar (+1 Crusade point back)."""
    force, unit, cost = _start(Req.REPAIR_AND_RECUPERATE, force=unit.force_id, unit=unit)
    held = {s.pk: s for s in unit.active_scars()}
    scar_pk = getattr(scar, "pk", scar)
    if scar_pk not in held:
        refuse(f"{unit.name} does not bear that Battle Scar.", field="scar")
    scar = held[scar_pk]
    points_before = unit.crusade_points
    scar.status = scar.Status.REPAIRED
    scar.removed_at = timezone.now()
    scar.save(update_fields=["status", "removed_at"])
    unit = fresh_unit(unit)
    return _pay(
        actor=actor,
        req=Req.REPAIR_AND_RECUPERATE,
        force=force,
        unit=unit,
        cost=cost,
        summary=f"{unit.name} recovers from {scar.name}",
        changed={
            "crusade_points": [points_before, unit.crusade_points],
            "battle_scars": [scar.name, None],
        },
        details={"scar": scar.pk},
    )


@transaction.atomic
def fresh_recruits(
    *, actor, unit: Unit, models_added: int, points: int, models_description: str | None = None
) -> RequisitionPurchase:
    """R6.6: more models, up to the datasheet maximum, within the Supply Limit."""
    if models_added < 1:
        refuse("Add at least one model.", field="models_added")
    force, unit, cost = _start(Req.FRESH_RECRUITS, force=unit.force_id, unit=unit)
    new_count = unit.model_count + models_added
    if unit.max_model_count is not None and new_count > unit.max_model_count:
        refuse(
            f"{unit.name} can have at most {unit.max_model_count} models; "
            f"it has {unit.model_count}.",
            field="models_added",
        )
    if points < unit.points:
        refuse("More models cannot cost fewer points.", field="points")
    _check_new_points(force, unit, points, "points")
    before = {"model_count": unit.model_count, "points": unit.points}
    unit.model_count = new_count
    unit.points = points
    if models_description is not None:
        unit.models_description = models_description
    unit.save(update_fields=["model_count", "points", "models_description"])
    return _pay(
        actor=actor,
        req=Req.FRESH_RECRUITS,
        force=force,
        unit=unit,
        cost=cost,
        summary=f"{unit.name} gains {models_added} model(s)",
        changed={k: [v, getattr(unit, k)] for k, v in before.items()},
        details={"models_added": models_added},
    )
