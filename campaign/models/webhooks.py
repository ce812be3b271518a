"""Announcements of a campaign's news to its group's chat: the webhooks an organiser adds,
and one delivery row for each message sent to one of them (`campaign.webhooks`)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from campaign.addresses import validate_address

from .campaigns import Campaign


def new_secret() -> str:
    return secrets.token_hex(32)


class HttpsURLField(models.URLField):
    """An address whose form field reads one typed without a scheme as https."""

    def formfield(self, **kwargs):
        return super().formfield(**{"assume_scheme": "https", **kwargs})

    def deconstruct(self) -> tuple:
        """Migrations name Django's own field: this changes the form, not the column."""
        name, _, args, kwargs = super().deconstruct()
        return name, "django.db.models.URLField", args, kwargs


class Webhook(models.Model):
    """Where a campaign's news is posted: a Discord channel's webhook, or any address that
    takes a JSON body signed with the webhook's own secret. An organiser adds, changes,
    pauses and resumes it through `services.webhooks`; one that keeps failing is paused
    by the worker, with the reason."""

    class Kind(models.TextChoices):
        DISCORD = "discord", "Discord webhook"
        SIGNED_JSON = "json", "Any address: JSON signed with the secret"

    EVENT_FIELDS = (
        "on_battle",
        "on_dispute",
        "on_promotion",
        "on_newcomer",
        "on_log_entry",
        "on_phase",
    )
    """The news it may announce, one box each (`campaign.webhooks.events`)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="webhooks")
    name = models.CharField(
        max_length=80, help_text="For you: where the messages go, e.g. “Discord #crusade”."
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.DISCORD)
    url = HttpsURLField(
        "address",
        max_length=500,
        validators=[validate_address],
        help_text="The webhook's address: for Discord, Channel settings → Integrations → "
        "Webhooks → Copy Webhook URL. Only https addresses on the public internet.",
    )
    secret = models.CharField(
        "signing secret",
        max_length=64,
        default=new_secret,
        editable=False,
        help_text="Each JSON message carries the header X-Crusade-Signature: sha256= and the "
        "HMAC-SHA256 of the body with this secret, in hex. Discord ignores it.",
    )
    on_battle = models.BooleanField(
        "battles completed",
        default=True,
        help_text="The result, and for each side the XP gained, promotions and units "
        "out of action.",
    )
    on_dispute = models.BooleanField(
        "disputes", default=True, help_text="Results that disagree, and the organiser settling."
    )
    on_promotion = models.BooleanField("promotions to the two highest ranks", default=True)
    on_newcomer = models.BooleanField(
        "new members and forces", default=True, help_text="A player joins; a force musters."
    )
    on_log_entry = models.BooleanField("campaign log entries", default=True)
    on_phase = models.BooleanField("the next phase begins", default=True)
    site_url = models.URLField(
        "links to",
        max_length=200,
        blank=True,
        editable=False,
        help_text="The site the messages link back to: the SITE_URL setting, or else the "
        "address the admin was used at when the webhook was saved.",
    )
    paused_at = models.DateTimeField(null=True, blank=True, editable=False)
    paused_reason = models.CharField("paused because", max_length=500, blank=True, editable=False)
    failures_in_row = models.PositiveSmallIntegerField(
        default=0,
        editable=False,
        help_text="Messages given up on one after another; a delivered message sets it to 0.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "name", "pk"]
        indexes = [models.Index(fields=["campaign", "paused_at"], name="webhook_campaign_active")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    @property
    def signs(self) -> bool:
        return self.kind == self.Kind.SIGNED_JSON


class WebhookDelivery(models.Model):
    """One message for one webhook: the body sent (the same on every try), and how its
    tries went. Written only by the worker (`campaign.webhooks.tasks`)."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting to be sent"
        RETRYING = "retrying", "Failed; tried again later"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Refused by the address; not tried again"
        GAVE_UP = "gave_up", "Given up after every try"
        SKIPPED = "skipped", "Not sent: the webhook is paused"

    OPEN = (Status.WAITING, Status.RETRYING)

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    title = models.CharField(max_length=300)
    body = models.TextField(help_text="The JSON sent, the same on every try.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    tries = models.PositiveSmallIntegerField(default=0, editable=False)
    response_code = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_tried_at = models.DateTimeField(null=True, blank=True)
    next_try_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "webhook deliveries"
        indexes = [models.Index(fields=["webhook", "-created_at"], name="delivery_newest")]

    def __str__(self) -> str:
        return self.title

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN
