"""Content packs: imported books, supplements and house rules, and what they hold.

The core pack is the rules' own tables (``campaign.packs.core``) and is never stored. A
stored pack's items are ``CustomContent`` rows, one per Agenda, Blessing, Requisition,
upgrade, Battle Trait, Crusade Relic, Battle Scar, counter or alliance, in the pack's order; the
numbers each kind carries (an Agenda's XP, a counter's bounds, ...) are in ``details``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from campaign import packs, rules
from campaign.bounds import BoundedPositiveSmallIntegerField, between

from ._common import EFFECT_LENGTH, rules_choices
from .campaigns import Campaign

RELIC_NEEDS_CATEGORY = "A Crusade Relic needs its category (Artificer, Antiquity or Legendary)."
CORE_TRAIT_TABLES = {packs.core.slug(table.value): table for table in rules.TraitTable}
"""The core Battle Traits tables by their id in a pack ("infantry" -> INFANTRY)."""
ANY_UNIT_TABLE = {"id": "any-unit", "name": "Any unit"}
"""Where an exported pack lists the traits that name no table: they suit any unit."""
HOUSE_SLUG = "house-rules"
"""The slug of a campaign's own house pack, where the organiser adds content one item at
a time in the admin."""


class ContentPack(models.Model):
    """One book or supplement, or a group's house rules, imported from a pack file.

    A pack of a campaign (``campaign`` set) is that campaign's alone; a pack without one is
    in the library, for any campaign to enable. A campaign uses a pack once it is enabled
    (an ``EnabledPack`` row); the core rules are always on.
    """

    slug = models.SlugField(max_length=40)
    name = models.CharField(max_length=packs.spec.NAME_MAX)
    description = models.TextField(blank=True, max_length=packs.spec.EFFECT_MAX)
    source = models.CharField(max_length=packs.spec.NAME_MAX)
    campaign = models.ForeignKey(
        Campaign,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="own_packs",
        help_text="The campaign this pack belongs to; empty for a pack any campaign may enable.",
    )
    agendas_per_battle = BoundedPositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=between(1, 10),
        help_text="How many Agendas a player picks for a battle.",
    )
    underdog_thresholds = models.JSONField(
        default=list,
        blank=True,
        help_text='As in the file: [{"gap_at_least": 5, "blessings": 1}, ...], gaps going up.',
    )
    trait_tables = models.JSONField(
        default=list,
        blank=True,
        help_text='The Battle Traits tables, in order: [{"id": ..., "name": ...}, ...].',
    )
    map = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="The campaign map the pack carries (its map section), for an organiser to "
        "apply to a campaign with no territories yet.",
    )
    imported_at = models.DateTimeField(default=timezone.now)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = "content pack"
        constraints = [
            models.UniqueConstraint(
                fields=["slug"],
                condition=Q(campaign__isnull=True),
                name="library_pack_slug_unique",
                violation_error_message="The library already has a pack with this slug.",
            ),
            models.UniqueConstraint(
                fields=["campaign", "slug"],
                name="campaign_pack_slug_unique",
                violation_error_message="The campaign already has a pack with this slug.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_house(self) -> bool:
        return self.campaign_id is not None and self.slug == HOUSE_SLUG

    def thresholds(self) -> list[packs.model.UnderdogThreshold]:
        return [packs.model.UnderdogThreshold(**row) for row in self.underdog_thresholds]


class EnabledPack(models.Model):
    """A pack a campaign uses. Removed (with a history row) when the organiser turns it
    off; cards keep what they were given from it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="enabled_packs")
    pack = models.ForeignKey(ContentPack, on_delete=models.CASCADE, related_name="enabled_in")
    enabled_at = models.DateTimeField(default=timezone.now)
    enabled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["campaign", "pack__name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "pack"], name="pack_enabled_once")
        ]

    def __str__(self) -> str:
        return f"{self.pack} in {self.campaign}"


class CustomContentQuerySet(models.QuerySet):
    def available(self) -> CustomContentQuerySet:
        """What players may still pick: content that has not been retired."""
        return self.filter(retired_at__isnull=True)

    def enabled_in(self, campaign_id: int | None) -> CustomContentQuerySet:
        """The items of the packs the campaign has enabled (none for a force without one)."""
        return self.filter(pack__enabled_in__campaign_id=campaign_id)


class CustomContent(models.Model):
    """One item of a stored content pack: an Agenda, Blessing, Requisition, upgrade,
    Battle Trait, Crusade Relic, Battle Scar or counter.

    Cards keep what they were given, so content is retired, never deleted.
    """

    class Kind(models.TextChoices):
        BATTLE_TRAIT = "battle_trait", "Battle Trait"
        BATTLE_SCAR = "battle_scar", "Battle Scar"
        CRUSADE_RELIC = "crusade_relic", "Crusade Relic"
        AGENDA = "agenda", "Agenda"
        BLESSING = "blessing", "Crusade Blessing"
        REQUISITION = "requisition", "Requisition"
        UPGRADE = "upgrade", "Unit upgrade"
        COUNTER = "counter", "Counter"
        ALLIANCE = "alliance", "Alliance"

    HONOUR_KINDS = (Kind.BATTLE_TRAIT, Kind.BATTLE_SCAR, Kind.CRUSADE_RELIC)
    """What the organiser adds one at a time to the campaign's house pack."""
    CHOICE_PREFIX = "custom-"

    pack = models.ForeignKey(ContentPack, on_delete=models.CASCADE, related_name="items")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.SlugField(
        max_length=40, help_text="The item's id in the pack file (unique within its kind)."
    )
    position = models.PositiveIntegerField(
        default=0, editable=False, help_text="Its place in the pack's order."
    )
    name = models.CharField(max_length=120)
    effect = models.TextField(blank=True, max_length=EFFECT_LENGTH)
    relic_category = models.CharField(
        max_length=16,
        blank=True,
        choices=rules_choices(rules.RelicCategory),
        help_text="Crusade Relics only.",
    )
    trait_table = models.CharField(
        max_length=40,
        blank=True,
        help_text="Battle Traits only: the id of the table it is in (character, infantry, "
        "mounted, vehicle, or a table of its pack); empty for a trait that suits any unit.",
    )
    details = models.JSONField(
        default=dict,
        blank=True,
        help_text="The numbers of its kind, as the pack file names them (xp, cost, ...).",
    )
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="Retired content is no longer offered to players."
    )

    objects = CustomContentQuerySet.as_manager()

    class Meta:
        ordering = ["pack", "kind", "position", "pk"]
        verbose_name = "pack content"
        verbose_name_plural = "pack content"
        constraints = [
            models.UniqueConstraint(
                fields=["pack", "kind", "trait_table", "key"], name="pack_item_unique_key"
            ),
            models.CheckConstraint(
                condition=~Q(kind="crusade_relic") | ~Q(relic_category=""),
                name="custom_relic_has_category",
                violation_error_message=RELIC_NEEDS_CATEGORY,
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display()})"

    @property
    def choice_key(self) -> str:
        """How a form offers this item beside the rulebook's own entries."""
        return f"{self.CHOICE_PREFIX}{self.pk}"

    @classmethod
    def pk_from_choice_key(cls, value: str) -> int | None:
        """The primary key inside a `choice_key`, or None for a rulebook entry."""
        prefix, _, pk = str(value).partition(cls.CHOICE_PREFIX)
        return int(pk) if not prefix and pk.isascii() and pk.isdigit() else None

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None

    @property
    def campaign(self) -> Campaign | None:
        """The campaign whose own pack holds it (None for a library pack's item)."""
        return self.pack.campaign

    @property
    def core_trait_table(self) -> rules.TraitTable | None:
        """The core table a Battle Trait is in (None for a pack's own table, or none):
        it suits the units that table suits; any other trait suits any unit."""
        return CORE_TRAIT_TABLES.get(self.trait_table)

    @property
    def trait_table_label(self) -> str:
        """The table's name as a card shows it ("Infantry", a pack's own table's name)."""
        if self.core_trait_table is not None:
            return str(self.core_trait_table)
        tables = {t["id"]: t["name"] for t in self.pack.trait_tables}
        return tables.get(self.trait_table, self.trait_table)

    def as_pack_item(self) -> Any:
        """The item as the pack format's dataclass (``campaign.packs.model``), the form the
        rules engine reads."""
        obj = ITEM_SPECS[self.kind]
        own = {"id": self.key, "name": self.name, "effect": self.effect}
        own["category"] = self.relic_category
        values: dict[str, Any] = {}
        for field in obj.fields:
            if field.name in own:
                values[field.name] = own[field.name]
            elif field.name in self.details:
                values[field.name] = self.details[field.name]
        return obj.cls(**values)


ITEM_SPECS = {
    CustomContent.Kind.AGENDA: packs.spec.AGENDA,
    CustomContent.Kind.BLESSING: packs.spec.BLESSING,
    CustomContent.Kind.REQUISITION: packs.spec.REQUISITION,
    CustomContent.Kind.UPGRADE: packs.spec.UPGRADE,
    CustomContent.Kind.BATTLE_TRAIT: packs.spec.TRAIT_ENTRY,
    CustomContent.Kind.CRUSADE_RELIC: packs.spec.RELIC,
    CustomContent.Kind.BATTLE_SCAR: packs.spec.SCAR,
    CustomContent.Kind.COUNTER: packs.spec.COUNTER,
    CustomContent.Kind.ALLIANCE: packs.spec.ALLIANCE,
}
"""Each kind's object in the pack format."""
SECTION_KINDS: dict[str, str] = {
    "agendas": CustomContent.Kind.AGENDA,
    "blessings": CustomContent.Kind.BLESSING,
    "requisitions": CustomContent.Kind.REQUISITION,
    "upgrades": CustomContent.Kind.UPGRADE,
    "crusade_relics": CustomContent.Kind.CRUSADE_RELIC,
    "battle_scars": CustomContent.Kind.BATTLE_SCAR,
    "counters": CustomContent.Kind.COUNTER,
    "alliances": CustomContent.Kind.ALLIANCE,
}
"""Each section of a pack file and the kind of item it holds (Battle Traits are in tables)."""
