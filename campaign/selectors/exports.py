"""Taking a force out: its whole Crusade state as a JSON document, or as text for a chat.

The JSON layout is `campaign.documents`; `services.restore_force` reads it back. The
text follows the official app's export, so the importer (and other apps) read it too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from campaign import documents as doc
from campaign import rules
from campaign.models import (
    BattleHonour,
    BattleParticipant,
    BattleScar,
    CounterValue,
    CrusadeForce,
    Promotion,
    Unit,
    UnitUpgrade,
)
from campaign.rosters._text import split_items
from campaign.rosters.app_text import SECTIONS
from campaign.services.pack_state import UPGRADE_FIELDS, export_counters

from .counters import force_counters
from .labels import keyword_labels

FOOTER = "Exported with Crusade Tracker"
"""The app's own last line says which app wrote it; importers skip it."""


def force_document(
    force: CrusadeForce, *, history: bool = False, signed: bool = True
) -> dict[str, Any]:
    """The force's complete Crusade state (and, with ``history``, its history), in a
    fixed number of queries however many units it has, and without a model instance
    for each card's rows. Signed by this server (`documents.sign`), so that a restore
    can tell it was not changed; with ``signed=False`` the caller signs it as it writes
    the file (`documents.signed_file`)."""
    force = CrusadeForce.objects.select_related("player", "campaign", "provenance", "alliance").get(
        pk=force.pk
    )
    units = _unit_rows(force)
    where = {pk: index for index, (pk, _) in enumerate(units)}
    document = {
        "format": doc.FORMAT,
        "version": doc.VERSION,
        "exported_at": timezone.now().isoformat(),
        "exported_from": {
            "player": force.player.get_username(),
            "player_id": force.player_id,
            "force": force.name,
            "force_id": force.pk,
            "campaign": force.campaign.name if force.campaign else None,
        },
        "force": {
            **doc.encode(force, doc.FORCE_FIELDS),
            "alliance": force.alliance.name if force.alliance_id else "",
        },
        "totals": {name: getattr(force, name) for name in ("rp_cap", *force.TOTAL_FIELDS)},
        "units": [row for _, row in units],
        "requisitions": [
            _placed(row, unit_id, where)
            for _, unit_id, row in _rows(
                force.requisitions.order_by("created_at", "pk"),
                doc.REQUISITION_FIELDS,
                unit="unit_id",
            )
        ],
        "counters": export_counters(force_counters(force)),
    }
    if (provenance := force.restored_from) is not None:
        document["restored_from"] = _provenance(provenance)
    if history:
        document["history"] = _history(force, where)
    return doc.sign(document, plain=True) if signed else document


def _rows(
    queryset, fields: tuple[str, ...], *, card: str = "unit_id", **links: str
) -> Iterator[tuple[int, int | None, dict]]:
    """Each row of ``queryset`` as (its id, its card's id, its JSON values): ``fields``,
    then ``links`` (name in the document: lookup), read as plain values in one query.
    Only the dates need turning into JSON (`documents.plain_value` of the rest is the
    value itself)."""
    model = queryset.model._meta
    dates = [i for i, name in enumerate(fields) if isinstance(model.get_field(name), _DATES)]
    names = (*fields, *links)
    for pk, unit_id, *values in queryset.values_list("pk", card, *fields, *links.values()):
        for i in dates:
            if values[i] is not None:
                values[i] = values[i].isoformat()
        yield pk, unit_id, dict(zip(names, values, strict=True))


def _by_unit(queryset, fields: tuple[str, ...], **links: str) -> dict[int, list[tuple[int, dict]]]:
    """`_rows` of a table of the force's cards, each card's (id, values) in order."""
    grouped: dict[int, list[tuple[int, dict]]] = defaultdict(list)
    for pk, unit_id, row in _rows(queryset, fields, **links):
        grouped[unit_id].append((pk, row))
    return grouped


def _unit_rows(force: CrusadeForce) -> list[tuple[int, dict[str, Any]]]:
    """The force's cards, oldest first, each with its honours, scars, promotions and pack
    state: one query for each kind of row, however many cards."""
    mine = {"unit__force": force}
    promotions = _by_unit(
        Promotion.objects.filter(**mine).order_by("created_at", "pk"), doc.PROMOTION_FIELDS
    )
    honours = _by_unit(
        BattleHonour.objects.filter(**mine).order_by("gained_at", "pk"),
        doc.HONOUR_FIELDS,
        promotion="promotion_id",
        replaces="replaces_id",
        custom_content="custom_content__name",
    )
    scars = _by_unit(
        BattleScar.objects.filter(**mine).order_by("gained_at", "pk"),
        doc.SCAR_FIELDS,
        custom_content="custom_content__name",
    )
    counters = _by_unit(
        CounterValue.objects.filter(**mine).order_by("pk"),
        (),
        pack="counter__pack__slug",
        counter="counter__key",
        value="value",
    )
    upgrades = _by_unit(
        UnitUpgrade.objects.filter(**mine).order_by("pk"),
        UPGRADE_FIELDS,
        pack="upgrade__pack__slug",
        upgrade="upgrade__key",
    )
    units = []
    for pk, _, row in _rows(force.units.order_by("created_at", "pk"), doc.UNIT_FIELDS, card="pk"):
        promoted = promotions.get(pk, [])
        gained = honours.get(pk, [])
        promotion_at = {promotion: index for index, (promotion, _) in enumerate(promoted)}
        honour_at = {honour: index for index, (honour, _) in enumerate(gained)}
        for _, honour in gained:
            honour["promotion"] = promotion_at.get(honour["promotion"])
            honour["replaces"] = honour_at.get(honour["replaces"])
        row["honours"] = [honour for _, honour in gained]
        row["scars"] = [scar for _, scar in scars.get(pk, [])]
        row["promotions"] = [promotion for _, promotion in promoted]
        row["counters"] = [counter for _, counter in counters.get(pk, [])]
        row["upgrades"] = [upgrade for _, upgrade in upgrades.get(pk, [])]
        units.append((pk, row))
    return units


def _history(force: CrusadeForce, where: dict[int, int]) -> list[dict[str, Any]]:
    """The force's history rows as plain values, in one query and without a model
    instance per row (a veteran force has thousands)."""
    username = f"actor__{get_user_model().USERNAME_FIELD}"
    rows = _rows(
        force.history.order_by("created_at", "pk"), doc.HISTORY_FIELDS, unit="unit_id", by=username
    )
    return [_placed(row, unit_id, where) for _, unit_id, row in rows]


def _placed(row: dict[str, Any], unit_id: int | None, where: dict[int, int]) -> dict[str, Any]:
    """``row`` with its card given as the card's index in the document's ``units``."""
    row["unit"] = where.get(unit_id)
    return row


_DATES = models.DateField
"""Fields whose values are turned into ISO text (a DateTimeField is a DateField)."""


def _provenance(provenance) -> dict[str, Any]:
    """Where a restored force came from, for people reading its export (never read back:
    the restore of this document records its own provenance)."""
    return {
        "force": provenance.original_name,
        "player": provenance.original_owner,
        "campaign": provenance.original_campaign,
        "exported_at": provenance.exported_at.isoformat() if provenance.exported_at else None,
        "verified": provenance.verified,
        "approval": provenance.approval,
    }


def _section_keywords() -> list[tuple[str, str | None]]:
    """The app's sections in order, each with the card field that puts a unit in it
    (None for the last, which takes the rest)."""
    found = []
    for heading, flags in SECTIONS.items():
        role = next((flag for flag, value in flags.items() if value), None)
        found.append((heading, f"is_{role}" if role else None))
    return found


def battle_size_for(points: int) -> tuple[str, int]:
    """The smallest battle size the points fit in (the largest if none does)."""
    sizes = sorted(rules.BATTLE_SIZES.items(), key=lambda size: size[1])
    return next((size for size in sizes if points <= size[1]), sizes[-1])


def force_text(force: CrusadeForce) -> str:
    """The Order of Battle in the official app's text layout, with a Crusade line per unit:
    what players paste in a chat, and what the importer reads back."""
    units = list(force.units.active().with_card_details().order_by("name", "pk"))
    detachment = (
        BattleParticipant.objects.filter(force=force)
        .exclude(detachment="")
        .order_by("-battle__date", "-pk")
        .values_list("detachment", flat=True)
        .first()
    )
    total = sum(unit.points for unit in units)
    size, limit = battle_size_for(total)
    lines = [f"{force.name} ({total} Points)", "", force.faction]
    lines += [detachment] if detachment else []
    lines += [f"{size} ({limit} Points)"]
    placed: set[int] = set()
    for heading, keyword in _section_keywords():
        members = [
            unit
            for unit in units
            if unit.pk not in placed and (keyword is None or getattr(unit, keyword))
        ]
        if not members:
            continue
        lines += ["", heading]
        for unit in members:
            placed.add(unit.pk)
            lines += ["", f"{unit.name} ({unit.points} Points)"]
            lines += [f"  • {item}" for item in _items(unit)]
    lines += ["", FOOTER]
    return "\n".join(lines) + "\n"


def _items(unit: Unit) -> list[str]:
    """A unit's bullets: datasheet, Enhancement, models, wargear, then its Crusade line."""
    items = [f"Datasheet: {unit.datasheet}"] if unit.datasheet != unit.name else []
    if unit.enhancement:
        items.append(f"Enhancements: {unit.enhancement}")
    items += [line.strip() for line in unit.models_description.splitlines() if line.strip()]
    items += [item for line in unit.wargear.splitlines() for item in split_items(line)]
    crusade = [unit.rank.label, f"{unit.xp_display} XP", f"{unit.crusade_points} Crusade points"]
    if keywords := keyword_labels(unit):
        crusade.append(", ".join(keywords))
    if honours := unit.active_honours():
        crusade.append("Honours: " + ", ".join(honour.name for honour in honours))
    if scars := unit.active_scars():
        crusade.append("Scars: " + ", ".join(scar.name for scar in scars))
    if not unit.counts_towards_supply:
        crusade.append("not counted in supply")
    items.append("Crusade: " + " · ".join(crusade))
    return items
