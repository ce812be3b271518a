"""A player's own settings: which emails they get, and how far they have read the news
of their campaigns on the dashboard. Not Crusade state (see `campaign.players`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class EmailKind(models.TextChoices):
    """Every kind of email the worker sends (`campaign.tasks`); a player turns each off
    or on. The value names the `PlayerSettings` field (``email_<value>``); the label ends
    "Emails when ..."."""

    BATTLE_INVITATION = "battle_invitation", "someone invites one of your forces to a battle"
    TURN_TO_RECORD = "turn_to_record", "your opponent has recorded a battle and it is your turn"
    DISPUTE = "dispute", "the results recorded for one of your battles disagree"
    CAMPAIGN_INVITATION = "campaign_invitation", "an organiser invites you to a campaign"

    @property
    def field(self) -> str:
        return f"email_{self.value}"

    @property
    def when(self) -> str:
        """Emails when ...: what the settings and the link in each email say."""
        return f"Emails when {self.label}"


class PlayerSettings(models.Model):
    """One player's settings, made the first time they are needed: a player without a
    row gets every email and has read nothing yet."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="player_settings",
    )
    email_battle_invitation = models.BooleanField(
        "Invitations to a battle", default=True, help_text=EmailKind.BATTLE_INVITATION.when
    )
    email_turn_to_record = models.BooleanField(
        "Your turn to record", default=True, help_text=EmailKind.TURN_TO_RECORD.when
    )
    email_dispute = models.BooleanField(
        "Results that disagree", default=True, help_text=EmailKind.DISPUTE.when
    )
    email_campaign_invitation = models.BooleanField(
        "Invitations to a campaign", default=True, help_text=EmailKind.CAMPAIGN_INVITATION.when
    )
    seen_up_to = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="The dashboard's news shows what happened after this.",
    )
    looked_at = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="The player's last look at the dashboard."
    )

    class Meta:
        verbose_name = "player's settings"
        verbose_name_plural = "players' settings"

    def __str__(self) -> str:
        return f"Settings of {self.user}"

    def wants(self, kind: EmailKind | str) -> bool:
        return getattr(self, EmailKind(kind).field)
