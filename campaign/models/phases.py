"""A narrative campaign's structure: its phases and its alliances."""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.db import models
from django.utils import timezone

from campaign import rules
from campaign.bounds import BoundedPositiveIntegerField, between, count

from ._common import MOST_TALLY, NOTE_LENGTH
from .battles import battle_size_choices
from .campaigns import Campaign

MOST_PHASES = 50
"""A season has a handful of phases; fifty is far past any book."""
MOST_PHASE_POINTS = 10_000
"""A phase's points limit: a few thousand in every book."""
MOST_CAMPAIGN_POINTS = 1_000_000
"""A force's or alliance's Campaign Points over a whole campaign."""
COLOUR = RegexValidator(r"^#[0-9a-fA-F]{6}$", "A colour like #3366cc: # and six hex digits.")


class Phase(models.Model):
    """One phase of a campaign: a chapter of its story, with its own battle size.

    The campaign's ``current_phase`` is the one being played; every battle started belongs
    to the phase current then (`Battle.phase`)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="phases")
    position = BoundedPositiveIntegerField(
        validators=between(1, MOST_PHASES), help_text="Phases are played in this order: 1 first."
    )
    name = models.CharField(max_length=80)
    narrative = models.TextField(blank=True, max_length=NOTE_LENGTH)
    battle_size = models.CharField(
        max_length=20,
        choices=battle_size_choices,
        blank=True,
        help_text="What Start a battle suggests during this phase (a different size is "
        "allowed, with a warning).",
    )
    points_limit = count(
        MOST_PHASE_POINTS,
        null=True,
        blank=True,
        least=1,
        help_text="Optional: the points each army may field during this phase.",
    )
    started_at = models.DateTimeField(null=True, blank=True, editable=False)
    ended_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["campaign", "position"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "position"], name="one_phase_per_position")
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.name}"

    @property
    def is_over(self) -> bool:
        return self.ended_at is not None

    @property
    def suggested_battle_size(self) -> str:
        """The battle size the phase is played at: its own, else the smallest size whose
        points cover its points limit ("" when it names neither, or none covers it)."""
        if self.battle_size:
            return self.battle_size
        if self.points_limit:
            covering = [
                (points, size)
                for size, points in rules.BATTLE_SIZES.items()
                if points >= self.points_limit
            ]
            if covering:
                return min(covering)[1]
        return ""


class Alliance(models.Model):
    """A side of a campaign that forces join: its own, or copied from an enabled pack
    (``pack_item`` names where it came from)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="alliances")
    name = models.CharField(max_length=80)
    colour = models.CharField(
        max_length=7, default="#666666", validators=[COLOUR], help_text="e.g. #3366cc"
    )
    description = models.TextField(blank=True, max_length=NOTE_LENGTH)
    pack_item = models.ForeignKey(
        "campaign.CustomContent",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The pack's alliance this one was made from, if any.",
    )
    retired = models.BooleanField(
        default=False, help_text="No force can pick it any more; its past stays."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            # The colour's pattern is checked by the field's validator: a regex constraint
            # would need a REGEXP function that a plain SQLite connection (a backup's
            # integrity check) does not have.
            models.UniqueConstraint(fields=["campaign", "name"], name="one_alliance_per_name"),
        ]

    def __str__(self) -> str:
        return self.name


class AllianceTotal(models.Model):
    """An alliance's battles, wins and Campaign Points in one phase (``phase`` None: the
    battles before the first phase), kept by the services that complete and void battles
    (`services.campaign_points`): the campaign page reads a row per alliance and phase
    instead of adding up every side of the phase being played at each look.

    A battle counts once for each alliance with a side in it, as won if any of those
    sides won, for the Campaign Points those sides scored."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    alliance = models.ForeignKey(Alliance, on_delete=models.CASCADE, related_name="totals")
    phase = models.ForeignKey(Phase, null=True, on_delete=models.CASCADE, related_name="+")
    battles = count(MOST_TALLY, default=0)
    wins = count(MOST_TALLY, default=0)
    campaign_points = count(MOST_CAMPAIGN_POINTS, default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["alliance", "phase"],
                condition=models.Q(phase__isnull=False),
                name="one_alliance_total_per_phase",
            ),
            models.UniqueConstraint(
                fields=["alliance"],
                condition=models.Q(phase__isnull=True),
                name="one_alliance_total_before_phases",
            ),
        ]
        indexes = [models.Index(fields=["campaign"], name="alliance_total_campaign")]

    def __str__(self) -> str:
        return f"{self.alliance}: {self.battles} battles"
