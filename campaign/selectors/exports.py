"""Taking a force out: its whole Crusade state as a JSON document, or as text for a chat.

The JSON layout is `campaign.documents`; `services.restore_force` reads it back. The
text follows the official app's export, so the importer (and other apps) read it too.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Prefetch
from django.utils import timezone

from campaign import documents as doc
from campaign import rules
from campaign.models import (
    BattleHonour,
    BattleParticipant,
    BattleScar,
    CrusadeForce,
    HistoryEntry,
    Promotion,
    Unit,
)
from campaign.rosters._text import split_items
from campaign.rosters.app_text import SECTIONS
from campaign.services.pack_state import export_counters, export_upgrades

from .counters import force_counters, pack_state_prefetches
from .labels import keyword_labels

FOOTER = "Exported with Crusade Tracker"
"""The app's own last line says which app wrote it; importers skip it."""


def force_document(force: CrusadeForce, *, history: bool = False) -> dict[str, Any]:
    """The force's complete Crusade state (and, with ``history``, its history), in a
    fixed number of queries however many units it has. Signed by this server
    (`documents.sign`), so that a restore can tell it was not changed."""
    force = CrusadeForce.objects.select_related("player", "campaign", "provenance", "alliance").get(
        pk=force.pk
    )
    units = list(
        force.units.order_by("created_at", "pk").prefetch_related(
            Prefetch("honours", BattleHonour.objects.select_related("custom_content")),
            Prefetch("scars", BattleScar.objects.select_related("custom_content")),
            Prefetch("promotions", Promotion.objects.order_by("created_at", "pk")),
            *pack_state_prefetches(),
        )
    )
    where = {unit.pk: index for index, unit in enumerate(units)}
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
        "units": [_unit(unit) for unit in units],
        "requisitions": [
            doc.encode(purchase, doc.REQUISITION_FIELDS, unit=where.get(purchase.unit_id))
            for purchase in force.requisitions.order_by("created_at", "pk")
        ],
        "counters": export_counters(force_counters(force)),
    }
    if (provenance := force.restored_from) is not None:
        document["restored_from"] = _provenance(provenance)
    if history:
        document["history"] = _history(force, where)
    return doc.sign(document, plain=True)


def _history(force: CrusadeForce, where: dict[int, int]) -> list[dict[str, Any]]:
    """The force's history rows as plain values, in one query and without a model
    instance per row (a veteran force has thousands)."""
    fields = doc.HISTORY_FIELDS
    username = f"actor__{get_user_model().USERNAME_FIELD}"
    rows = force.history.order_by("created_at", "pk").values_list(*fields, "unit_id", username)
    names = (*fields, "unit", "by")
    unit = len(fields)
    # Only the dates need turning into JSON (a veteran force has thousands of rows, each
    # value of which went through `plain_value`).
    dates = [i for i, name in enumerate(fields) if name in _HISTORY_DATES]
    entries = []
    for row in rows:
        values = list(row)
        for i in dates:
            if values[i] is not None:
                values[i] = values[i].isoformat()
        values[unit] = where.get(values[unit])
        entries.append(dict(zip(names, values, strict=True)))
    return entries


_HISTORY_DATES = frozenset(
    field.name
    for field in HistoryEntry._meta.concrete_fields
    if isinstance(field, models.DateField)  # and so DateTimeField
)


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


def _named(row) -> str | None:
    return row.custom_content.name if row.custom_content_id else None


def _unit(unit: Unit) -> dict[str, Any]:
    promotions = list(unit.promotions.all())
    honours = list(unit.honours.all())
    promotion_at = {promotion.pk: index for index, promotion in enumerate(promotions)}
    honour_at = {honour.pk: index for index, honour in enumerate(honours)}
    return doc.encode(
        unit,
        doc.UNIT_FIELDS,
        honours=[
            doc.encode(
                honour,
                doc.HONOUR_FIELDS,
                promotion=promotion_at.get(honour.promotion_id),
                replaces=honour_at.get(honour.replaces_id),
                custom_content=_named(honour),
            )
            for honour in honours
        ],
        scars=[
            doc.encode(scar, doc.SCAR_FIELDS, custom_content=_named(scar))
            for scar in unit.scars.all()
        ],
        promotions=[doc.encode(promotion, doc.PROMOTION_FIELDS) for promotion in promotions],
        counters=export_counters(unit.counters.all()),
        upgrades=export_upgrades(unit.upgrades.all()),
    )


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
