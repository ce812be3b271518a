"""Pack counters and pack Requisitions.

A campaign's enabled packs bring counters (per force or per unit) and Requisitions. A
pack Requisition is bought like a core one: the force is locked, the rules are asked,
the RP or the counter pays in the transaction of the effect, and a history row is
written. Counters change only through a pack Requisition, an Agenda, a battle result
the pack names, or an organiser's correction with a reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import IntegerField, OuterRef, Q, Subquery, Value
from django.utils import timezone

from campaign import packs
from campaign.models import (
    CounterValue,
    CrusadeForce,
    CustomContent,
    HistoryAction,
    PackRequisitionPurchase,
    Unit,
    UnitUpgrade,
)
from campaign.prepared import Prepared
from campaign.rules import counters as rules

from . import _common as common
from .approval import require_approved

Kind = CustomContent.Kind
PACK_KINDS = (Kind.COUNTER, Kind.REQUISITION, Kind.UPGRADE)
"""What a force's pack section is made of."""


ITEM_ORDER = ("pack__name", "pack_id", "kind", "position", "pk")


def pack_content(campaign_id: int | None, *, force_id: int, unit_id: int | None = None):
    """The counters, Requisitions and upgrades the campaign's enabled packs offer, in one
    query, each counter with what the force (``held_by_force``) and the unit
    (``held_by_unit``) hold of it: None where no row was kept (the start value)."""
    if campaign_id is None:
        return PackContent(list(_held(campaign_id, force_id, unit_id)))
    if unit_id is None:
        return PackContent(_FORCE_CONTENT.fetch(campaign=campaign_id, force=force_id))
    return PackContent(_CARD_CONTENT.fetch(campaign=campaign_id, force=force_id, unit=unit_id))


def _held(campaign_id: int | None, force_id: int, unit_id: int | None):
    values = CounterValue.objects.filter(counter=OuterRef("pk"), force_id=force_id)
    return _pack_items(campaign_id).annotate(
        held_by_force=Subquery(values.filter(unit=None).values("value")[:1]),
        held_by_unit=(
            Subquery(values.filter(unit_id=unit_id).values("value")[:1])
            if unit_id is not None
            else Value(None, output_field=IntegerField())
        ),
    )


# `pack_content` of a force in a campaign, and of one of its cards, compiled once
# (`campaign.prepared`): asked on the first look at an Order of Battle or a card.
_FORCE_CONTENT = Prepared(
    lambda campaign, force: _held(campaign, force, None), campaign=int, force=int
)
_CARD_CONTENT = Prepared(
    lambda campaign, force, unit: _held(campaign, force, unit), campaign=int, force=int, unit=int
)


def _pack_items(campaign_id: int | None):
    return (
        CustomContent.objects.available()
        .enabled_in(campaign_id)
        .filter(kind__in=PACK_KINDS)
        .select_related("pack")
        .order_by(*ITEM_ORDER)
    )


def pack_items(campaign_id: int | None) -> list[CustomContent]:
    """The items of `pack_content` without what anyone holds (one query): what only the
    campaign's packs decide, to be given a force's and a unit's holdings by `held_content`."""
    if campaign_id is None:
        return []  # a force without a campaign has no packs
    return _PACK_ITEMS.fetch(campaign_id=campaign_id)


_PACK_ITEMS = Prepared(_pack_items, campaign_id=int)
"""`pack_items`, compiled once (`campaign.prepared`)."""


def held_content(
    items: list[CustomContent], *, force_id: int, unit_id: int, held: list | None = None
) -> PackContent:
    """`pack_content` for ``items`` (from `pack_items`, changed in place) with what the
    force and the unit hold of each counter, in one query of their counter values (or
    ``held``, what `held_read` fetched, when the caller read it with its other reads)."""
    if held is None:
        held = _HELD.fetch(force=force_id, unit=unit_id)
    holdings = {(counter_id, holder): value for counter_id, holder, value in held}
    for item in items:
        item.held_by_force = holdings.get((item.pk, None))
        item.held_by_unit = holdings.get((item.pk, unit_id))
    return PackContent(items)


def held_read(force_id: int, unit_id: int) -> tuple[Prepared, dict[str, int]]:
    """The read `held_content` makes, for a page that reads it with others."""
    return _HELD, {"force": force_id, "unit": unit_id}


_HELD = Prepared(
    lambda force, unit: (
        CounterValue.objects.filter(Q(unit=None) | Q(unit_id=unit), force_id=force)
        .order_by()
        .values_list("counter_id", "unit_id", "value")
    ),
    force=int,
    unit=int,
)
"""What a force and one of its cards hold of the counters, compiled once
(`campaign.prepared`)."""


@dataclass
class PackContent:
    """A campaign's pack items, found by kind and by (pack, key)."""

    items: list[CustomContent]
    by_key: dict[tuple[str, int, str], CustomContent] = field(init=False)

    def __post_init__(self) -> None:
        self.by_key = {(item.kind, item.pack_id, item.key): item for item in self.items}

    def of(self, kind: str) -> list[CustomContent]:
        return [item for item in self.items if item.kind == kind]

    def find(self, kind: str, pack_id: int, key: str | None) -> CustomContent | None:
        return self.by_key.get((kind, pack_id, key or ""))


def spec(counter: CustomContent) -> rules.CounterSpec:
    item = counter.as_pack_item()
    return rules.CounterSpec(name=item.name, start=item.start, least=item.least, most=item.most)


def held(counter: CustomContent, *, per_unit: bool) -> int:
    """What the holder has of ``counter`` (from `pack_content`'s annotations)."""
    value = counter.held_by_unit if per_unit else counter.held_by_force
    return counter.as_pack_item().start if value is None else value


def is_per_unit(counter: CustomContent) -> bool:
    return counter.details.get("per") == "unit"


@dataclass(frozen=True)
class CounterRow:
    """One counter as a force page or a card shows it."""

    counter: CustomContent
    value: int
    least: int
    most: int

    @property
    def name(self) -> str:
        return self.counter.name


def counter_rows(content: PackContent, *, per_unit: bool) -> list[CounterRow]:
    rows = []
    for counter in content.of(Kind.COUNTER):
        if is_per_unit(counter) != per_unit:
            continue
        bounds = spec(counter)
        rows.append(
            CounterRow(counter, held(counter, per_unit=per_unit), bounds.least, bounds.most)
        )
    return rows


@dataclass(frozen=True)
class PackRequisitionOption:
    """A pack Requisition as a player sees it: its cost, what it does, why it can't be
    bought now."""

    item: CustomContent
    cost_label: str
    refusals: tuple[str, ...]

    @property
    def available(self) -> bool:
        return not self.refusals

    @property
    def label(self) -> str:
        return self.item.name

    @property
    def timing(self) -> str:
        return rules.TIMING_LABELS.get(self.item.details.get("timing", "any"), "any time")

    @property
    def description(self) -> str:
        return self.item.effect


@dataclass(frozen=True)
class _Judged:
    """A pack Requisition checked against the force (and unit) as they stand."""

    req: packs.model.Requisition
    cost_counter: CustomContent | None
    changed: CustomContent | None
    upgrade: CustomContent | None
    refusals: list[str]

    def cost_label(self) -> str:
        if self.req.cost_in == rules.RP:
            return f"{self.req.cost}RP"
        name = self.cost_counter.name if self.cost_counter else self.req.cost_in
        return f"{self.req.cost} {name}"


def _judge(
    item: CustomContent,
    content: PackContent,
    *,
    force: CrusadeForce,
    unit: Unit | None,
    in_battle: bool,
) -> _Judged:
    req = item.as_pack_item()
    cost_counter = None
    if req.cost_in != rules.RP:
        cost_counter = content.find(Kind.COUNTER, item.pack_id, req.cost_in)
    changed = upgrade = None
    if req.effect_kind == "counter":
        changed = content.find(Kind.COUNTER, item.pack_id, req.counter)
    elif req.effect_kind == "upgrade":
        upgrade = content.find(Kind.UPGRADE, item.pack_id, req.upgrade)
    per_unit = changed is not None and is_per_unit(changed)
    reasons = rules.pack_requisition_refusals(
        in_battle=in_battle,
        cost=req.cost,
        cost_in=req.cost_in,
        rp=force.rp,
        cost_counter=spec(cost_counter) if cost_counter else None,
        cost_held=held(cost_counter, per_unit=False) if cost_counter else 0,
        changed=spec(changed) if changed else None,
        changed_held=held(changed, per_unit=per_unit) if changed else 0,
        change=req.change or 0,
        same_counter=changed is not None and changed == cost_counter,
        upgrade_held=(
            unit.name
            if unit is not None
            and upgrade is not None
            and any(u.upgrade_id == upgrade.pk for u in unit.active_upgrades())
            else None
        ),
    )
    if req.effect_kind == "upgrade" and upgrade is None:
        reasons.append(f"The upgrade {req.upgrade!r} is not in the campaign's packs.")
    if req.effect_kind == "counter" and changed is None:
        reasons.append(f"The counter {req.counter!r} is not in the campaign's packs.")
    if (per_unit or req.effect_kind == "upgrade") and unit is None:
        reasons.append(f"Pick a unit for {item.name}.")
    if unit is not None and not unit.is_active:
        reasons.insert(0, f"{unit.name} has been removed.")
    return _Judged(req, cost_counter, changed, upgrade, reasons)


def pack_requisition_options(
    content: PackContent, *, force: CrusadeForce, unit: Unit | None = None, in_battle: bool
) -> list[PackRequisitionOption]:
    """The packs' Requisitions for the force (or, with ``unit``, for that unit)."""
    target = "unit" if unit is not None else "force"
    options = []
    for item in content.of(Kind.REQUISITION):
        if item.details.get("target") != target:
            continue
        judged = _judge(item, content, force=force, unit=unit, in_battle=in_battle)
        options.append(PackRequisitionOption(item, judged.cost_label(), tuple(judged.refusals)))
    return options


def _store(counter: CustomContent, force: CrusadeForce, unit: Unit | None, value: int) -> None:
    """Keep ``value`` as what the force (or unit) holds of ``counter``."""
    CounterValue.objects.update_or_create(
        counter=counter,
        force=force,
        unit=unit,
        defaults={"value": value, "changed_at": timezone.now()},
    )


@transaction.atomic
def buy_pack_requisition(
    *, actor, requisition: CustomContent | int, force: CrusadeForce | None = None, unit=None
) -> PackRequisitionPurchase:
    """Buy one of the campaign's pack Requisitions for the force, or for one of its units:
    the RP or the counter pays in the same transaction as the effect."""
    force = common.lock_force(force if unit is None else unit.force_id)
    require_approved(force, "buy Requisitions")
    if unit is not None:
        unit = common.fresh_unit(unit)
        common.require_active(unit)
    content = pack_content(force.campaign_id, force_id=force.pk, unit_id=unit.pk if unit else None)
    pk = getattr(requisition, "pk", requisition)
    item = next((i for i in content.of(Kind.REQUISITION) if i.pk == pk), None)
    if item is None:
        common.refuse("That is not one of this campaign's Requisitions.")
    target = item.details.get("target")
    if target == "unit" and unit is None:
        common.refuse(f"Pick a unit for {item.name}.")
    if target == "force" and unit is not None:
        common.refuse(f"{item.name} is for the whole force, not for one unit.")
    judged = _judge(item, content, force=force, unit=unit, in_battle=force.in_battle())
    if judged.refusals:
        common.refuse(" ".join(judged.refusals))
    req = judged.req
    changed: dict[str, list[Any]] = {}
    moved: dict[tuple[int, bool], int] = {}

    def move(counter: CustomContent, by: int) -> None:
        per_unit = is_per_unit(counter)
        before = moved.get((counter.pk, per_unit), held(counter, per_unit=per_unit))
        moved[counter.pk, per_unit] = before + by
        _store(counter, force, unit if per_unit else None, before + by)
        changed[counter.key] = [changed.get(counter.key, [before])[0], before + by]

    if req.cost_in == rules.RP:
        before = force.rp
        force.rp -= req.cost
        force.save(update_fields=["rp"])
        changed["rp"] = [before, force.rp]
    elif req.cost:
        move(judged.cost_counter, -req.cost)
    effect = item.effect
    details: dict[str, Any] = {"pack": item.pack.slug, "key": item.key}
    if judged.cost_counter is not None:
        details["cost_name"] = judged.cost_counter.name
    if judged.changed is not None:
        move(judged.changed, req.change or 0)
        details.update(counter=judged.changed.key, change=req.change)
    if judged.upgrade is not None:
        upgrade = judged.upgrade.as_pack_item()
        points_before = unit.crusade_points
        UnitUpgrade.objects.create(
            unit=unit,
            upgrade=judged.upgrade,
            name=upgrade.name,
            effect=upgrade.effect,
            crusade_points=upgrade.crusade_points,
        )
        common.refresh_totals(force)
        changed["upgrades"] = [None, upgrade.name]
        changed["crusade_points"] = [points_before, points_before + upgrade.crusade_points]
        details["upgrade"] = judged.upgrade.key
    purchase = PackRequisitionPurchase.objects.create(
        force=force,
        unit=unit,
        requisition=item,
        name=item.name,
        cost=req.cost,
        cost_in=req.cost_in,
        effect=effect,
        details=details,
        bought_by=common.real_user(actor),
    )
    who = f" for {unit.name}" if unit is not None else ""
    common.record(
        actor,
        HistoryAction.PACK_REQUISITION_BOUGHT,
        f"{item.name} ({judged.cost_label()}){who}: {effect}",
        force=force,
        unit=unit,
        changed=changed,
    )
    return purchase


@transaction.atomic
def correct_counter(
    *, actor, force: CrusadeForce, counter: CustomContent, value: int, reason: str, unit=None
) -> CounterValue:
    """An organiser sets what a force (or one of its units) holds of a pack counter, with a
    reason kept in the history; within the counter's bounds."""
    reason = common.require_reason(reason, "Say why the counter is corrected.")
    force = common.lock_force(force)
    if unit is not None:
        unit = common.fresh_unit(unit)
        if unit.force_id != force.pk:
            common.refuse(f"{unit.name} is not in {force.name}.", field="unit")
    content = pack_content(force.campaign_id, force_id=force.pk, unit_id=unit.pk if unit else None)
    counter = next((c for c in content.of(Kind.COUNTER) if c.pk == counter.pk), None)
    if counter is None:
        common.refuse("That is not one of this campaign's counters.", field="counter")
    per_unit = is_per_unit(counter)
    if per_unit and unit is None:
        common.refuse(f"{counter.name} is counted per unit: pick the unit.", field="unit")
    if not per_unit and unit is not None:
        common.refuse(
            f"{counter.name} is counted for the whole force: leave the unit empty.", field="unit"
        )
    if (wrong := rules.bounds_refusal(spec(counter), value)) is not None:
        common.refuse(wrong, field="value")
    before = held(counter, per_unit=per_unit)
    _store(counter, force, unit, value)
    holder = unit.name if unit is not None else force.name
    common.record(
        actor,
        HistoryAction.COUNTER_CORRECTED,
        f"{counter.name} of {holder} corrected: {before} -> {value}",
        force=force,
        unit=unit,
        changed={counter.key: [before, value]},
        reason=reason,
    )
    return CounterValue.objects.get(counter=counter, force=force, unit=unit)
