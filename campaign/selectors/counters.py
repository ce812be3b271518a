"""What the force page and the cards show of the campaign's packs: counters, pack
Requisitions, upgrades and the pack Requisitions bought."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef

from campaign.models import (
    CrusadeForce,
    CustomContent,
    PackRequisitionPurchase,
    Unit,
    UnitUpgrade,
)
from campaign.prepared import Prepared, give_related
from campaign.services import counters as packs

from .versions import kept

SECTION_KINDS = (CustomContent.Kind.COUNTER, CustomContent.Kind.REQUISITION)


def has_pack_content():
    """Whether the force's campaign has pack counters or Requisitions, as an annotation of
    the force's own query: a force page without any asks nothing more."""
    items = (
        CustomContent.objects.available()
        .filter(pack__enabled_in__campaign_id=OuterRef("campaign_id"))
        .filter(kind__in=SECTION_KINDS)
    )
    return Exists(items)


@dataclass(frozen=True)
class PackSection:
    counters: list[packs.CounterRow]
    requisitions: list[packs.PackRequisitionOption]
    upgrades: list[UnitUpgrade] = field(default_factory=list)
    purchases: list[PackRequisitionPurchase] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.counters or self.requisitions or self.upgrades or self.purchases)


def force_pack_section(force: CrusadeForce, *, in_battle: bool) -> PackSection | None:
    """The force's counters and the packs' Requisitions for the whole force, in one query
    (none when the force's query says its campaign has no such content).

    Kept in the cache under the force's and its campaign's revisions (`selectors.versions`:
    every change to what it shows, a counter, RP, a purchase, a pack enabled, turned off or
    edited, moves one of them on) and whether the force is in a battle: looking again costs
    no query."""
    if not getattr(force, "has_pack_content", True) or force.campaign_id is None:
        return None
    key = f"force-packs:{force.pk}:{force.revision}:{force.campaign.revision}:{int(in_battle)}"

    def build() -> PackSection:
        content = packs.pack_content(force.campaign_id, force_id=force.pk)
        return PackSection(
            counters=packs.counter_rows(content, per_unit=False),
            requisitions=packs.pack_requisition_options(content, force=force, in_battle=in_battle),
        )

    return kept(key, build)


def card_pack_section(
    unit: Unit, *, in_battle: bool | None = None, read: dict[str, list] | None = None
) -> PackSection | None:
    """The unit's counters, upgrades and pack Requisitions bought, and the packs'
    Requisitions for one unit: the same number of queries for any card (``in_battle``,
    when the page has asked it already, is not asked again; ``read``, what the page
    fetched of `card_pack_reads` with its other reads, is not read again).

    In a campaign, kept in the cache as `force_pack_section` is, under the force's and
    its campaign's revisions and whether the force is in a battle (an upgrade or a pack
    Requisition is bought or lost only through a service that writes a history row
    naming the force): looking again costs no query."""
    force = unit.force
    read = read or {}
    if force.campaign_id is None or in_battle is None:
        return _card_pack_section(unit, in_battle=in_battle, read=read)
    key = (
        f"card-pack-section:{unit.pk}:{force.pk}:{force.revision}:"
        f"{force.campaign.revision}:{int(in_battle)}"
    )
    section = kept(key, lambda: _card_pack_section(unit, in_battle=in_battle, read=read) or False)
    return section or None


_PACK_PURCHASES = Prepared(
    lambda unit: PackRequisitionPurchase.objects.filter(unit_id=unit), unit=int
)
"""A card's pack Requisitions, compiled once (`campaign.prepared`)."""


def card_pack_reads(unit: Unit) -> dict[str, tuple[Prepared, dict[str, int]]]:
    """What building `card_pack_section` reads, for a page that reads them with others
    (`prepared.fetch_together`): the card's pack Requisitions and, in a campaign, what it
    and its force hold of the counters."""
    reads = {"pack_purchases": (_PACK_PURCHASES, {"unit": unit.pk})}
    if unit.force.campaign_id is not None:
        reads["held"] = packs.held_read(unit.force_id, unit.pk)
    return reads


def _card_pack_section(
    unit: Unit, *, in_battle: bool | None, read: dict[str, list]
) -> PackSection | None:
    upgrades = unit.active_upgrades()
    purchases = read.get("pack_purchases")
    if purchases is None:
        purchases = _PACK_PURCHASES.fetch(unit=unit.pk)
    give_related([unit], "pack_requisitions", purchases)
    force = unit.force
    if force.campaign_id is None:
        return PackSection([], [], upgrades, purchases) or None
    content = _card_pack_content(unit, held=read.get("held"))
    wanted = any(item.details.get("target") == "unit" for item in content.of("requisition"))
    options = (
        packs.pack_requisition_options(
            content,
            force=force,
            unit=unit,
            in_battle=force.in_battle() if in_battle is None else in_battle,
        )
        if wanted
        else []
    )
    section = PackSection(packs.counter_rows(content, per_unit=True), options, upgrades, purchases)
    return section or None


def _card_pack_content(unit: Unit, *, held: list | None = None) -> packs.PackContent:
    """The packs' items with what the unit and its force hold of them.

    The items are kept in the cache under the campaign's revision (a pack enabled, turned
    off or edited moves it on). What the card and its force hold is ``held``, when the page
    read it with its other reads; else it is read and the whole is kept, as
    `force_pack_section` is, under the force's and its campaign's revisions (a counter
    changes only through a service that writes a history row naming the force). Keeping
    it when it was just read would cost more than reading it (one pickling)."""
    force = unit.force
    campaign = force.campaign

    def content() -> packs.PackContent:
        return packs.held_content(
            _pack_items(campaign), force_id=force.pk, unit_id=unit.pk, held=held
        )

    if held is not None:
        return content()
    return kept(f"card-packs:{unit.pk}:{force.pk}:{force.revision}:{campaign.revision}", content)


def _pack_items(campaign) -> list:
    """The campaign's pack items, kept under its revision."""
    return kept(
        f"pack-items:{campaign.pk}:{campaign.revision}", lambda: packs.pack_items(campaign.pk)
    )


def force_counters(force: CrusadeForce):
    """The force's own counters (not its units'), with their pack items, for its export."""
    rows = force.counters.filter(unit=None).select_related("counter__pack")
    return rows.order_by("pk")
