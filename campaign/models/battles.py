"""Battles, the armies and units in them, Out of Action tests and promotions."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from campaign import rules
from campaign.bounds import (
    BoundedPositiveSmallIntegerField,
    between,
    count,
)

from ._common import D6, MOST_RP, MOST_TALLY, rules_choices
from .campaigns import Campaign
from .forces import BattleHonour, BattleScar, CrusadeForce, Unit

MOST_CAMPAIGN_POINTS_PER_BATTLE = 200
"""A win and a territory, at the most a campaign may score them."""


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
    LISTED_STATUSES = (Status.IN_PROGRESS, Status.DISPUTED, Status.COMPLETED)
    """Fought or being fought (all but the voided and the cancelled): what the campaign's
    list of battles shows. Named rather than "not voided or cancelled": PostgreSQL plans
    a prepared query once, and for "not in" it guessed almost no battle matches, so it
    sorted the league's battles instead of reading the newest through their index (0.9
    ms against 0.1)."""

    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.PROTECT, related_name="battles"
    )
    date = models.DateField(default=timezone.localdate)
    battle_size = models.CharField(max_length=20, choices=battle_size_choices)
    mission = models.CharField(max_length=120, blank=True)
    phase = models.ForeignKey(
        "campaign.Phase",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="battles",
        help_text="The campaign's phase when the battle started.",
    )
    territory = models.ForeignKey(
        "campaign.Territory",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="battles",
        help_text="The territory of the campaign's map fought over, if any.",
    )
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
        indexes = [
            # A campaign's battles newest first (its lists and the admin's): read from the
            # index rather than sorted, thousands of them for a page of fifty.
            models.Index(fields=["campaign", "-date", "-id"], name="battle_campaign_newest"),
            # What the campaign page's cached parts are kept under (`selectors.versions`):
            # its newest battle over a territory, and how many are completed or voided,
            # read from these alone rather than from every battle of the league on each
            # look.
            models.Index(
                fields=["campaign", "id"],
                condition=Q(territory__isnull=False),
                name="battle_campaign_fought_over",
            ),
            # ... and, by their phase, the battles a phase completed (the alliances'
            # totals of the phase being played, added up again after each battle).
            models.Index(
                fields=["campaign", "status", "phase"], name="battle_campaign_status_phase"
            ),
        ]

    def __str__(self) -> str:
        return self.named(p.force.name for p in self.participants.all())

    def get_absolute_url(self) -> str:
        return reverse("battle_detail", args=[self.pk])

    def named(self, forces: Iterable[str]) -> str:
        """The battle's name, given its sides' force names (`__str__` reads them)."""
        names = " vs ".join(forces)
        return f"{self.battle_size} on {self.date:%d %b %Y}" + (f": {names}" if names else "")

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
    alliance = models.ForeignKey(
        "campaign.Alliance",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sides",
        help_text="The alliance this side fought for, fixed when the battle completed.",
    )
    campaign_points = count(
        MOST_CAMPAIGN_POINTS_PER_BATTLE,
        default=0,
        editable=False,
        help_text="Campaign Points this side scored, once the battle completed.",
    )
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
        indexes = [
            # A force's wins and the battles they were won in, read from the index alone:
            # the standings' chart asks for the wins of the top forces after each battle
            # one of them wins (`selectors.charts`), and from the table it visited a page
            # for each side the force ever played.
            models.Index(fields=["force", "result", "battle"], name="side_force_result"),
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
        indexes = [
            # A card's last battles (`selectors.charts`), newest first, with what its XP
            # chart draws of each: read from the index alone, however long the league.
            models.Index(
                fields=["unit", "-id"],
                include=["participant", "xp_before", "xp_after"],
                name="battleunit_unit_newest",
            ),
        ]
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
