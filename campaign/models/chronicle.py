"""The campaign's story: log entries written by its organisers and players."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from .battles import Battle
from .campaigns import Campaign
from .phases import Phase
from .territories import Territory

STORY_LENGTH = 10_000
"""Most characters in one entry: a few pages of a battle report."""


class LogEntry(models.Model):
    """One entry of the campaign's log: a title, a text with a few Markdown marks, an
    optional picture, and what it tells of (a battle, a territory, a phase). An organiser
    hides an entry (a status, with a reason); nothing is deleted."""

    class Status(models.TextChoices):
        SHOWN = "shown", "Shown"
        HIDDEN = "hidden", "Hidden by an organiser"

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="log_entries")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    title = models.CharField(max_length=120)
    text = models.TextField(max_length=STORY_LENGTH)
    picture = models.ImageField(upload_to="chronicle/", blank=True)
    battle = models.ForeignKey(
        Battle, null=True, blank=True, on_delete=models.PROTECT, related_name="log_entries"
    )
    territory = models.ForeignKey(
        Territory, null=True, blank=True, on_delete=models.PROTECT, related_name="log_entries"
    )
    phase = models.ForeignKey(
        Phase, null=True, blank=True, on_delete=models.PROTECT, related_name="log_entries"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SHOWN)
    hidden_reason = models.CharField(max_length=500, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hidden_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    edited_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "log entry"
        verbose_name_plural = "log entries"
        indexes = [
            models.Index(fields=["campaign", "status", "-created_at", "-id"], name="log_newest"),
            # The dashboard's count of a month's new entries by others, from the index
            # alone (`selectors.since`): from the table, it read every entry of the month.
            models.Index(fields=["campaign", "status", "created_at", "author"], name="log_news"),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("log_entry", args=[self.pk])

    @property
    def is_hidden(self) -> bool:
        return self.status == self.Status.HIDDEN
