"""A force's pack counters and its units' upgrades in a Crusade export, and back.

In the document (new keys, read only when present: older exports lack them)::

    "counters": [{"pack": <slug>, "counter": <id>, "value": n}],     (the force's)
    "units": [{..., "counters": [...as above...],
               "upgrades": [{"pack": <slug>, "upgrade": <id>, <UPGRADE_FIELDS>}]}]

Pack items are named by their pack's slug and their id in the pack, since ids of rows
mean nothing on another server. A restore takes them from the campaign's enabled packs:
a counter or upgrade the campaign's packs don't have is refused, by its place in the
document, and so is a counter value outside its bounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError

from campaign import documents as doc
from campaign.models import CounterValue, CrusadeForce, CustomContent, Unit, UnitUpgrade
from campaign.rules import counters as rules

Kind = CustomContent.Kind
UPGRADE_FIELDS = doc.stored_fields(UnitUpgrade)
COUNTER_FIELDS = ("value",)


def export_counters(rows) -> list[dict[str, Any]]:
    """``CounterValue`` rows (with their counter and its pack) as the document holds them."""
    return [
        {"pack": row.counter.pack.slug, "counter": row.counter.key, "value": row.value}
        for row in rows
    ]


@dataclass
class PackState:
    """What a document says of pack items, checked for shape (not yet for the campaign)."""

    counters: list[tuple[str, dict]] = field(default_factory=list)
    """(place, {"pack", "key", "value"}) of the force's counters."""
    units: list[tuple[str, list[dict], list[dict]]] = field(default_factory=list)
    """Per card: its place, its counters, its upgrades ({"pack", "key", "values"})."""


def _key(row: dict, name: str, at: str) -> str:
    value = row.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= 40:
        raise ValidationError(f"{at}.{name} must be the id of a pack item.")
    return value


def _counters(data: dict, at: str) -> list[dict]:
    found = []
    for index, row in enumerate(doc.check_rows(data, "counters", at)):
        where = f"{at}counters[{index}]"
        values = doc.decode(CounterValue, COUNTER_FIELDS, row, where)
        pack, key = _key(row, "pack", where), _key(row, "counter", where)
        found.append({"pack": pack, "key": key, "value": values["value"], "at": where})
    return found


def read_pack_state(document: dict, units: list[Any], places: list[str]) -> PackState:
    """The pack rows of ``document`` (its ``units`` rows, with their places for messages)."""
    state = PackState(counters=[(row["at"], row) for row in _counters(document, "")])
    for index, (data, place) in enumerate(zip(units, places, strict=True)):
        at = f"units[{index}]."
        upgrades = []
        for n, row in enumerate(doc.check_rows(data, "upgrades", at)):
            where = f"{at}upgrades[{n}]"
            values = doc.decode(UnitUpgrade, UPGRADE_FIELDS, row, where)
            pack, key = _key(row, "pack", where), _key(row, "upgrade", where)
            upgrades.append({"pack": pack, "key": key, "values": values})
        state.units.append((place, _counters(data, at), upgrades))
    return state


@dataclass
class Resolved:
    """Pack rows matched with the campaign's pack items, ready to be written."""

    counters: list[tuple[CustomContent, int]] = field(default_factory=list)
    units: list[tuple[list[tuple[CustomContent, int]], list[tuple[CustomContent, dict]]]] = field(
        default_factory=list
    )


def _counter(content, row: dict, place: str, *, per_unit: bool) -> tuple[CustomContent, int]:
    item = content.get((Kind.COUNTER, row["pack"], row["key"]))
    if item is None:
        raise ValidationError(
            f"{place}: the counter '{row['key']}' of the pack '{row['pack']}' is not in this "
            "campaign's packs."
        )
    if (item.details.get("per") == "unit") != per_unit:
        holder = "each unit" if not per_unit else "the whole force"
        raise ValidationError(f"{place}: {item.name} is counted for {holder}, not here.")
    spec = item.as_pack_item()
    bounds = rules.CounterSpec(name=item.name, start=spec.start, least=spec.least, most=spec.most)
    if (wrong := rules.bounds_refusal(bounds, row["value"])) is not None:
        raise ValidationError(f"{place}: {wrong}")
    return item, row["value"]


def resolve_pack_state(state: PackState, campaign_id: int | None) -> Resolved:
    """Match every pack row with the campaign's enabled packs; refuses, naming the place,
    what they don't have or what is out of its bounds. Reads one query."""
    wanted = bool(state.counters) or any(c or u for _, c, u in state.units)
    content: dict[tuple[str, str, str], CustomContent] = {}
    if wanted:
        items = (
            CustomContent.objects.enabled_in(campaign_id)
            .filter(kind__in=(Kind.COUNTER, Kind.UPGRADE))
            .select_related("pack")
        )
        content = {(item.kind, item.pack.slug, item.key): item for item in items}
    resolved = Resolved()
    seen: set[int] = set()
    for place, row in state.counters:
        item, value = _counter(content, row, place, per_unit=False)
        if item.pk in seen:
            raise ValidationError(f"{row['at']}: {item.name} is given twice.")
        seen.add(item.pk)
        resolved.counters.append((item, value))
    for place, counters, upgrades in state.units:
        mine = [_counter(content, row, place, per_unit=True) for row in counters]
        if len({item.pk for item, _ in mine}) < len(mine):
            raise ValidationError(f"{place}: a counter is given twice.")
        held = []
        for row in upgrades:
            item = content.get((Kind.UPGRADE, row["pack"], row["key"]))
            name = row["values"]["name"]
            if item is None:
                raise ValidationError(
                    f"{place}: the upgrade {name} ('{row['key']}' of the pack '{row['pack']}') "
                    "is not in this campaign's packs."
                )
            if any(other.pk == item.pk for other, _ in held):
                raise ValidationError(f"{place}: it holds the upgrade {name} twice.")
            held.append((item, row["values"]))
        resolved.units.append((mine, held))
    return resolved


def write_pack_state(force: CrusadeForce, units: list[Unit], resolved: Resolved) -> None:
    """The restored force's counters and its units' counters and upgrades, in bulk."""
    values = [CounterValue(counter=c, force=force, value=v) for c, v in resolved.counters]
    upgrades = []
    for unit, (counters, held) in zip(units, resolved.units, strict=True):
        values += [CounterValue(counter=c, force=force, unit=unit, value=v) for c, v in counters]
        upgrades += [UnitUpgrade(unit=unit, upgrade=item, **row) for item, row in held]
    CounterValue.objects.bulk_create(values)
    UnitUpgrade.objects.bulk_create(upgrades)
