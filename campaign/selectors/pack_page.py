"""The campaign's content page: what the core rules and each enabled pack bring, in words
a player reads before a battle (`campaign_packs` gives the packs, in three queries)."""

from __future__ import annotations

from dataclasses import dataclass

from campaign import packs, rules
from campaign.models import Campaign

from .packs import CampaignPack, campaign_packs

TIMINGS = {
    "any": "at any time outside a battle",
    "before_battle": "before a battle",
    "after_battle": "after a battle",
}
TARGETS = {"force": "the force", "unit": "one unit"}
PER = {"force": "per force", "unit": "per unit"}
CATEGORIES = {category.value: category.label for category in rules.RelicCategory}


@dataclass(frozen=True)
class RequisitionLine:
    item: packs.model.Requisition
    cost: str
    timing: str
    target: str
    result: str


@dataclass(frozen=True)
class PackSection:
    """One pack as the page shows it."""

    pack: packs.Pack
    core: bool
    requisitions: list[RequisitionLine]
    relics: list[tuple[packs.model.Relic, str]]

    @property
    def anchor(self) -> str:
        return f"pack-{self.pack.pack.slug}"

    @property
    def is_empty(self) -> bool:
        p = self.pack
        sections = (p.agendas, p.blessings, p.requisitions, p.upgrades, p.battle_traits)
        return not any((*sections, p.crusade_relics, p.battle_scars, p.counters, p.alliances))


def _requisition(pack: packs.Pack, item: packs.model.Requisition) -> RequisitionLine:
    counters = {c.id: c.name for c in pack.counters}
    upgrades = {u.id: u.name for u in pack.upgrades}
    cost_in = "RP" if item.cost_in == "rp" else counters.get(item.cost_in, item.cost_in)
    if item.effect_kind == "counter":
        name = counters.get(item.counter or "", item.counter)
        result = f"{name} {item.change:+d}" if item.change is not None else str(name)
    elif item.effect_kind == "upgrade":
        result = f"gives the upgrade {upgrades.get(item.upgrade or '', item.upgrade)}"
    else:
        result = ""
    return RequisitionLine(
        item=item,
        cost=f"{item.cost} {cost_in}",
        timing=TIMINGS.get(item.timing, item.timing),
        target=TARGETS.get(item.target, item.target),
        result=result,
    )


def _section(entry: CampaignPack) -> PackSection:
    pack = entry.pack
    return PackSection(
        pack=pack,
        core=entry.core,
        requisitions=[_requisition(pack, r) for r in pack.requisitions],
        relics=[(r, CATEGORIES.get(r.category, r.category)) for r in pack.crusade_relics],
    )


def campaign_pack_page(campaign: Campaign) -> list[PackSection]:
    """The core rules first, then each enabled pack: the same three queries however many
    packs and items there are."""
    return [_section(entry) for entry in campaign_packs(campaign)]
