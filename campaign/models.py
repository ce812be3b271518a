"""The Crusade data model.

Rules about one row are properties that ask `campaign.rules`; changes that touch
several rows live in `campaign.services`. Nothing here writes domain state.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Sum
from django.urls import reverse
from django.utils import timezone

from campaign import rules


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


class Campaign(models.Model):
    """A campaign run by organisers; its house rules default to the rulebook (R1.2, R1.5, R6.1)."""

    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="campaigns"
    )
    starting_supply_limit = models.PositiveIntegerField(
        default=rules.DEFAULT_HOUSE_RULES.starting_supply_limit,
        help_text="Supply Limit of a new force (rulebook: 1000).",
    )
    starting_rp = models.PositiveIntegerField(
        default=rules.DEFAULT_HOUSE_RULES.starting_rp,
        help_text="Requisition points of a new force (rulebook: 5).",
    )
    rp_cap = models.PositiveIntegerField(
        default=rules.DEFAULT_HOUSE_RULES.rp_cap,
        help_text="Most RP a force can hold (rulebook: 10).",
    )
    supply_limit_increase = models.PositiveIntegerField(
        default=rules.DEFAULT_HOUSE_RULES.supply_limit_increase,
        help_text="Supply Limit gained per Increase Supply Limit (rulebook: 200).",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(starting_rp__lte=F("rp_cap")), name="campaign_starting_rp_within_cap"
            ),
            models.CheckConstraint(condition=Q(rp_cap__gte=1), name="campaign_rp_cap_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign_detail", args=[self.pk])

    @property
    def house_rules(self) -> rules.HouseRules:
        return rules.HouseRules(
            starting_supply_limit=self.starting_supply_limit,
            starting_rp=self.starting_rp,
            rp_cap=self.rp_cap,
            supply_limit_increase=self.supply_limit_increase,
        )


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


class CustomContent(models.Model):
    """Campaign-specific Battle Traits, Battle Scars and Crusade Relics (custom honours)."""

    class Kind(models.TextChoices):
        BATTLE_TRAIT = "battle_trait", "Battle Trait"
        BATTLE_SCAR = "battle_scar", "Battle Scar"
        CRUSADE_RELIC = "crusade_relic", "Crusade Relic"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="custom_content")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    name = models.CharField(max_length=120)
    effect = models.TextField(blank=True)
    relic_category = models.CharField(
        max_length=16,
        blank=True,
        choices=[(c.value, c.label) for c in rules.RelicCategory],
        help_text="Crusade Relics only.",
    )
    trait_table = models.CharField(
        max_length=40, blank=True, help_text="Battle Traits only: which units it suits."
    )

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
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display()})"


class ForceQuerySet(models.QuerySet):
    def with_supply_used(self) -> ForceQuerySet:
        return self.annotate(
            supply_used_total=Sum(
                "units__points",
                filter=Q(units__status="active", units__counts_towards_supply=True),
                default=0,
            )
        )


class CrusadeForce(models.Model):
    """An Order of Battle (R1)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="forces"
    )
    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.PROTECT, related_name="forces"
    )
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=120)
    supply_limit = models.PositiveIntegerField()
    rp = models.PositiveIntegerField("RP")
    rp_cap = models.PositiveIntegerField(
        "RP cap", help_text="Copied from the campaign's house rules; kept in step by a service."
    )
    battle_tally = models.PositiveIntegerField(default=0)
    victories = models.PositiveIntegerField(default=0)
    goals = models.TextField(blank=True)
    victories_notes = models.TextField("notable victories", blank=True)
    vendettas = models.TextField(blank=True)
    background = models.TextField(blank=True)
    banner = models.ImageField(upload_to="banners/", blank=True)
    banner_thumbnail = models.ImageField(upload_to="banners/thumbs/", blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = ForceQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = "Crusade force"
        constraints = [
            models.CheckConstraint(condition=Q(rp__lte=F("rp_cap")), name="force_rp_within_cap"),
            models.CheckConstraint(
                condition=Q(victories__lte=F("battle_tally")), name="force_victories_le_battles"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("force_detail", args=[self.pk])

    @property
    def supply_used(self) -> int:
        """R1.3: points of active units that count towards supply."""
        annotated = getattr(self, "supply_used_total", None)
        if annotated is not None:
            return annotated
        return self.units.filter(status=Unit.Status.ACTIVE, counts_towards_supply=True).aggregate(
            total=Sum("points", default=0)
        )["total"]

    @property
    def supply_free(self) -> int:
        return self.supply_limit - self.supply_used

    @property
    def house_rules(self) -> rules.HouseRules:
        return self.campaign.house_rules if self.campaign_id else rules.DEFAULT_HOUSE_RULES

    def in_battle(self) -> bool:
        """R6: requisitions are never bought while the force is in a battle in progress."""
        return self.battle_entries.filter(battle__status=Battle.Status.IN_PROGRESS).exists()


class UnitQuerySet(models.QuerySet):
    def active(self) -> UnitQuerySet:
        return self.filter(status=Unit.Status.ACTIVE)

    def with_card_details(self) -> UnitQuerySet:
        return self.prefetch_related(*card_prefetches())


def card_prefetches(prefix: str = "") -> list[models.Prefetch]:
    """Active honours and scars and pending promotions, for cards reached via `prefix`."""
    return [
        models.Prefetch(
            f"{prefix}honours",
            queryset=BattleHonour.objects.filter(status=BattleHonour.Status.ACTIVE),
        ),
        models.Prefetch(
            f"{prefix}scars", queryset=BattleScar.objects.filter(status=BattleScar.Status.ACTIVE)
        ),
        models.Prefetch(
            f"{prefix}promotions",
            queryset=Promotion.objects.filter(status=Promotion.Status.PENDING),
            to_attr="pending_promotion_list",
        ),
    ]


class Unit(models.Model):
    """A Crusade card (R2)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "On the Order of Battle"
        REMOVED = "removed", "Removed"

    class TraitTable(models.TextChoices):
        CHARACTER = "Character", "Character"
        INFANTRY = "Infantry", "Infantry"
        MOUNTED = "Mounted", "Mounted"
        VEHICLE = "Vehicle", "Vehicle"
        OTHER = "", "Other"

    force = models.ForeignKey(CrusadeForce, on_delete=models.PROTECT, related_name="units")
    name = models.CharField(max_length=120)
    datasheet = models.CharField(max_length=120)
    models_description = models.CharField(
        "models", max_length=255, blank=True, help_text="Which models and how many."
    )
    model_count = models.PositiveIntegerField(default=1)
    max_model_count = models.PositiveIntegerField(
        null=True, blank=True, help_text="Datasheet maximum (for Fresh Recruits)."
    )
    wargear = models.TextField(blank=True)
    points = models.PositiveIntegerField()
    enhancement = models.CharField(max_length=120, blank=True)
    enhancement_points = models.PositiveIntegerField(default=0)
    faction_keywords = models.CharField(
        max_length=255, help_text="Comma-separated, e.g. 'Adeptus Astartes, Ultramarines'."
    )
    selectable_keywords = models.CharField(
        max_length=255, blank=True, help_text="e.g. the <CHAPTER> keyword chosen."
    )
    crusade_rules = models.TextField("rules chosen", blank=True)
    trait_table = models.CharField(
        max_length=20, choices=TraitTable.choices, blank=True, default=TraitTable.OTHER
    )
    is_character = models.BooleanField("CHARACTER", default=False)
    is_epic_hero = models.BooleanField("EPIC HERO", default=False)
    is_titanic = models.BooleanField("TITANIC", default=False)
    is_fortification = models.BooleanField("FORTIFICATION", default=False)
    is_swarm = models.BooleanField("SWARM", default=False)
    is_battleline = models.BooleanField("BATTLELINE", default=False)
    is_dedicated_transport = models.BooleanField("DEDICATED TRANSPORT", default=False)
    counts_towards_supply = models.BooleanField(
        default=True, help_text="Untick for units a faction rule leaves out of Supply Used."
    )
    legendary_veteran = models.BooleanField(default=False)
    xp = models.PositiveIntegerField("XP", default=0)
    battles_played = models.PositiveIntegerField(default=0)
    battles_survived = models.PositiveIntegerField(default=0)
    units_destroyed = models.PositiveIntegerField(default=0)
    notes = models.TextField(blank=True)
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
            models.CheckConstraint(condition=Q(model_count__gte=1), name="unit_has_models"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("unit_detail", args=[self.pk])

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def no_xp(self) -> bool:
        """R2.6: EPIC HERO, FORTIFICATION and SWARM units never gain XP."""
        return rules.is_no_xp(
            epic_hero=self.is_epic_hero, fortification=self.is_fortification, swarm=self.is_swarm
        )

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
        return (
            list(self.honours.all())
            if self._prefetched("honours")
            else list(self.honours.filter(status=BattleHonour.Status.ACTIVE))
        )

    def active_scars(self) -> list[BattleScar]:
        return (
            list(self.scars.all())
            if self._prefetched("scars")
            else list(self.scars.filter(status=BattleScar.Status.ACTIVE))
        )

    def pending_promotions(self) -> list[Promotion]:
        if hasattr(self, "pending_promotion_list"):
            return self.pending_promotion_list
        return list(self.promotions.filter(status=Promotion.Status.PENDING))

    def _prefetched(self, name: str) -> bool:
        return name in getattr(self, "_prefetched_objects_cache", {})

    @property
    def crusade_points(self) -> int:
        """R7: derived from honours and scars, never typed in."""
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

    def facts(self, *, pending: int | None = None) -> rules.UnitFacts:
        """This card as the rules engine sees it."""
        return rules.UnitFacts(
            name=self.name,
            xp=self.xp,
            is_character=self.is_character,
            epic_hero=self.is_epic_hero,
            titanic=self.is_titanic,
            fortification=self.is_fortification,
            swarm=self.is_swarm,
            battleline=self.is_battleline,
            dedicated_transport=self.is_dedicated_transport,
            legendary_veteran=self.legendary_veteran,
            has_enhancement=bool(self.enhancement),
            battle_honours=len(self.active_honours()),
            battle_scars=tuple(s.name for s in self.active_scars()),
            pending_promotions=len(self.pending_promotions()) if pending is None else pending,
        )


class BattleHonour(models.Model):
    """A Battle Honour on a card (R4). Lost honours keep their row with a status."""

    class Category(models.TextChoices):
        BATTLE_TRAIT = "battle_trait", "Battle Trait"
        WEAPON_MODIFICATION = "weapon_modification", "Weapon Modification"
        CRUSADE_RELIC = "crusade_relic", "Crusade Relic"
        CUSTOM = "custom", "Custom honour"

    class Status(models.TextChoices):
        ACTIVE = "active", "Held"
        LOST = "lost", "Lost"
        VOIDED = "voided", "Voided"

    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="honours")
    category = models.CharField(max_length=24, choices=Category.choices)
    name = models.CharField(max_length=120)
    effect = models.TextField(blank=True)
    trait_table = models.CharField(max_length=40, blank=True)
    relic_category = models.CharField(
        max_length=16, blank=True, choices=[(c.value, c.label) for c in rules.RelicCategory]
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
        help_text="The honour this one replaced at the limit (R4.3).",
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
    """A Battle Scar on a card (R5). Removed scars keep their row with a status."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Held"
        REPAIRED = "repaired", "Repaired"
        VOIDED = "voided", "Voided"

    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="scars")
    name = models.CharField(max_length=120)
    effect = models.TextField(blank=True)
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


class Battle(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        COMPLETED = "completed", "Completed"
        VOIDED = "voided", "Voided"

    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.PROTECT, related_name="battles"
    )
    date = models.DateField(default=timezone.localdate)
    battle_size = models.CharField(
        max_length=20,
        choices=[(name, f"{name} ({pts})") for name, pts in rules.BATTLE_SIZES.items()],
    )
    mission = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)
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


class BattleParticipant(models.Model):
    """One force's side of a battle: its mustered army (R8) and its result (R9)."""

    class Result(models.TextChoices):
        WIN = "win", "Victory"
        LOSS = "loss", "Defeat"
        DRAW = "draw", "Draw"

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="participants")
    force = models.ForeignKey(CrusadeForce, on_delete=models.PROTECT, related_name="battle_entries")
    faction = models.CharField(max_length=120, blank=True)
    detachment = models.CharField(max_length=120, blank=True)
    warlord = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    result = models.CharField(max_length=8, choices=Result.choices, blank=True)
    mustered = models.BooleanField(default=False)
    rp_before = models.PositiveIntegerField(null=True, blank=True)
    rp_after = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["battle", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "force"], name="one_entry_per_force")
        ]

    def __str__(self) -> str:
        return f"{self.force} in {self.battle_id}"


class BattleUnit(models.Model):
    """A unit in a mustered army, and what happened to it (R9)."""

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
        help_text="For a Leader: the Bodyguard unit it joins (R8.7).",
    )
    embarked_in = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="passengers",
        help_text="The Dedicated Transport this unit starts in (R8.6).",
    )
    destroyed = models.BooleanField(default=False)
    enemy_units_destroyed = models.PositiveIntegerField(default=0)
    marked_for_greatness = models.BooleanField(default=False)
    bonus_xp = models.PositiveIntegerField(default=0)
    bonus_xp_reason = models.CharField(max_length=255, blank=True)
    # What recording the battle did, kept so a void reverses it exactly.
    xp_before = models.PositiveIntegerField(null=True, blank=True)
    xp_after = models.PositiveIntegerField(null=True, blank=True)
    promotions_earned = models.PositiveIntegerField(default=0)

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


class OutOfActionTest(models.Model):
    """R5: taken by each destroyed unit after a battle."""

    class Status(models.TextChoices):
        PENDING = "pending", "To roll"
        AWAITING_CHOICE = "awaiting_choice", "Failed: choose the outcome"
        DONE = "done", "Done"
        VOIDED = "voided", "Voided"

    class Outcome(models.TextChoices):
        PASSED = "passed", "Passed"
        DEVASTATING_BLOW = "devastating_blow", "Devastating Blow"
        BATTLE_SCAR = "battle_scar", "Battle Scar"
        REMOVED = "removed", "Removed from the Order of Battle"

    battle_unit = models.OneToOneField(
        BattleUnit, on_delete=models.CASCADE, related_name="out_of_action"
    )
    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="out_of_action_tests")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    roll = models.PositiveSmallIntegerField(null=True, blank=True)
    rolled_by_app = models.BooleanField(default=False)
    outcome = models.CharField(max_length=20, choices=Outcome.choices, blank=True)
    honour_lost = models.ForeignKey(
        BattleHonour, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    scar_gained = models.ForeignKey(
        BattleScar, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = "Out of Action test"
        constraints = [
            models.CheckConstraint(
                condition=Q(roll__isnull=True) | Q(roll__gte=1, roll__lte=6),
                name="ooa_roll_is_a_d6",
            )
        ]

    def __str__(self) -> str:
        return f"Out of Action: {self.unit}"


class Promotion(models.Model):
    """R3.7: a rank gained, settled by a Battle Honour or Renowned Heroes."""

    class Status(models.TextChoices):
        PENDING = "pending", "To settle"
        SETTLED = "settled", "Settled"
        VOIDED = "voided", "Voided"

    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="promotions")
    rank = models.PositiveSmallIntegerField(choices=[(r.value, r.label) for r in rules.Rank])
    battle = models.ForeignKey(
        Battle, null=True, blank=True, on_delete=models.PROTECT, related_name="promotions"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    settled_with = models.CharField(max_length=120, blank=True)
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
    requisition = models.CharField(
        max_length=32, choices=[(r.value, r.label) for r in rules.Requisition]
    )
    cost = models.PositiveIntegerField()
    details = models.JSONField(default=dict, blank=True)
    bought_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_requisition_display()} ({self.cost}RP)"


class HistoryEntry(models.Model):
    """One change to the Crusade: who, when, what, and the numbers before and after."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=40, db_index=True)
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

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "history"
        indexes = [
            models.Index(fields=["force", "-created_at"]),
            models.Index(fields=["unit", "-created_at"]),
        ]

    def __str__(self) -> str:
        return self.summary
