"""Restoring a force from a Crusade export: moving it to another campaign or server."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.dateparse import parse_datetime

from campaign import documents as doc
from campaign import rules
from campaign.models import (
    BattleHonour,
    BattleScar,
    Campaign,
    CrusadeForce,
    CustomContent,
    HistoryAction,
    HistoryEntry,
    Promotion,
    RequisitionPurchase,
    Unit,
)

from . import _common as common
from .forces import require_member

Kind = CustomContent.Kind


@dataclass
class _Card:
    """One unit of the document, checked: its values and its rows, with their links."""

    values: dict[str, Any]
    honours: list[tuple[dict, dict]] = field(default_factory=list)
    """(values, links): links hold ``promotion``, ``replaces`` and ``custom_content``."""
    scars: list[tuple[dict, str | None]] = field(default_factory=list)
    promotions: list[dict] = field(default_factory=list)


@dataclass
class Restorable:
    """A document that passed every check, ready to be written."""

    force: dict[str, Any]
    cards: list[_Card]
    requisitions: list[tuple[dict, int | None]]
    history: list[tuple[dict, int | None]]
    exported_at: str


def read_document(document: Any, *, house: rules.HouseRules) -> Restorable:
    """Check a parsed Crusade export from top to bottom; ValidationError naming the first
    thing wrong (its place in the document, and why). Writes nothing."""
    if not doc.is_document(document):
        raise ValidationError(f'This isn\'t a Crusade export (its "format" isn\'t "{doc.FORMAT}").')
    version = document.get("version")
    if version != doc.VERSION:
        raise ValidationError(
            f"This export is version {version!r}; this server reads version {doc.VERSION}."
        )
    force_data = document.get("force")
    if not isinstance(force_data, dict):
        raise ValidationError('The export has no "force" object.')
    force = doc.decode(CrusadeForce, doc.FORCE_FIELDS, force_data, "force")
    cards = [
        _card(data, f"units[{index}]")
        for index, data in enumerate(doc.check_rows(document, "units", ""))
    ]
    requisitions = [
        (
            doc.decode(RequisitionPurchase, doc.REQUISITION_FIELDS, data, where),
            doc.check_link(data.get("unit"), len(cards), f"{where}.unit"),
        )
        for index, data in enumerate(doc.check_rows(document, "requisitions", ""))
        for where in [f"requisitions[{index}]"]
    ]
    history = [
        (
            doc.decode(HistoryEntry, doc.HISTORY_FIELDS, data, where),
            doc.check_link(data.get("unit"), len(cards), f"{where}.unit"),
        )
        for index, data in enumerate(doc.check_rows(document, "history", ""))
        for where in [f"history[{index}]"]
    ]
    for values, _ in requisitions:
        requisition = rules.Requisition(values["requisition"])
        if values["cost"] > requisition.max_cost:
            raise ValidationError(
                f"A {requisition.label} costs at most {requisition.max_cost}RP, "
                f"not {values['cost']}RP."
            )
    _check_force(force, cards, house)
    exported_at = document.get("exported_at")
    exported_at = exported_at[:40] if isinstance(exported_at, str) else ""
    return Restorable(force, cards, requisitions, history, exported_at)


def _card(data: dict, where: str) -> _Card:
    values = doc.decode(Unit, doc.UNIT_FIELDS, data, where)
    where = f'{where} ("{values["name"]}")'
    card = _Card(values)
    card.promotions = [
        doc.decode(Promotion, doc.PROMOTION_FIELDS, row, f"{where}.promotions[{index}]")
        for index, row in enumerate(doc.check_rows(data, "promotions", f"{where}."))
    ]
    for index, row in enumerate(doc.check_rows(data, "honours", f"{where}.")):
        at = f"{where}.honours[{index}]"
        honour = doc.decode(BattleHonour, doc.HONOUR_FIELDS, row, at)
        if (
            honour["category"] == rules.HonourCategory.CRUSADE_RELIC
            and not honour["relic_category"]
        ):
            raise ValidationError(f"{at} is a Crusade Relic without its relic_category.")
        mods = honour["modifications"]
        if len(mods) > 2 or not all(isinstance(m, str) and 0 < len(m) <= 120 for m in mods):
            raise ValidationError(f"{at}.modifications must be at most two names.")
        links = {
            "promotion": doc.check_link(
                row.get("promotion"), len(card.promotions), f"{at}.promotion"
            ),
            "replaces": doc.check_link(row.get("replaces"), index, f"{at}.replaces"),
            "custom_content": _content_name(row, at),
        }
        card.honours.append((honour, links))
    card.scars = [
        (
            doc.decode(BattleScar, doc.SCAR_FIELDS, row, f"{where}.scars[{index}]"),
            _content_name(row, f"{where}.scars[{index}]"),
        )
        for index, row in enumerate(doc.check_rows(data, "scars", f"{where}."))
    ]
    _check_card(card, where)
    return card


def _content_name(row: dict, at: str) -> str | None:
    name = row.get("custom_content")
    if name is None:
        return None
    if not isinstance(name, str) or not 0 < len(name) <= 120:
        raise ValidationError(f"{at}.custom_content must be the name of campaign content.")
    return name


def _check_card(card: _Card, where: str) -> None:
    """What the database and the rules require of one card."""
    values = card.values
    removed = values["status"] == Unit.Status.REMOVED
    if removed != (values["removed_at"] is not None):
        raise ValidationError(f"{where}: a removed unit has a removal date, and only it.")
    if values["model_count"] < 1:
        raise ValidationError(f"{where}: a unit has at least one model.")
    if values["battles_survived"] > values["battles_played"]:
        raise ValidationError(f"{where}: it survived more battles than it played.")
    character, veteran = values["is_character"], values["legendary_veteran"]
    cap = rules.xp_cap(is_character=character, legendary_veteran=veteran)
    if cap is not None and values["xp"] > cap:
        raise ValidationError(f"{where}: {values['xp']}XP is above its cap of {cap}XP.")
    honours = sum(1 for h, _ in card.honours if h["status"] == BattleHonour.Status.ACTIVE)
    most = rules.max_battle_honours(is_character=character, legendary_veteran=veteran)
    if honours > most:
        raise ValidationError(f"{where}: {honours} Battle Honours held; at most {most}.")
    scars = sum(1 for s, _ in card.scars if s["status"] == BattleScar.Status.ACTIVE)
    if scars > rules.MAX_BATTLE_SCARS:
        raise ValidationError(
            f"{where}: {scars} Battle Scars held; at most {rules.MAX_BATTLE_SCARS}."
        )


def _check_force(force: dict, cards: list[_Card], house: rules.HouseRules) -> None:
    """What the database and the rules require of the force and its cards together."""
    if force["victories"] > force["battle_tally"]:
        raise ValidationError("force: more victories than battles.")
    if force["rp"] > house.rp_cap:
        raise ValidationError(
            f"The export holds {force['rp']}RP, but this campaign's RP cap is {house.rp_cap}RP."
        )
    active = [card.values for card in cards if card.values["status"] == Unit.Status.ACTIVE]
    names = [values["name"].strip().lower() for values in active]
    if len(set(names)) < len(names):
        raise ValidationError("Two units on the Order of Battle have the same name.")
    used = sum(values["points"] for values in active if values["counts_towards_supply"])
    refusal = rules.supply_refusal(
        supply_used=0, supply_limit=force["supply_limit"], extra_points=used
    )
    if refusal:
        raise ValidationError(f"The units on the Order of Battle don't fit: {refusal}")


@transaction.atomic
def restore_force(
    *, actor, player, campaign: Campaign | None, document: Any, name: str = ""
) -> CrusadeForce:
    """A new force for ``player`` in ``campaign``, exactly as a Crusade export holds it.

    The document is checked whole (`read_document`) before anything is written; then
    every row is written directly, in one transaction, with a history row for the force
    and one per unit saying they were restored, after the exported history (if any).
    This is the one place that writes XP, honours and scars directly: they were earned
    under the rules where the force came from, and a new card can't earn them again.
    Campaign content is linked by name when ``campaign`` has it; otherwise the honour or
    scar keeps its name and effect on its own. Open Out of Action tests and battles don't
    travel (they belong to the other players too).
    """
    house = campaign.house_rules if campaign is not None else rules.DEFAULT_HOUSE_RULES
    restorable = read_document(document, house=house)
    require_member(player, campaign)
    values = dict(restorable.force)
    if name.strip():
        values["name"] = name.strip()
    force = CrusadeForce.objects.create(
        player=player, campaign=campaign, rp_cap=house.rp_cap, **values
    )
    units = Unit.objects.bulk_create(
        [Unit(force=force, **card.values) for card in restorable.cards]
    )
    _write_rows(force, units, restorable)
    common.refresh_totals(force)
    _write_history(actor, force, units, restorable)
    return force


def _write_rows(force: CrusadeForce, units: list[Unit], restorable: Restorable) -> None:
    """Promotions, honours (then what each replaced), scars and requisitions, in bulk."""
    content = {
        (item.kind, item.name): item
        for item in CustomContent.objects.filter(campaign_id=force.campaign_id)
    }
    promotions, honours, replacing, scars = [], [], [], []
    for unit, card in zip(units, restorable.cards, strict=True):
        mine = [Promotion(unit=unit, **values) for values in card.promotions]
        made: list[BattleHonour] = []
        for values, links in card.honours:
            kind = values["category"] if values["category"] in Kind.values else None
            honour = BattleHonour(
                unit=unit,
                promotion=_at(mine, links["promotion"]),
                custom_content=content.get((kind, links["custom_content"])),
                **values,
            )
            if links["replaces"] is not None:
                replacing.append((honour, made[links["replaces"]]))
            made.append(honour)
        promotions += mine
        honours += made
        scars += [
            BattleScar(unit=unit, custom_content=content.get((Kind.BATTLE_SCAR, name)), **values)
            for values, name in card.scars
        ]
    Promotion.objects.bulk_create(promotions)
    BattleHonour.objects.bulk_create(honours)
    for honour, replaced in replacing:
        honour.replaces = replaced
    BattleHonour.objects.bulk_update([honour for honour, _ in replacing], ["replaces"])
    BattleScar.objects.bulk_create(scars)
    RequisitionPurchase.objects.bulk_create(
        RequisitionPurchase(force=force, unit=_at(units, at), **values)
        for values, at in restorable.requisitions
    )


def _at(rows: list, index: int | None):
    return None if index is None else rows[index]


def _new(**values) -> dict[str, list]:
    """History's {field: [before, after]} for values that had no before."""
    return {name: [None, value] for name, value in values.items()}


def _write_history(actor, force: CrusadeForce, units: list[Unit], restorable: Restorable) -> None:
    exported = parse_datetime(restorable.exported_at or "")
    when = f"{exported:%d %b %Y}" if exported else "an unknown date"
    rows = [
        HistoryEntry(
            force=force,
            campaign_id=force.campaign_id,
            unit=_at(units, at),
            **values,
        )
        for values, at in restorable.history
    ]
    rows.append(
        common.history_row(
            actor,
            HistoryAction.FORCE_RESTORED,
            f"{force.name} restored from a Crusade export of {when} "
            f"({len(units)} units, {force.supply_used} points)",
            force=force,
            changed=_new(supply_limit=force.supply_limit, rp=force.rp),
        )
    )
    rows += [
        common.history_row(
            actor,
            HistoryAction.UNIT_RESTORED,
            f"{unit.name} restored from a Crusade export with its XP, honours and scars",
            unit=unit,
            force=force,
            changed=_new(
                xp=unit.xp, battle_honours=len(card.honours), battle_scars=len(card.scars)
            ),
        )
        for unit, card in zip(units, restorable.cards, strict=True)
    ]
    common.write_history(rows)
