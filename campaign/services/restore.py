"""Restoring a force from a Crusade export: moving it to another campaign or server."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign import rules
from campaign.models import (
    Alliance,
    BattleHonour,
    BattleScar,
    Campaign,
    CrusadeForce,
    CustomContent,
    HistoryAction,
    HistoryEntry,
    Promotion,
    Provenance,
    RequisitionPurchase,
    Unit,
)

from . import _common as common
from .bulk import update_rows
from .forces import require_member
from .pack_state import resolve_pack_state, write_pack_state
from .restore_document import Restorable, read_document, row_at

Kind = CustomContent.Kind


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

    Its `Provenance` says where it came from. Only a verified export of one of the
    player's own forces plays at once; any other file (edited, from another server,
    unsigned, or another player's force) waits for an organiser's approval
    (`services.approve_restored_force`). The exported history comes as rows marked
    imported, by the restoring player, with the original row kept as their data.
    """
    house = campaign.house_rules if campaign is not None else rules.DEFAULT_HOUSE_RULES
    restorable = read_document(document, house=house)
    require_member(player, campaign)
    packs = resolve_pack_state(restorable.packs, campaign.pk if campaign else None)
    original_name = restorable.exported_from["force"] or restorable.force["name"]
    values = dict(restorable.force)
    if name.strip():
        values["name"] = name.strip()
    force = CrusadeForce.objects.create(
        player=player,
        campaign=campaign,
        rp_cap=house.rp_cap,
        alliance=_alliance(campaign, restorable.alliance),
        **values,
    )
    units = Unit.objects.bulk_create(
        [Unit(force=force, **card.values) for card in restorable.cards]
    )
    _write_rows(force, units, restorable)
    write_pack_state(force, units, packs)
    common.refresh_totals(force)
    own = restorable.own_force_of(player)
    force.provenance = Provenance.objects.create(
        force=force,
        original_name=original_name,
        original_owner=restorable.exported_from["player"],
        original_campaign=restorable.exported_from["campaign"],
        exported_at=restorable.exported_when,
        verified=restorable.verified,
        own_force=own,
        restored_by=common.real_user(actor),
        approval=Provenance.Approval.NOT_NEEDED if own else Provenance.Approval.AWAITING,
    )
    _write_history(actor, force, units, restorable)
    return force


def _alliance(campaign: Campaign | None, name: str) -> Alliance | None:
    """The campaign's alliance (not retired) of exactly that name, if it has one."""
    if campaign is None or not name:
        return None
    return Alliance.objects.filter(campaign=campaign, name=name, retired=False).first()


def _write_rows(force: CrusadeForce, units: list[Unit], restorable: Restorable) -> None:
    """Promotions, honours (then what each replaced), scars and requisitions, in bulk."""
    content = {
        (item.kind, item.name): item for item in CustomContent.objects.enabled_in(force.campaign_id)
    }
    promotions, honours, replacing, scars = [], [], [], []
    for unit, card in zip(units, restorable.cards, strict=True):
        mine = [Promotion(unit=unit, **values) for values in card.promotions]
        made: list[BattleHonour] = []
        for values, links in card.honours:
            kind = values["category"] if values["category"] in Kind.values else None
            honour = BattleHonour(
                unit=unit,
                promotion=row_at(mine, links["promotion"]),
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
    update_rows([honour for honour, _ in replacing], ["replaces"])
    BattleScar.objects.bulk_create(scars)
    RequisitionPurchase.objects.bulk_create(
        RequisitionPurchase(force=force, unit=row_at(units, at), **values)
        for values, at in restorable.requisitions
    )


def _imported(actor, force, unit, values: dict, by: str, now) -> HistoryEntry:
    """A history row of the export, copied as data: the restoring player is its actor and
    now its date; the file's own date, author and text are kept in ``imported_from``."""
    original = {
        "created_at": values["created_at"].isoformat(),
        "by": by,
        "action": values["action"],
        "summary": values["summary"],
        "reason": values["reason"],
    }
    if values["imported_from"]:
        original["imported_from"] = values["imported_from"]
    row = common.history_row(
        actor,
        values["action"],
        f"Imported: {values['summary']}",
        force=force,
        unit=unit,
        changed=values["changes"],
        reason=values["reason"],
    )
    row.created_at, row.imported_from = now, original
    return row


def _new(**values) -> dict[str, list]:
    """History's {field: [before, after]} for values that had no before."""
    return {name: [None, value] for name, value in values.items()}


def _write_history(actor, force: CrusadeForce, units: list[Unit], restorable: Restorable) -> None:
    exported = restorable.exported_when
    when = f"{exported:%d %b %Y}" if exported else "an unknown date"
    now = timezone.now()
    rows = [
        _imported(actor, force, row_at(units, at), values, by, now)
        for values, at, by in restorable.history
    ]
    provenance = force.provenance
    checked = "a verified export" if provenance.verified else "an unverified file"
    waits = "; awaiting the organiser's approval" if provenance.blocks_play else ""
    rows.append(
        common.history_row(
            actor,
            HistoryAction.FORCE_RESTORED,
            f"{force.name} restored from {checked} of {when}: {provenance.original_name}"
            f"{' of ' + provenance.original_owner if provenance.original_owner else ''} "
            f"({len(units)} units, {force.supply_used} points){waits}",
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
