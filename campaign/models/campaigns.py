"""Campaigns, their members and their invitations."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from campaign import rules
from campaign.bounds import count

from ._common import (
    LEAST_RP_CAP,
    NOTE_LENGTH,
    house_rule,
    new_invite_code,
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


class TerritoryRule(models.TextChoices):
    WINNER_TAKES = "winner_takes", "The winner's alliance takes the territory"
    CONTROL_POINTS = "control_points", "The winner's alliance gains a control point; enough take it"


MOST_SCORE = 100
"""Campaign Points for one battle's result or territory."""
MOST_CONTROL = 20


class Campaign(Named):
    """A campaign run by organisers; its house rules default to the rulebook's numbers."""

    TerritoryRule = TerritoryRule

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
    map_name = models.CharField(
        max_length=80, blank=True, editable=False, help_text="The name of its map's file."
    )
    map_description = models.TextField(
        blank=True, max_length=NOTE_LENGTH, editable=False, help_text="Its map's story."
    )
    current_phase = models.ForeignKey(
        "campaign.Phase",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The phase being played: new battles belong to it.",
    )
    points_for_win = count(MOST_SCORE, "Campaign Points for a win", default=3)
    points_for_draw = count(MOST_SCORE, "Campaign Points for a draw", default=1)
    points_for_loss = count(MOST_SCORE, "Campaign Points for a loss", default=0)
    points_for_taking = count(
        MOST_SCORE,
        "Campaign Points for taking a territory",
        default=1,
        help_text="To the winner of a battle over a territory their alliance did not hold.",
    )
    points_for_holding = count(
        MOST_SCORE,
        "Campaign Points for holding a territory",
        default=0,
        help_text="To the winner of a battle over a territory their alliance already held.",
    )
    territory_rule = models.CharField(
        max_length=16,
        choices=TerritoryRule.choices,
        default=TerritoryRule.WINNER_TAKES,
        help_text="How a battle over a territory changes who holds it.",
    )
    control_threshold = count(
        MOST_CONTROL,
        default=3,
        least=1,
        help_text="Under the control-points rule: points an alliance needs to take a territory.",
    )
    attack_from_held = models.BooleanField(
        "attack only from held ground",
        default=False,
        help_text="A battle may only be fought over a territory the starting player's "
        "alliance holds, or one bordering a territory it holds.",
    )
    revision = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text="How many history rows name the campaign and no force: with its forces' "
        "revisions, it names the state its page shows.",
    )

    HOUSE_RULE_FIELDS = ("starting_supply_limit", "starting_rp", "rp_cap", "supply_limit_increase")
    DETAIL_FIELDS = ("name", "description")
    SCORING_FIELDS = (
        "points_for_win",
        "points_for_draw",
        "points_for_loss",
        "points_for_taking",
        "points_for_holding",
    )
    MAP_RULE_FIELDS = ("territory_rule", "control_threshold", "attack_from_held")

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
