"""Services for content packs: importing a pack file, enabling a pack in a campaign, and the
organiser's own house content added one item at a time.

A pack is imported whole or not at all: the file is read and checked by
`campaign.packs` before anything is written, and its rows are written in one
transaction. Items are never deleted once cards may hold them: they are retired.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from campaign import maps, packs
from campaign.models import (
    ANY_UNIT_TABLE,
    CORE_TRAIT_TABLES,
    HOUSE_SLUG,
    ITEM_SPECS,
    RELIC_NEEDS_CATEGORY,
    SECTION_KINDS,
    Campaign,
    ContentPack,
    CustomContent,
    EnabledPack,
    HistoryAction,
)

from . import _common as common
from .alliances import alliances_from_pack

Kind = CustomContent.Kind
CUSTOM_FIELDS = ("name", "effect", "relic_category", "trait_table")
OWN_FIELDS = {"id", "name", "effect", "category"}
"""An item's fields that are columns of its row; the rest go in ``details``."""


def _lock_campaign(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _row(pack: ContentPack, kind: str, item: Any, position: int, table: str = "") -> CustomContent:
    details = {
        f.name: getattr(item, f.name)
        for f in ITEM_SPECS[kind].fields
        if f.name not in OWN_FIELDS and getattr(item, f.name) is not None
    }
    return CustomContent(
        pack=pack,
        kind=kind,
        key=item.id,
        position=position,
        name=item.name,
        effect=getattr(item, "effect", ""),
        relic_category=getattr(item, "category", ""),
        trait_table=table,
        details=details,
    )


def _rows(stored: ContentPack, pack: packs.Pack) -> list[CustomContent]:
    rows = []
    for section, kind in SECTION_KINDS.items():
        rows += [_row(stored, kind, item, i) for i, item in enumerate(getattr(pack, section))]
    position = 0
    for table in pack.battle_traits:
        # The traits that suit any unit are written under one table; they name none here.
        table_id = "" if table.id == ANY_UNIT_TABLE["id"] else table.id
        for entry in table.entries:
            rows.append(_row(stored, Kind.BATTLE_TRAIT, entry, position, table_id))
            position += 1
    return rows


def read_pack_file(data: bytes) -> packs.Pack:
    """The checked pack, or a ValidationError listing each problem with its place."""
    try:
        return packs.load_pack(data)
    except packs.PackError as error:
        common.refuse("\n".join(error.problems), field="file")
        raise  # not reached: refuse raises


@transaction.atomic
def import_pack(*, actor, data: bytes, campaign: Campaign | None = None) -> ContentPack:
    """Store a pack file as a pack of ``campaign`` (enabled in it at once), or, without a
    campaign, in the library for any campaign to enable. All of it, or nothing."""
    pack = read_pack_file(data)
    slug = pack.pack.slug
    if slug == packs.CORE_SLUG:
        common.refuse("The core rules are built in: they can't be imported.", field="file")
    if campaign is not None:
        campaign = _lock_campaign(campaign)
    taken = ContentPack.objects.filter(slug=slug, campaign=campaign)
    if taken.exists():
        where = f"{campaign.name}" if campaign else "the library"
        common.refuse(
            f'{where} already has a pack with the slug "{slug}". Give this one another '
            "slug, or retire what the old one holds.",
            field="file",
        )
    stored = ContentPack(
        slug=slug,
        name=pack.pack.name,
        description=pack.pack.description,
        source=pack.pack.source,
        campaign=campaign,
        agendas_per_battle=pack.agendas_per_battle,
        underdog_thresholds=[
            {"gap_at_least": t.gap_at_least, "blessings": t.blessings}
            for t in pack.underdog_thresholds
        ],
        trait_tables=[
            {"id": t.id, "name": t.name} for t in pack.battle_traits if t.id != ANY_UNIT_TABLE["id"]
        ],
        map=maps.section_data(pack.map) if pack.map is not None else None,
        imported_by=common.real_user(actor),
    )
    try:
        with transaction.atomic():
            stored.save()
    except IntegrityError:
        common.refuse(f'A pack with the slug "{slug}" was imported meanwhile.', field="file")
    rows = _rows(stored, pack)
    CustomContent.objects.bulk_create(rows)
    counts = {kind: 0 for kind in Kind.values}
    for row in rows:
        counts[row.kind] += 1
    common.record(
        actor,
        HistoryAction.PACK_IMPORTED,
        f"Content pack {stored.name} imported"
        + (f" into {campaign.name}" if campaign else " into the library"),
        campaign=campaign,
        changed={"pack": [None, slug], **{k: [0, n] for k, n in counts.items() if n}},
    )
    if campaign is not None:
        _enable(actor, campaign, stored)
    return stored


def _enable(actor, campaign: Campaign, pack: ContentPack) -> EnabledPack:
    enabled = EnabledPack.objects.create(
        campaign=campaign, pack=pack, enabled_by=common.real_user(actor)
    )
    common.record(
        actor,
        HistoryAction.PACK_ENABLED,
        f"{pack.name} enabled in {campaign.name}",
        campaign=campaign,
        changed={"pack": [None, pack.slug]},
    )
    alliances_from_pack(actor, campaign, pack)
    return enabled


@transaction.atomic
def enable_pack(*, actor, campaign: Campaign, pack: ContentPack) -> EnabledPack:
    """Let the campaign's players use what ``pack`` brings (a library pack, or one of the
    campaign's own)."""
    campaign = _lock_campaign(campaign)
    if pack.campaign_id not in (None, campaign.pk):
        common.refuse(f"{pack.name} belongs to another campaign.", field="pack")
    if EnabledPack.objects.filter(campaign=campaign, pack=pack).exists():
        common.refuse(f"{pack.name} is already enabled in {campaign.name}.", field="pack")
    return _enable(actor, campaign, pack)


@transaction.atomic
def disable_pack(*, actor, campaign: Campaign, pack: ContentPack, reason: str = "") -> None:
    """Stop offering what ``pack`` brings in the campaign; cards keep what they were given."""
    campaign = _lock_campaign(campaign)
    deleted, _ = EnabledPack.objects.filter(campaign=campaign, pack=pack).delete()
    if not deleted:
        common.refuse(f"{pack.name} is not enabled in {campaign.name}.", field="pack")
    common.record(
        actor,
        HistoryAction.PACK_DISABLED,
        f"{pack.name} turned off in {campaign.name}",
        campaign=campaign,
        reason=reason.strip(),
        changed={"pack": [pack.slug, None]},
    )


def _house_pack(actor, campaign: Campaign) -> ContentPack:
    """The campaign's house rules pack, made (and enabled) the first time it is needed."""
    pack = ContentPack.objects.filter(campaign=campaign, slug=HOUSE_SLUG).first()
    if pack is None:
        pack = ContentPack.objects.create(
            slug=HOUSE_SLUG,
            name=f"{campaign.name}: house rules"[: packs.spec.NAME_MAX],
            description="The campaign's own content, added by its organisers.",
            source="house rules",
            campaign=campaign,
            imported_by=common.real_user(actor),
        )
    if not EnabledPack.objects.filter(campaign=campaign, pack=pack).exists():
        _enable(actor, campaign, pack)
    return pack


def _unique_key(content: CustomContent) -> str:
    taken = set(
        CustomContent.objects.filter(
            pack_id=content.pack_id, kind=content.kind, trait_table=content.trait_table
        )
        .exclude(pk=content.pk)
        .values_list("key", flat=True)
    )
    base = packs.core.slug(content.name)[:36] or "item"
    key, n = base, 1
    while key in taken:
        n += 1
        key = f"{base}-{n}"
    return key


CORE_TABLE_LABELS = {str(table): key for key, table in CORE_TRAIT_TABLES.items()}


def _check_custom(content: CustomContent) -> None:
    content.name = content.name.strip()
    content.trait_table = CORE_TABLE_LABELS.get(content.trait_table, content.trait_table)
    if not content.name:
        common.refuse("Give it a name.", field="name")
    if len(content.name) > packs.spec.NAME_MAX:
        common.refuse(
            f"Keep the name to {packs.spec.NAME_MAX} characters (it has {len(content.name)}).",
            field="name",
        )
    relic = content.kind == Kind.CRUSADE_RELIC
    if relic and not content.relic_category:
        common.refuse(RELIC_NEEDS_CATEGORY, field="relic_category")
    if not relic and content.relic_category:
        common.refuse("Only Crusade Relics have a relic category.", field="relic_category")
    if content.trait_table and content.kind != Kind.BATTLE_TRAIT:
        common.refuse("Only Battle Traits belong to a traits table.", field="trait_table")
    tables = {t["id"] for t in content.pack.trait_tables} | set(CORE_TRAIT_TABLES)
    if content.trait_table and content.trait_table not in tables:
        names = ", ".join(sorted(tables))
        common.refuse(f"Pick one of the traits tables: {names}.", field="trait_table")
    taken = CustomContent.objects.filter(
        pack_id=content.pack_id, kind=content.kind, name__iexact=content.name
    ).exclude(pk=content.pk)
    if taken.exists():
        what = content.get_kind_display()
        common.refuse(f"The pack already has a {what} called that.", field="name")


def _note_table(content: CustomContent) -> None:
    """A house trait in a core table the pack doesn't list yet adds that table to it."""
    pack = content.pack
    core = content.core_trait_table
    if core is not None and content.trait_table not in {t["id"] for t in pack.trait_tables}:
        pack.trait_tables = [*pack.trait_tables, {"id": content.trait_table, "name": str(core)}]
        pack.save(update_fields=["trait_tables"])


@transaction.atomic
def add_custom_content(
    *, actor, campaign: Campaign, kind: str, name: str, **details: str
) -> CustomContent:
    """A campaign's own Battle Trait, Battle Scar or Crusade Relic, in its house rules pack
    (``details``: its effect, relic category or traits table id)."""
    common.only(details, CUSTOM_FIELDS)
    if kind not in CustomContent.HONOUR_KINDS:
        common.refuse("Add Battle Traits, Battle Scars and Crusade Relics here.", field="kind")
    campaign = _lock_campaign(campaign)
    pack = _house_pack(actor, campaign)
    content = CustomContent(pack=pack, kind=kind, name=name, **details)
    _check_custom(content)
    content.key = _unique_key(content)
    last = pack.items.filter(kind=kind).aggregate(last=Max("position"))["last"]
    content.position = 0 if last is None else last + 1
    content.save()
    _note_table(content)
    common.record(
        actor,
        HistoryAction.CUSTOM_CONTENT_ADDED,
        f"{content.get_kind_display()} {content.name} added to {campaign.name}",
        campaign=campaign,
        changed={k: [None, v] for k, v in common.snapshot(content, CUSTOM_FIELDS).items() if v},
    )
    return content


def _locked_item(content: CustomContent) -> tuple[CustomContent, Campaign | None]:
    campaign_id = ContentPack.objects.values_list("campaign_id", flat=True).get(pk=content.pack_id)
    campaign = _lock_campaign(Campaign(pk=campaign_id)) if campaign_id else None
    return CustomContent.objects.select_related("pack").get(pk=content.pk), campaign


def _where(content: CustomContent, campaign: Campaign | None) -> str:
    return campaign.name if campaign else content.pack.name


@transaction.atomic
def update_custom_content(*, actor, content: CustomContent, **values: str) -> CustomContent:
    """Edit one item of a pack (fill in an effect, say). Cards that hold it keep the name
    and effect they were given."""
    common.only(values, CUSTOM_FIELDS, "editable here")
    content, campaign = _locked_item(content)
    diff = common.apply_changes(content, CUSTOM_FIELDS, values)
    _check_custom(content)
    if "name" in diff:
        content.key = _unique_key(content)
    _note_table(content)
    summary = f"{content.get_kind_display()} {content.name} changed in {_where(content, campaign)}"
    common.save_changes(
        content, diff, actor, HistoryAction.CUSTOM_CONTENT_CHANGED, summary, campaign=campaign
    )
    if diff and campaign is None:
        _tell_campaigns(actor, content, HistoryAction.CUSTOM_CONTENT_CHANGED, summary)
    return content


def _tell_campaigns(actor, content: CustomContent, action: str, summary: str) -> None:
    """A library pack's item changed: a row in each campaign that enables the pack, so its
    history says so and what its pages show of the pack moves on (`selectors.versions`)."""
    using = Campaign.objects.filter(enabled_packs__pack_id=content.pack_id).order_by("pk")
    common.write_history([common.history_row(actor, action, summary, campaign=c) for c in using])


@transaction.atomic
def retire_custom_content(*, actor, content: CustomContent, reason: str = "") -> CustomContent:
    """Stop offering one item of a pack. It is never deleted: cards keep theirs."""
    content, campaign = _locked_item(content)
    if content.is_retired:
        common.refuse(f"{content.name} has already been retired.")
    content.retired_at = timezone.now()
    content.save(update_fields=["retired_at"])
    summary = (
        f"{content.get_kind_display()} {content.name} retired from {_where(content, campaign)}"
    )
    common.record(
        actor,
        HistoryAction.CUSTOM_CONTENT_RETIRED,
        summary,
        campaign=campaign,
        reason=reason.strip(),
    )
    if campaign is None:
        _tell_campaigns(actor, content, HistoryAction.CUSTOM_CONTENT_RETIRED, summary)
    return content


__all__ = [
    "add_custom_content",
    "disable_pack",
    "enable_pack",
    "import_pack",
    "read_pack_file",
    "retire_custom_content",
    "update_custom_content",
]
