"""Shared pieces of the service layer: locking, history rows, rule refusals."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Case, F, PositiveBigIntegerField, Value, When

from campaign import once, rules
from campaign.bounds import out_of_range
from campaign.models import (
    Battle,
    BattleHonour,
    BattleScar,
    Campaign,
    CrusadeForce,
    CustomContent,
    EnabledPack,
    HistoryAction,
    HistoryEntry,
    Unit,
    UnitUpgrade,
)

_WRITTEN: list[Callable[[Sequence[HistoryEntry]], object]] = []
"""Who is told of every batch of history rows written, in the change's transaction."""


def when_rows_written(listener: Callable[[Sequence[HistoryEntry]], object]) -> None:
    """Tell ``listener`` of every batch of history rows written from now on (once, however
    often it is asked: `campaign.apps` asks at start-up for the webhooks' queue)."""
    if listener not in _WRITTEN:
        _WRITTEN.append(listener)


def _written(rows: Sequence[HistoryEntry]) -> None:
    for listener in _WRITTEN:
        listener(rows)


def refuse(message: str, *, field: str | None = None) -> None:
    """Raise the ValidationError a player sees, optionally tied to a form field."""
    if field:
        raise ValidationError({field: [message]})
    raise ValidationError(message)


@contextmanager
def rule_refusals(field: str | None = None) -> Iterator[None]:
    """Turn a refusal from the rules engine into the ValidationError a form shows."""
    try:
        yield
    except rules.RuleError as error:
        refuse(error.message, field=field)


def lock_force(force: CrusadeForce | int) -> CrusadeForce:
    """Re-read a force with its row locked until the transaction ends."""
    pk = force.pk if isinstance(force, CrusadeForce) else force
    return (
        CrusadeForce.objects.select_for_update(of=("self",))
        .select_related("campaign", "provenance")
        .get(pk=pk)
    )


def lock_forces(pks: list[int]) -> dict[int, CrusadeForce]:
    """Lock several forces in primary-key order so two battles never deadlock."""
    forces = (
        CrusadeForce.objects.select_for_update(of=("self",))
        .select_related("campaign", "provenance")
        .filter(pk__in=pks)
    )
    return {f.pk: f for f in forces.order_by("pk")}


def force_totals(force: CrusadeForce) -> dict[str, int]:
    """Supply Used, Crusade points and unit count of the force's active units, derived from
    its cards by the rules (the values `refresh_totals` stores).

    Reads only the columns the rules need, in four queries whatever the force's size:
    every card change of a 200-card force adds them up again."""
    active = Unit.objects.active().filter(force=force)
    cards = list(active.values_list("pk", "points", "counts_towards_supply", "is_titanic"))
    honours: dict[int, list[tuple[str, str]]] = defaultdict(list)
    held = BattleHonour.objects.filter(unit__in=active, status=BattleHonour.Status.ACTIVE)
    for unit, category, relic in held.values_list("unit_id", "category", "relic_category"):
        honours[unit].append((category, relic))
    scars = Counter(
        BattleScar.objects.filter(unit__in=active, status=BattleScar.Status.ACTIVE).values_list(
            "unit_id", flat=True
        )
    )
    upgrades: dict[int, list[int]] = defaultdict(list)
    bought = UnitUpgrade.objects.filter(unit__in=active, status=UnitUpgrade.Status.ACTIVE)
    for unit, points in bought.values_list("unit_id", "crusade_points"):
        upgrades[unit].append(points)
    return {
        "supply_used": sum(points for _, points, counts, _ in cards if counts),
        "crusade_points": sum(
            rules.card_crusade_points(
                honours=honours[pk], scars=scars[pk], titanic=titanic, upgrades=upgrades[pk]
            )
            for pk, _, _, titanic in cards
            if pk in honours or pk in scars or pk in upgrades
        ),
        "unit_count": len(cards),
    }


def refresh_totals(force: CrusadeForce) -> dict[str, list[int]]:
    """Store the force's totals again after its cards changed; returns what changed.

    Every service that changes a card's points, status, honours or scars calls this
    inside its transaction, with the force locked.
    """
    diff = apply_changes(force, CrusadeForce.TOTAL_FIELDS, force_totals(force))
    if diff:
        force.save(update_fields=list(diff))
    return diff


def fresh_unit(unit: Unit | int) -> Unit:
    """Re-read a unit inside the transaction (after its force has been locked)."""
    pk = unit.pk if isinstance(unit, Unit) else unit
    return Unit.objects.with_card_details().select_related("force").get(pk=pk)


def require_reason(reason: str, message: str) -> str:
    """A reason that history keeps: refused when blank."""
    reason = (reason or "").strip()
    if not reason:
        refuse(message, field="reason")
    return reason


def require_campaign_content(custom: CustomContent, unit: Unit, kind: str, *, field: str) -> None:
    """``custom`` must be content of ``kind`` the unit's campaign still offers."""
    offered = (
        custom.kind == kind
        and not custom.is_retired
        and EnabledPack.objects.filter(
            campaign_id=unit.force.campaign_id, pack_id=custom.pack_id
        ).exists()
    )
    if not offered:
        what = CustomContent.Kind(kind).label
        refuse(f"That is not one of this campaign's {what}s.", field=field)


def require_active(unit: Unit) -> None:
    if not unit.is_active:
        refuse(f"{unit.name} has been removed from the Order of Battle and cannot change.")


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[Any]]:
    """The fields whose values differ, as {field: [before, after]}."""
    return {key: [before.get(key), after[key]] for key in after if before.get(key) != after[key]}


def snapshot(obj: Any, fields: list[str] | tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in fields}


def apply_changes(obj: Any, fields: list[str] | tuple[str, ...], values: dict[str, Any]):
    """Set ``values`` on ``obj``; return {field: [before, after]} for what really changed.

    A number its model field cannot hold is refused by its field, before anything is set."""
    refuse_out_of_range(type(obj), values)
    before = snapshot(obj, fields)
    for key, value in values.items():
        setattr(obj, key, value)
    return changes(before, snapshot(obj, fields))


def refuse_out_of_range(model: type, values: dict[str, Any]) -> None:
    """Refuse, by field, each of ``values`` that a number field of ``model`` cannot hold
    (`campaign.bounds`): a service may be given numbers no form checked."""
    if wrong := out_of_range(model, values):
        raise ValidationError({field: [message] for field, message in wrong.items()})


def save_changes(obj: Any, diff: dict, actor, action, summary: str, **about) -> None:
    """Save the fields in ``diff`` and write their history row; nothing when nothing changed."""
    if diff:
        obj.save(update_fields=list(diff))
        record(actor, action, summary, changed=diff, **about)


def only(values: dict, allowed, what: str = "editable here") -> None:
    """A programming error unless every key of ``values`` is in ``allowed``."""
    unknown = set(values) - set(allowed)
    if unknown:
        raise ValueError(f"not {what}: {sorted(unknown)}")


def real_user(actor):
    """The actor as a user row, or None for the system (demo loader, migrations)."""
    return actor if getattr(actor, "is_authenticated", False) else None


def history_row(
    actor,
    action: HistoryAction | str,
    summary: str,
    *,
    force: CrusadeForce | None = None,
    unit: Unit | None = None,
    battle: Battle | None = None,
    campaign: Campaign | None = None,
    changed: dict[str, list[Any]] | None = None,
    reason: str = "",
) -> HistoryEntry:
    """One history row, not yet saved: who did what, to which objects, with the numbers.

    The force and campaign are taken from ids already loaded, never fetched again.
    """
    force_id = force.pk if force is not None else (unit.force_id if unit is not None else None)
    if campaign is not None:
        campaign_id = campaign.pk
    elif force is not None:
        campaign_id = force.campaign_id
    elif unit is not None:
        campaign_id = unit.force.campaign_id
    else:
        campaign_id = None
    return HistoryEntry(
        actor=real_user(actor),
        action=action,
        summary=summary[:500],
        reason=reason[:500],
        changes=changed or {},
        campaign_id=campaign_id,
        force_id=force_id,
        unit=unit,
        battle=battle,
    )


def record(*args: Any, **row: Any) -> HistoryEntry:
    """Write one history row (the arguments of `history_row`)."""
    entry = history_row(*args, **row)
    once.claim()
    entry.save()
    _revise([entry])
    _written([entry])
    return entry


def write_history(rows: list[HistoryEntry]) -> None:
    """Write the rows of `history_row` at once.

    Every history row is written here or by `record`: a change is what uses up the form
    that asked for it (`campaign.once`), in the change's own transaction; the news among
    the rows is queued for the campaign's webhooks (`campaign.webhooks.queue`, told through
    `when_rows_written`).
    """
    if rows:
        once.claim()
        HistoryEntry.objects.bulk_create(rows)
        _revise(rows)
        _written(rows)


def _revise(rows: list[HistoryEntry]) -> None:
    """Move on, by the rows it gains, the revision of every force the rows name, and of
    every campaign they name without a force, in their transaction: what a page cached
    under the old revisions is never shown again (`selectors.versions`)."""
    forces = Counter(row.force_id for row in rows if row.force_id is not None)
    campaigns = Counter(
        row.campaign_id for row in rows if row.force_id is None and row.campaign_id is not None
    )
    for model, gained in ((CrusadeForce, forces), (Campaign, campaigns)):
        if gained:
            by = Case(
                *(When(pk=pk, then=Value(n)) for pk, n in gained.items()),
                output_field=PositiveBigIntegerField(),
            )
            model.objects.filter(pk__in=gained).update(revision=F("revision") + by)
