"""Content packs read back: a stored pack as its file, and what a campaign's packs bring."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from campaign import maps, packs
from campaign.models import ANY_UNIT_TABLE, SECTION_KINDS, Campaign, ContentPack, CustomContent

Kind = CustomContent.Kind


def _pack_of(pack: ContentPack, items: list[CustomContent]) -> packs.Pack:
    by_kind: dict[str, list[CustomContent]] = {}
    for item in items:
        item.pack = pack
        by_kind.setdefault(item.kind, []).append(item)
    tables = list(pack.trait_tables)
    traits = by_kind.get(Kind.BATTLE_TRAIT, [])
    if any(t.trait_table == "" for t in traits):
        tables.append(ANY_UNIT_TABLE)
    battle_traits = (
        packs.model.TraitTable(
            id=table["id"],
            name=table["name"],
            entries=tuple(
                t.as_pack_item()
                for t in traits
                if (t.trait_table or ANY_UNIT_TABLE["id"]) == table["id"]
            ),
        )
        for table in tables
    )
    return packs.model.Pack(
        format=packs.FORMAT,
        version=packs.VERSION,
        pack=packs.model.Header(
            slug=pack.slug, name=pack.name, description=pack.description, source=pack.source
        ),
        agendas_per_battle=pack.agendas_per_battle,
        underdog_thresholds=tuple(pack.thresholds()),
        battle_traits=tuple(t for t in battle_traits if t.entries),
        map=maps.check_section(pack.map) if pack.map is not None else None,
        **{
            section: tuple(item.as_pack_item() for item in by_kind.get(kind, []))
            for section, kind in SECTION_KINDS.items()
        },
    )


def stored_pack(pack: ContentPack) -> packs.Pack:
    """A stored pack as the format's dataclasses, from its rows (retired items left out)."""
    return _pack_of(pack, list(pack.items.available().order_by("kind", "position", "pk")))


def export_pack(pack: ContentPack) -> str:
    """The pack file of a stored pack: what `services.import_pack` reads back to the same
    pack. A ValidationError if the organiser's edits made it something a file can't hold."""
    pack_file = stored_pack(pack)
    try:
        packs.check(packs.pack_data(pack_file))
    except packs.PackError as error:
        raise ValidationError(
            f"{pack.name} can't be written as a pack file yet: " + "; ".join(error.problems)
        ) from None
    return packs.pack_text(pack_file)


@dataclass(frozen=True)
class CampaignPack:
    """One pack a campaign uses, as its content page lists it."""

    pack: packs.Pack
    core: bool
    stored: ContentPack | None


def campaign_packs(campaign: Campaign) -> list[CampaignPack]:
    """The core rules, then every pack the campaign has enabled, each with its content:
    three queries whatever the number of packs and items."""
    stored = list(ContentPack.objects.filter(enabled_in__campaign=campaign).order_by("name", "pk"))
    items: dict[int, list[CustomContent]] = {pack.pk: [] for pack in stored}
    for item in (
        CustomContent.objects.available()
        .filter(pack__in=stored)
        .order_by("pack", "kind", "position", "pk")
    ):
        items[item.pack_id].append(item)
    core = packs.check(packs.core_pack_data())
    return [
        CampaignPack(pack=core, core=True, stored=None),
        *(CampaignPack(pack=_pack_of(p, items[p.pk]), core=False, stored=p) for p in stored),
    ]
