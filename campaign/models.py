"""The Crusade data model.

Rules about one row are properties that ask `campaign.rules`; changes that touch
several rows live in `campaign.services`. Nothing here writes domain state.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from campaign import rules
from campaign.bounds import (
    BoundedPositiveIntegerField,
    BoundedPositiveSmallIntegerField,
    between,
    count,
)


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def rules_choices(enum) -> partial:
    """Choices for a field whose values are named by the rules: computed from the enum
    when needed, so migrations refer to the rules instead of copying their labels."""
    return partial(rules.choices, enum)


HOUSE = rules.DEFAULT_HOUSE_RULES

NOTE_LENGTH = 4000
"""Most characters in a narrative or notes field: a few long paragraphs."""
EFFECT_LENGTH = 1000
"""Most characters in a rule's effect or a card's wargear list."""


MOST_POINTS = 10_000
"""Points of one unit: a Knight or a Titan costs hundreds, never ten thousand."""
MOST_ENHANCEMENT_POINTS = 1000
"""Points of one Enhancement: tens in the rulebook."""
MOST_MODELS = 200
LEAST_MODELS = 1
"""A card has models (the `unit_has_models` constraint)."""
MOST_SUPPLY = 1_000_000
MOST_RP = 100
LEAST_RP_CAP = 1
"""A force can hold some RP (the `campaign_rp_cap_positive` constraint)."""
MOST_TALLY = 100_000
D6 = (1, 6)
"""What a D6 rolls (the `ooa_roll_is_a_d6` constraint)."""


def house_rule(name: str, meaning: str) -> BoundedPositiveIntegerField:
    """A number of a campaign's house rules, defaulting to the rulebook's."""
    most = MOST_RP if "rp" in name else MOST_SUPPLY
    least = LEAST_RP_CAP if name == "rp_cap" else 0
    rulebook = getattr(HOUSE, name)
    label = name.replace("_", " ").replace("rp", "RP")
    return count(
        most, label, least=least, default=rulebook, help_text=f"{meaning} (rulebook: {rulebook})."
    )


class Named(models.Model):
    """A row shown by its name, with a page of its own (the URL named `detail_url`)."""

    detail_url = ""

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse(self.detail_url, args=[self.pk])


class Campaign(Named):
    """A campaign run by organisers; its house rules default to the rulebook's numbers."""

    detail_url = "campaign_detail"

    name = models.CharField(max_length=120)
    description = models.TextField(blank=True, max_length=NOTE_LENGTH)
    created_at = models.DateTimeField(default=timezone.now)
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="campaigns"
    )
    starting_supply_limit = house_rule("starting_supply_limit", "Supply Limit of a new force")
    starting_rp = house_rule("starting_rp", "Requisition points of a new force")
    rp_cap = house_rule("rp_cap", "Most RP a force can hold")
    supply_limit_increase = house_rule("supply_limit_increase", "Supply Limit gained per purchase")
    revision = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text="How many history rows name the campaign and no force: with its forces' "
        "revisions, it names the state its page shows.",
    )

    HOUSE_RULE_FIELDS = ("starting_supply_limit", "starting_rp", "rp_cap", "supply_limit_increase")
    DETAIL_FIELDS = ("name", "description")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(starting_rp__lte=F("rp_cap")), name="campaign_starting_rp_within_cap"
            ),
            models.CheckConstraint(
                condition=Q(rp_cap__gte=LEAST_RP_CAP), name="campaign_rp_cap_positive"
            ),
        ]

    @property
    def house_rules(self) -> rules.HouseRules:
        return rules.HouseRules(**{name: getattr(self, name) for name in self.HOUSE_RULE_FIELDS})


class Membership(models.Model):
    class Role(models.TextChoices):
        PLAYER = "player", "Player"
        ORGANISER = "organiser", "Organiser"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"


class CampaignInvitation(models.Model):
    """An offer to join a campaign with a role (or, for a member, to organise it), which only
    the invited user answers: nobody becomes a member or an organiser without their click.
    Answered or withdrawn, it stays as a record of who asked whom."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_invitations"
    )
    role = models.CharField(
        max_length=16, choices=Membership.Role.choices, default=Membership.Role.PLAYER
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "invitation to a campaign"
        verbose_name_plural = "invitations to a campaign"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"],
                condition=Q(status="pending"),
                name="one_open_campaign_invitation_per_user",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} invited as {self.get_role_display()} to {self.campaign}"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING


RELIC_NEEDS_CATEGORY = "A Crusade Relic needs its category (Artificer, Antiquity or Legendary)."


class CustomContentQuerySet(models.QuerySet):
    def available(self) -> CustomContentQuerySet:
        """What players may still pick: content that has not been retired."""
        return self.filter(retired_at__isnull=True)


class CustomContent(models.Model):
    """Campaign-specific Battle Traits, Battle Scars and Crusade Relics (custom honours).

    Cards keep what they were given, so content is retired, never deleted.
    """

    class Kind(models.TextChoices):
        BATTLE_TRAIT = "battle_trait", "Battle Trait"
        BATTLE_SCAR = "battle_scar", "Battle Scar"
        CRUSADE_RELIC = "crusade_relic", "Crusade Relic"

    CHOICE_PREFIX = "custom-"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="custom_content")
    kind = models.CharField(max_length=20, choices=Kind.choices)
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
        choices=rules_choices(rules.TraitTable),
        help_text="Battle Traits only: which units it suits.",
    )
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="Retired content is no longer offered to players."
    )

    objects = CustomContentQuerySet.as_manager()

    class Meta:
        ordering = ["campaign", "kind", "name"]
        verbose_name_plural = "custom content"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kind", "name"], name="custom_content_unique_name"
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
        ]

    @property
    def supply_free(self) -> int:
        return self.supply_limit - self.supply_used

    @property
    def house_rules(self) -> rules.HouseRules:
        return self.campaign.house_rules if self.campaign_id else rules.DEFAULT_HOUSE_RULES

    @property
    def restored_from(self) -> Provenance | None:
        """Where a restored force came from (None for a force made here); read with the
        force's own query where it was fetched with ``select_related("provenance")``."""
        try:
            return self.provenance
        except Provenance.DoesNotExist:
            return None

    def in_battle(self) -> bool:
        """Whether the force is committed to a battle that is not over: its player accepted
        (or started) it, and it has not completed, been cancelled or been voided."""
        return self.battle_entries.filter(BattleParticipant.committed()).exists()


class UnitQuerySet(models.QuerySet):
    def active(self) -> UnitQuerySet:
        return self.filter(status=Unit.Status.ACTIVE)

    def with_card_details(self) -> UnitQuerySet:
        return self.prefetch_related(*card_prefetches())


def card_prefetches(prefix: str = "") -> list[models.Prefetch]:
    """Active honours and scars and pending promotions, for cards reached via `prefix`."""
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
    ]


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

    @property
    def crusade_points(self) -> int:
        """Derived from honours and scars by the rules, never typed in."""
        honours = self.active_honours()
        relics = [
            rules.RelicCategory(h.relic_category)
            for h in honours
            if h.category == BattleHonour.Category.CRUSADE_RELIC
        ]
        return rules.crusade_points(
            battle_honours=len(honours) - len(relics),
            battle_scars=len(self.active_scars()),
            titanic=self.is_titanic,
            relics=relics,
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


def battle_size_choices() -> list[tuple[str, str]]:
    return [(name, f"{name} ({points} points)") for name, points in rules.BATTLE_SIZES.items()]


class Battle(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        DISPUTED = "disputed", "Disputed"
        COMPLETED = "completed", "Completed"
        VOIDED = "voided", "Voided"
        CANCELLED = "cancelled", "Cancelled"

    OPEN_STATUSES = (Status.IN_PROGRESS, Status.DISPUTED)
    """Not over yet: the forces that accepted it are committed to it."""

    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.PROTECT, related_name="battles"
    )
    date = models.DateField(default=timezone.localdate)
    battle_size = models.CharField(max_length=20, choices=battle_size_choices)
    mission = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["-date", "-pk"]

    def __str__(self) -> str:
        names = " vs ".join(p.force.name for p in self.participants.all())
        return f"{self.battle_size} on {self.date:%d %b %Y}" + (f": {names}" if names else "")

    def get_absolute_url(self) -> str:
        return reverse("battle_detail", args=[self.pk])

    @property
    def points_limit(self) -> int:
        return rules.BATTLE_SIZES[self.battle_size]

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES


class BattleParticipant(models.Model):
    """One force's side of a battle: its invitation, its mustered army, what its player
    recorded, and its result."""

    Result = rules.BattleResult

    class Invitation(models.TextChoices):
        INVITED = "invited", "Invited"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Invitation withdrawn"

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="participants")
    force = models.ForeignKey(CrusadeForce, on_delete=models.PROTECT, related_name="battle_entries")
    invitation = models.CharField(
        max_length=16,
        choices=Invitation.choices,
        default=Invitation.INVITED,
        help_text="The side fights only once its player accepts (the starter's side is "
        "accepted when the battle starts).",
    )
    faction = models.CharField(max_length=120, blank=True)
    detachment = models.CharField(max_length=120, blank=True)
    warlord = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    result = models.CharField(
        max_length=8,
        choices=rules_choices(rules.BattleResult),
        blank=True,
        help_text="The result that counted, once the battle completed.",
    )
    claimed_result = models.CharField(
        max_length=8,
        choices=rules_choices(rules.BattleResult),
        blank=True,
        help_text="The result this side's player recorded.",
    )
    recorded_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    mustered = models.BooleanField(default=False)
    rp_before = count(MOST_RP, null=True, blank=True)
    rp_after = count(MOST_RP, null=True, blank=True)

    class Meta:
        ordering = ["battle", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "force"], name="one_entry_per_force"),
            models.CheckConstraint(
                condition=Q(recorded_at__isnull=True, claimed_result="")
                | (Q(recorded_at__isnull=False) & ~Q(claimed_result="")),
                name="recorded_side_claims_a_result",
            ),
            models.CheckConstraint(
                condition=Q(recorded_at__isnull=True) | Q(invitation="accepted"),
                name="only_an_accepted_side_records",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.force} in {self.battle_id}"

    @classmethod
    def in_play(cls, prefix: str = "") -> Q:
        """Sides (reached through ``prefix``) of a battle that is not over, invited or
        accepted: the ones that still wait on, or hold, their force."""
        return Q(
            **{
                f"{prefix}invitation__in": [cls.Invitation.INVITED, cls.Invitation.ACCEPTED],
                f"{prefix}battle__status__in": Battle.OPEN_STATUSES,
            }
        )

    @classmethod
    def committed(cls, prefix: str = "") -> Q:
        """Sides that hold their force (reached through ``prefix``): accepted, in a battle
        that is not over."""
        return cls.in_play(prefix) & Q(**{f"{prefix}invitation": cls.Invitation.ACCEPTED})

    @property
    def is_invited(self) -> bool:
        return self.invitation == self.Invitation.INVITED

    @property
    def is_accepted(self) -> bool:
        return self.invitation == self.Invitation.ACCEPTED

    @property
    def awaits_answer(self) -> bool:
        """Invited to a battle still being fought: its player may accept or decline."""
        return self.is_invited and self.battle.status == Battle.Status.IN_PROGRESS

    @property
    def has_recorded(self) -> bool:
        return self.recorded_at is not None


class BattleUnit(models.Model):
    """A unit in a mustered army, and what happened to it."""

    participant = models.ForeignKey(
        BattleParticipant, on_delete=models.CASCADE, related_name="army"
    )
    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="battle_entries")
    attached_to = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="leaders",
        help_text="For a Leader: the Bodyguard unit it joins.",
    )
    embarked_in = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="passengers",
        help_text="The transport this unit starts in.",
    )
    destroyed = models.BooleanField(default=False)
    enemy_units_destroyed = count(MOST_TALLY, default=0)
    marked_for_greatness = models.BooleanField(default=False)
    bonus_xp = count(MOST_TALLY, default=0)
    bonus_xp_reason = models.CharField(max_length=255, blank=True)
    second_leader_rule = models.CharField(
        max_length=255,
        blank=True,
        help_text="For a Bodyguard with two Leaders: the datasheet rule that allows it.",
    )
    # What recording the battle did, kept so a void reverses it exactly.
    xp_before = count(MOST_TALLY, null=True, blank=True)
    xp_after = count(MOST_TALLY, null=True, blank=True)
    promotions_earned = count(MOST_TALLY, default=0)

    class Meta:
        ordering = ["participant", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["participant", "unit"], name="unit_once_per_army"),
            models.CheckConstraint(
                condition=Q(bonus_xp=0) | ~Q(bonus_xp_reason=""), name="bonus_xp_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.unit} in battle {self.participant.battle_id}"

    @property
    def xp_gained(self) -> int | None:
        if self.xp_before is None or self.xp_after is None:
            return None
        return self.xp_after - self.xp_before


class OutOfActionQuerySet(models.QuerySet):
    def open(self) -> OutOfActionQuerySet:
        """Tests still waiting for a roll or for the player's choice."""
        return self.filter(status__in=OutOfActionTest.OPEN_STATUSES)


class OutOfActionTest(models.Model):
    """Taken by each destroyed unit after a battle."""

    class Status(models.TextChoices):
        PENDING = "pending", "To roll"
        AWAITING_CHOICE = "awaiting_choice", "Failed: choose the outcome"
        DONE = "done", "Done"
        VOIDED = "voided", "Voided"

    OPEN_STATUSES = (Status.PENDING, Status.AWAITING_CHOICE)
    Outcome = rules.OutOfAction

    battle_unit = models.OneToOneField(
        BattleUnit, on_delete=models.CASCADE, related_name="out_of_action"
    )
    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="out_of_action_tests")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    roll = BoundedPositiveSmallIntegerField(null=True, blank=True, validators=between(*D6))
    rolled_by_app = models.BooleanField(default=False)
    outcome = models.CharField(max_length=20, choices=rules_choices(rules.OutOfAction), blank=True)
    honour_lost = models.ForeignKey(
        BattleHonour, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    scar_gained = models.ForeignKey(
        BattleScar, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    objects = OutOfActionQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = "Out of Action test"
        constraints = [
            models.CheckConstraint(
                condition=Q(roll__isnull=True) | Q(roll__gte=D6[0], roll__lte=D6[1]),
                name="ooa_roll_is_a_d6",
            )
        ]

    def __str__(self) -> str:
        return f"Out of Action: {self.unit}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES


class Promotion(models.Model):
    """A rank gained, settled by one of the rewards the rules allow."""

    class Status(models.TextChoices):
        PENDING = "pending", "To settle"
        SETTLED = "settled", "Settled"
        VOIDED = "voided", "Voided"

    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="promotions")
    rank = models.PositiveSmallIntegerField(choices=rules_choices(rules.Rank))
    battle = models.ForeignKey(
        Battle, null=True, blank=True, on_delete=models.PROTECT, related_name="promotions"
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


class RequisitionPurchase(models.Model):
    force = models.ForeignKey(CrusadeForce, on_delete=models.PROTECT, related_name="requisitions")
    unit = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.PROTECT, related_name="requisitions"
    )
    requisition = models.CharField(max_length=32, choices=rules_choices(rules.Requisition))
    cost = count(MOST_RP)
    details = models.JSONField(default=dict, blank=True)
    bought_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_requisition_display()} ({self.cost}RP)"


def _requisition_actions() -> list[tuple[str, str]]:
    return [(f"requisition_{r.value}", f"Requisition: {r.label}") for r in rules.Requisition]


class HistoryAction(models.TextChoices):
    """Every kind of change a history row records (labelled after the member's name)."""

    CAMPAIGN_CREATED = "campaign_created"
    CAMPAIGN_EDITED = "campaign_edited"
    HOUSE_RULES_CHANGED = "house_rules_changed"
    MEMBER_JOINED = "member_joined"
    MEMBER_ROLE_CHANGED = "member_role_changed"
    MEMBER_INVITED = "member_invited"
    MEMBER_INVITATION_DECLINED = "member_invitation_declined"
    MEMBER_INVITATION_WITHDRAWN = "member_invitation_withdrawn"
    CUSTOM_CONTENT_ADDED = "custom_content_added"
    CUSTOM_CONTENT_CHANGED = "custom_content_changed"
    CUSTOM_CONTENT_RETIRED = "custom_content_retired"
    CUSTOM_CONTENT_DELETED = "custom_content_deleted"
    FORCE_CREATED = "force_created"
    FORCE_EDITED = "force_edited"
    FORCE_BANNER = "force_banner_changed"
    FORCE_CORRECTED = "force_corrected"
    FORCE_JOINED_CAMPAIGN = "force_joined_campaign"
    RP_CAP_CHANGED = "rp_cap_changed"
    UNIT_ADDED = "unit_added"
    UNIT_EDITED = "unit_edited"
    UNIT_PICTURE = "unit_picture_changed"
    UNIT_CORRECTED = "unit_corrected"
    UNIT_REMOVED = "unit_removed"
    ROSTER_IMPORTED = "roster_imported"
    FORCE_RESTORED = "force_restored"
    RESTORE_APPROVED = "restore_approved"
    RESTORE_REFUSED = "restore_refused"
    UNIT_RESTORED = "unit_restored"
    BATTLE_STARTED = "battle_started"
    ARMY_MUSTERED = "army_mustered"
    BATTLE_RECORDED = "battle_recorded"
    UNIT_BATTLE_RECORDED = "unit_battle_recorded"
    BATTLE_VOIDED = "battle_voided"
    UNIT_BATTLE_VOIDED = "unit_battle_voided"
    OUT_OF_ACTION_ROLLED = "out_of_action_rolled"
    OUT_OF_ACTION_RESOLVED = "out_of_action_resolved"
    HONOUR_GAINED = "honour_gained"
    SCAR_INFLICTED = "scar_inflicted"
    BATTLE_INVITED = "battle_invited"
    INVITATION_ACCEPTED = "invitation_accepted"
    INVITATION_DECLINED = "invitation_declined"
    INVITATION_WITHDRAWN = "invitation_withdrawn"
    BATTLE_CANCELLED = "battle_cancelled"
    SIDE_RECORDED = "side_recorded"
    BATTLE_DISPUTED = "battle_disputed"
    BATTLE_SETTLED = "battle_settled"

    @classmethod
    def for_requisition(cls, requisition: rules.Requisition) -> str:
        return f"requisition_{rules.Requisition(requisition).value}"


def history_action_choices() -> list[tuple[str, str]]:
    """Every action, the requisitions' own included (named by the rules)."""
    return [*HistoryAction.choices, *_requisition_actions()]


class HistoryEntry(models.Model):
    """One change to the Crusade: who, when, what, and the numbers before and after."""

    Action = HistoryAction

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=40, db_index=True, choices=history_action_choices)
    summary = models.CharField(max_length=500)
    reason = models.CharField(max_length=500, blank=True)
    changes = models.JSONField(default=dict, blank=True)
    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.PROTECT, related_name="history"
    )
    force = models.ForeignKey(
        CrusadeForce, null=True, blank=True, on_delete=models.PROTECT, related_name="history"
    )
    unit = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.PROTECT, related_name="history"
    )
    battle = models.ForeignKey(
        Battle, null=True, blank=True, on_delete=models.PROTECT, related_name="history"
    )
    imported_from = models.JSONField(
        default=dict,
        blank=True,
        help_text="For a row copied from a restored export: the original row as the file "
        "gave it (its date, who it named, its text). Empty for the server's own rows.",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "history"
        indexes = [
            models.Index(fields=["force", "-created_at"]),
            models.Index(fields=["unit", "-created_at"]),
            models.Index(fields=["-created_at", "-id"], name="history_newest_first"),
            models.Index(fields=["campaign", "-created_at", "-id"], name="history_campaign_newest"),
        ]

    def __str__(self) -> str:
        return self.summary

    @property
    def is_imported(self) -> bool:
        return bool(self.imported_from)


class Provenance(models.Model):
    """Where a restored force came from, and whether it may play yet.

    Written once by `services.restore_force`; only an organiser's decision
    (`services.decide_restored_force`) changes ``approval``. Never restored from a file.
    """

    class Approval(models.TextChoices):
        NOT_NEEDED = "not_needed", "Joined at once"
        AWAITING = "awaiting", "Awaiting the organiser's approval"
        APPROVED = "approved", "Approved by an organiser"
        REFUSED = "refused", "Refused by an organiser"

    BLOCKING = (Approval.AWAITING, Approval.REFUSED)
    """While the approval is one of these, the force can't play (`services.require_approved`)."""

    force = models.OneToOneField(CrusadeForce, on_delete=models.PROTECT, related_name="provenance")
    original_name = models.CharField("original force", max_length=120)
    original_owner = models.CharField(
        "original player", max_length=150, blank=True, help_text="As the export names them."
    )
    original_campaign = models.CharField(max_length=120, blank=True)
    exported_at = models.DateTimeField(null=True, blank=True)
    verified = models.BooleanField(
        help_text="The file was an untouched export signed by this server."
    )
    own_force = models.BooleanField(
        help_text="A verified export of a force of the player who restored it."
    )
    restored_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    restored_at = models.DateTimeField(default=timezone.now)
    approval = models.CharField(max_length=16, choices=Approval.choices)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        verbose_name = "restored force's provenance"

    def __str__(self) -> str:
        return f"{self.force} restored from {self.original_name}"

    @property
    def blocks_play(self) -> bool:
        return self.approval in self.BLOCKING

    @property
    def source(self) -> str:
        """Where the force came from, in a sentence for its pages."""
        owner = f" of {self.original_owner}" if self.original_owner else ""
        made = f" made {self.exported_at:%d %b %Y}" if self.exported_at else ""
        checked = (
            "a verified export of this server"
            if self.verified
            else "a file this server can't vouch for (edited, from another server, or unsigned)"
        )
        return f"Restored from {self.original_name}{owner}: {checked}{made}."


class UsedFormToken(models.Model):
    """A form token a change used up (`campaign.once`): the same form sent again is told
    it was already done. Not Crusade state: rows older than `once.LIFETIME` are forgotten
    by `manage.py clean_form_tokens`."""

    token = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    path = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            # One use per user and token; signing up (no user yet) has a constraint of its own,
            # since NULLs never collide in a unique index.
            models.UniqueConstraint(fields=["user", "token"], name="form_token_once_per_user"),
            models.UniqueConstraint(
                fields=["token"], condition=Q(user=None), name="form_token_once_signed_out"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.path} ({self.created_at:%d %b %Y %H:%M})"
