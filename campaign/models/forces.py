"""Orders of Battle, Crusade cards, and what a card holds."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from campaign import rules
from campaign.bounds import (
    count,
)
from campaign.prepared import Prepared

from ._common import (
    EFFECT_LENGTH,
    LEAST_MODELS,
    LEAST_RP_CAP,
    MOST_ENHANCEMENT_POINTS,
    MOST_MODELS,
    MOST_POINTS,
    MOST_RP,
    MOST_SUPPLY,
    MOST_TALLY,
    NOTE_LENGTH,
    rules_choices,
)
from .campaigns import Campaign, Named
from .packs import CustomContent

MOST_FORCE_CAMPAIGN_POINTS = 1_000_000
"""A force's Campaign Points over a whole campaign."""


class CrusadeForce(Named):
    """An Order of Battle: a player's Crusade force."""

    detail_url = "force_detail"

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="forces"
    )
    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.PROTECT, related_name="forces"
    )
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=120)
    supply_limit = count(MOST_SUPPLY)
    rp = count(MOST_RP, "RP")
    rp_cap = count(
        MOST_RP,
        "RP cap",
        least=LEAST_RP_CAP,
        help_text="Copied from the campaign's house rules; kept in step by a service.",
    )
    battle_tally = count(MOST_TALLY, default=0)
    victories = count(MOST_TALLY, default=0)
    alliance = models.ForeignKey(
        "campaign.Alliance",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="forces",
        help_text="The campaign's alliance this force fights for.",
    )
    campaign_points = count(
        MOST_FORCE_CAMPAIGN_POINTS,
        default=0,
        editable=False,
        help_text="Campaign Points of its completed battles, kept by the battle service.",
    )
    goals = models.TextField(blank=True, max_length=NOTE_LENGTH)
    victories_notes = models.TextField("notable victories", blank=True, max_length=NOTE_LENGTH)
    vendettas = models.TextField(blank=True, max_length=NOTE_LENGTH)
    background = models.TextField(blank=True, max_length=NOTE_LENGTH)
    banner = models.ImageField(upload_to="banners/", blank=True)
    banner_thumbnail = models.ImageField(upload_to="banners/thumbs/", blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # Totals over the active units, stored so that standings and lists read them in one
    # query whatever the campaign's size. Only `services.refresh_totals` writes them.
    supply_used = models.PositiveIntegerField(
        default=0, editable=False, help_text="Points of the active units that count."
    )
    crusade_points = models.IntegerField(default=0, editable=False)
    unit_count = models.PositiveIntegerField("units", default=0, editable=False)
    revision = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text="How many history rows name the force: moved on by every change to it or "
        "its units, in the change's transaction, it names the state its page shows.",
    )

    TOTAL_FIELDS = ("supply_used", "crusade_points", "unit_count")

    STORY_FIELDS = ("goals", "victories_notes", "vendettas", "background")
    NARRATIVE_FIELDS = ("name", "faction", *STORY_FIELDS)
    """What the player may edit."""
    TRACKED_FIELDS = ("supply_limit", "rp", "battle_tally", "victories")
    """What only an organiser changes, as a correction with a reason."""

    class Meta:
        ordering = ["name"]
        verbose_name = "Crusade force"
        constraints = [
            models.CheckConstraint(condition=Q(rp__lte=F("rp_cap")), name="force_rp_within_cap"),
            models.CheckConstraint(
                condition=Q(victories__lte=F("battle_tally")), name="force_victories_le_battles"
            ),
        ]
        indexes = [
            models.Index(
                "campaign",
                F("victories").desc(),
                F("crusade_points").desc(),
                "name",
                name="force_standings",
            ),
            # A campaign's forces by name: the organiser's list of a league's cards (by
            # force, then name) reads the first forces' cards instead of sorting them all.
            models.Index(fields=["campaign", "name"], name="force_campaign_name"),
            # The sum of a campaign's forces' revisions, which every look at its page and
            # its organiser's lists asks (`selectors.versions`), read from the index alone:
            # from the table, it visited a page for each force (0.8 ms of a first look on
            # PostgreSQL, where a force's every change leaves its row somewhere new).
            models.Index(fields=["campaign", "revision"], name="force_campaign_revision"),
        ]

    @property
    def supply_free(self) -> int:
        return self.supply_limit - self.supply_used

    @property
    def house_rules(self) -> rules.HouseRules:
        return self.campaign.house_rules if self.campaign_id else rules.DEFAULT_HOUSE_RULES

    @property
    def restored_from(self) -> Provenance | None:  # noqa: F821 (defined in .history)
        """Where a restored force came from (None for a force made here); read with the
        force's own query where it was fetched with ``select_related("provenance")``."""
        try:
            return self.provenance
        except ObjectDoesNotExist:
            return None

    def in_battle(self) -> bool:
        """Whether the force is committed to a battle that is not over: its player accepted
        (or started) it, and it has not completed, been cancelled or been voided."""
        return bool(_COMMITTED_SIDE.fetch(force=self.pk))


def _committed_side(force: int) -> models.QuerySet:
    # The sides' model (models.battles) is reached through the relation: it builds on
    # this module.
    sides = CrusadeForce._meta.get_field("battle_entries").related_model
    # Any one will do: unordered, the database stops at the first (ordered by the sides'
    # battle dates, it joined and sorted every battle of the league's still going).
    held = sides.objects.filter(sides.committed(), force=force).order_by()
    return held.values_list("pk", flat=True)[:1]


_COMMITTED_SIDE = Prepared(_committed_side, force=int)
"""One of the force's sides that holds it, if any (compiled once: `campaign.prepared`)."""


class UnitQuerySet(models.QuerySet):
    def active(self) -> UnitQuerySet:
        return self.filter(status=Unit.Status.ACTIVE)

    def with_card_details(self) -> UnitQuerySet:
        return self.prefetch_related(*card_prefetches())


def card_prefetches(prefix: str = "") -> list[models.Prefetch]:
    """Active honours, scars and upgrades and pending promotions, for cards reached via
    `prefix`."""
    # The upgrades' model (models.counters) is reached through the relation, not imported:
    # it builds on this module.
    upgrades = Unit._meta.get_field("upgrades").related_model
    return [
        # Lists (to_attr) rather than managers: Django then builds no queryset per card.
        models.Prefetch(
            f"{prefix}honours",
            queryset=BattleHonour.objects.filter(status=BattleHonour.Status.ACTIVE),
            to_attr="active_honour_list",
        ),
        models.Prefetch(
            f"{prefix}scars",
            queryset=BattleScar.objects.filter(status=BattleScar.Status.ACTIVE),
            to_attr="active_scar_list",
        ),
        models.Prefetch(
            f"{prefix}promotions",
            queryset=Promotion.objects.filter(status=Promotion.Status.PENDING),
            to_attr="pending_promotion_list",
        ),
        models.Prefetch(
            f"{prefix}upgrades",
            queryset=upgrades.objects.filter(status=upgrades.Status.ACTIVE),
            to_attr="active_upgrade_list",
        ),
    ]


def fact_prefetches(prefix: str = "") -> list[models.Prefetch]:
    """The active honours and scars of cards reached via `prefix`: what `Unit.facts` reads
    when it is told the pending promotions (a battle's record and its end)."""
    return card_prefetches(prefix)[:2]


KEYWORD_FIELDS = tuple((keyword, keyword.field) for keyword in rules.Keyword)
"""Each keyword with the yes/no field that records it on a card (read for every card)."""


class Unit(Named):
    """A Crusade card: one unit of an Order of Battle."""

    detail_url = "unit_detail"

    class Status(models.TextChoices):
        ACTIVE = "active", "On the Order of Battle"
        REMOVED = "removed", "Removed"

    force = models.ForeignKey(CrusadeForce, on_delete=models.PROTECT, related_name="units")
    name = models.CharField(max_length=120)
    datasheet = models.CharField(max_length=120)
    models_description = models.CharField(
        "models", max_length=255, blank=True, help_text="Which models and how many."
    )
    model_count = count(MOST_MODELS, least=LEAST_MODELS, default=1)
    max_model_count = count(
        MOST_MODELS,
        least=LEAST_MODELS,
        null=True,
        blank=True,
        help_text="The datasheet's maximum number of models.",
    )
    wargear = models.TextField(blank=True, max_length=EFFECT_LENGTH)
    points = count(MOST_POINTS)
    enhancement = models.CharField(max_length=120, blank=True)
    enhancement_points = count(MOST_ENHANCEMENT_POINTS, default=0)
    enhancement_weapon = models.CharField(
        max_length=120,
        blank=True,
        help_text="If the Enhancement is a weapon, or replaces one: that weapon's name.",
    )
    faction_keywords = models.CharField(
        max_length=255, help_text="Comma-separated, e.g. 'Adeptus Astartes, Ultramarines'."
    )
    selectable_keywords = models.CharField(
        max_length=255, blank=True, help_text="e.g. the <CHAPTER> keyword chosen."
    )
    crusade_rules = models.TextField("rules chosen", blank=True, max_length=NOTE_LENGTH)
    # One yes/no field per keyword the rules ask about (is_character, is_infantry, ...)
    # is added from rules.Keyword below the class: the keywords are declared only there.
    counts_towards_supply = models.BooleanField(
        default=True, help_text="Untick for units a faction rule leaves out of Supply Used."
    )
    legendary_veteran = models.BooleanField(default=False)
    xp = count(MOST_TALLY, "XP", default=0)
    battles_played = count(MOST_TALLY, default=0)
    battles_survived = count(MOST_TALLY, default=0)
    units_destroyed = count(MOST_TALLY, default=0)
    agenda_tallies = models.JSONField(
        default=dict,
        blank=True,
        help_text='Agendas achieved, by Agenda: {"Trophy Takers": 3}. Kept by the battle service.',
    )
    notes = models.TextField(blank=True, max_length=NOTE_LENGTH)
    picture = models.ImageField(upload_to="units/", blank=True)
    thumbnail = models.ImageField(upload_to="units/thumbs/", blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_reason = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = UnitQuerySet.as_manager()

    class Meta:
        ordering = ["force", "name"]
        verbose_name = "unit (Crusade card)"
        verbose_name_plural = "units (Crusade cards)"
        constraints = [
            models.UniqueConstraint(
                fields=["force", "name"],
                condition=Q(status="active"),
                name="unit_name_unique_among_active_units",
            ),
            models.CheckConstraint(
                condition=Q(battles_survived__lte=F("battles_played")),
                name="unit_survived_le_played",
            ),
            models.CheckConstraint(
                condition=Q(status="active", removed_at__isnull=True)
                | Q(status="removed", removed_at__isnull=False),
                name="unit_removed_has_date",
            ),
            models.CheckConstraint(
                condition=Q(model_count__gte=LEAST_MODELS), name="unit_has_models"
            ),
        ]

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def keywords(self) -> frozenset[rules.Keyword]:
        """The rule-changing keywords ticked on the card."""
        return frozenset(k for k, field in KEYWORD_FIELDS if getattr(self, field))

    @property
    def no_xp(self) -> bool:
        """Units that never gain XP or honours (the rules decide which)."""
        return rules.has_no_xp_keyword(self.keywords)

    @property
    def xp_display(self) -> str:
        return "N/A" if self.no_xp else str(self.xp)

    @property
    def agenda_tally(self) -> int:
        """The Agendas achieved tally, all its tally Agendas together."""
        return sum(self.agenda_tallies.values())

    @property
    def rank(self) -> rules.Rank:
        return rules.rank_for_xp(self.xp)

    @property
    def faction_keyword_set(self) -> frozenset[str]:
        return frozenset(k.strip() for k in self.faction_keywords.split(",") if k.strip())

    def active_honours(self) -> list[BattleHonour]:
        """Uses the prefetch from `with_card_details` when present."""
        if hasattr(self, "active_honour_list"):
            return self.active_honour_list
        return list(self.honours.filter(status=BattleHonour.Status.ACTIVE))

    def active_scars(self) -> list[BattleScar]:
        if hasattr(self, "active_scar_list"):
            return self.active_scar_list
        return list(self.scars.filter(status=BattleScar.Status.ACTIVE))

    def pending_promotions(self) -> list[Promotion]:
        if hasattr(self, "pending_promotion_list"):
            return self.pending_promotion_list
        return list(self.promotions.filter(status=Promotion.Status.PENDING))

    def active_upgrades(self) -> list:
        """The pack upgrades it holds (`UnitUpgrade`); uses the prefetch when present."""
        if hasattr(self, "active_upgrade_list"):
            return self.active_upgrade_list
        return list(self.upgrades.filter(status="active"))

    @property
    def crusade_points(self) -> int:
        """Derived from honours, scars and pack upgrades by the rules, never typed in."""
        return rules.card_crusade_points(
            honours=[(h.category, h.relic_category) for h in self.active_honours()],
            scars=len(self.active_scars()),
            titanic=self.is_titanic,
            upgrades=[upgrade.crusade_points for upgrade in self.active_upgrades()],
        )

    def facts(
        self, cls: type[rules.UnitFacts] = rules.UnitFacts, *, pending_promotions=None, **extra
    ):
        """This card as the rules engine sees it (``cls`` may be a subclass, with ``extra``)."""
        return cls(
            name=self.name,
            datasheet=self.datasheet,
            points=self.points,
            faction_keywords=self.faction_keyword_set,
            keywords=self.keywords,
            xp=self.xp,
            legendary_veteran=self.legendary_veteran,
            has_enhancement=bool(self.enhancement),
            battle_honours=len(self.active_honours()),
            battle_scars=tuple(s.name for s in self.active_scars()),
            pending_promotions=(
                len(self.pending_promotions()) if pending_promotions is None else pending_promotions
            ),
            **extra,
        )


for _keyword in rules.Keyword:
    Unit.add_to_class(_keyword.field, models.BooleanField(_keyword.label, default=False))


@dataclass(frozen=True)
class CardFields:
    """Which fields of a Crusade card play which part: forms, services and the admin
    derive their field lists from this one declaration."""

    keywords: tuple[str, ...] = tuple(k.field for k in rules.Keyword)
    new: tuple[str, ...] = (
        "name",
        "datasheet",
        "points",
        "faction_keywords",
        "models_description",
        "model_count",
        "max_model_count",
        "wargear",
        "enhancement",
        "enhancement_points",
        "enhancement_weapon",
        "selectable_keywords",
        "crusade_rules",
        *keywords,
        "counts_towards_supply",
        "notes",
    )
    """What a player fills in on a new card."""
    player: tuple[str, ...] = ("name", "notes")
    """What the player may still edit afterwards (and the picture): the rest is fixed when
    the card is made, or changes only through Requisitions or an organiser's correction."""
    tallies: tuple[str, ...] = ("xp", "battles_played", "battles_survived", "units_destroyed")

    @property
    def tracked(self) -> tuple[str, ...]:
        """What only an organiser changes, as a correction with a reason."""
        fixed = tuple(f for f in self.new if f not in self.player and f != "notes")
        return (*fixed, "legendary_veteran", *self.tallies)


CARD_FIELDS = CardFields()


class BattleHonour(models.Model):
    """A Battle Honour on a card. Lost honours keep their row with a status."""

    Category = rules.HonourCategory

    class Status(models.TextChoices):
        ACTIVE = "active", "Held"
        LOST = "lost", "Lost"
        VOIDED = "voided", "Voided"

    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="honours")
    category = models.CharField(max_length=24, choices=rules_choices(rules.HonourCategory))
    name = models.CharField(max_length=120)
    effect = models.TextField(blank=True, max_length=EFFECT_LENGTH)
    trait_table = models.CharField(max_length=40, blank=True)
    relic_category = models.CharField(
        max_length=16, blank=True, choices=rules_choices(rules.RelicCategory)
    )
    model_name = models.CharField("model", max_length=120, blank=True)
    weapon = models.CharField(max_length=120, blank=True)
    modifications = models.JSONField(default=list, blank=True)
    custom_content = models.ForeignKey(
        CustomContent, null=True, blank=True, on_delete=models.PROTECT, related_name="honours"
    )
    promotion = models.ForeignKey(
        "Promotion", null=True, blank=True, on_delete=models.SET_NULL, related_name="honours"
    )
    replaces = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="replaced_by",
        help_text="The honour this one replaced when the unit was at its limit.",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    gained_at = models.DateTimeField(default=timezone.now)
    lost_at = models.DateTimeField(null=True, blank=True)
    lost_reason = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["gained_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(category="crusade_relic") | ~Q(relic_category=""),
                name="relic_honour_has_category",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_category_display()})"


class BattleScar(models.Model):
    """A Battle Scar on a card. Removed scars keep their row with a status."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Held"
        REPAIRED = "repaired", "Repaired"
        VOIDED = "voided", "Voided"

    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="scars")
    name = models.CharField(max_length=120)
    effect = models.TextField(blank=True, max_length=EFFECT_LENGTH)
    custom_content = models.ForeignKey(
        CustomContent, null=True, blank=True, on_delete=models.PROTECT, related_name="scars"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    gained_at = models.DateTimeField(default=timezone.now)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["gained_at", "pk"]

    def __str__(self) -> str:
        return self.name


class Promotion(models.Model):
    """A rank gained, settled by one of the rewards the rules allow."""

    class Status(models.TextChoices):
        PENDING = "pending", "To settle"
        SETTLED = "settled", "Settled"
        VOIDED = "voided", "Voided"

    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="promotions")
    rank = models.PositiveSmallIntegerField(choices=rules_choices(rules.Rank))
    battle = models.ForeignKey(
        "Battle", null=True, blank=True, on_delete=models.PROTECT, related_name="promotions"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    settled_by = models.CharField(
        max_length=20, blank=True, choices=rules_choices(rules.PromotionReward)
    )
    settled_with = models.CharField(
        max_length=120, blank=True, help_text="The honour or Enhancement it was settled with."
    )
    created_at = models.DateTimeField(default=timezone.now)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.unit}: {rules.Rank(self.rank).label}"

    @property
    def rank_label(self) -> str:
        return rules.Rank(self.rank).label
