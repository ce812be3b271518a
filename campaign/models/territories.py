"""A campaign's map: territories on a hex grid, their neighbours, and who holds them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from campaign.bounds import BoundedPositiveSmallIntegerField, between
from campaign.maps.spec import MAP_COLUMNS, MAP_ROWS, MOST_TERRITORIES

from ._common import NOTE_LENGTH
from .battles import Battle
from .campaigns import Campaign
from .phases import Alliance, Phase

__all__ = ["MAP_COLUMNS", "MAP_ROWS", "MOST_TERRITORIES", "Territory", "TerritoryChange"]


class Territory(models.Model):
    """A place on the campaign's map. ``held_by`` is who holds it now; every change of
    hands is a `TerritoryChange`, so the map can be drawn as it stood at any time."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="territories")
    key = models.SlugField(max_length=40, help_text="Its id in a map file.")
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, max_length=NOTE_LENGTH)
    column = BoundedPositiveSmallIntegerField(validators=between(0, MAP_COLUMNS - 1))
    row = BoundedPositiveSmallIntegerField(validators=between(0, MAP_ROWS - 1))
    neighbours = models.ManyToManyField("self", blank=True, symmetrical=True)
    held_by = models.ForeignKey(
        Alliance, null=True, blank=True, on_delete=models.PROTECT, related_name="territories"
    )
    control_points = models.JSONField(
        default=dict,
        blank=True,
        editable=False,
        help_text='Under a control-points rule: points by alliance id, {"3": 2}.',
    )

    class Meta:
        ordering = ["campaign", "row", "column"]
        verbose_name_plural = "territories"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="one_territory_per_key"),
            models.UniqueConstraint(
                fields=["campaign", "column", "row"], name="one_territory_per_hex"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TerritoryChange(models.Model):
    """One change of who holds a territory (or of its control points): by a battle's end,
    a void, or an organiser. Never edited; a void writes a change of its own."""

    territory = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="changes")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    phase = models.ForeignKey(
        Phase, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    battle = models.ForeignKey(
        Battle, null=True, blank=True, on_delete=models.PROTECT, related_name="territory_changes"
    )
    held_before = models.ForeignKey(
        Alliance, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    held_after = models.ForeignKey(
        Alliance, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    points_before = models.JSONField(default=dict, blank=True)
    points_after = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["campaign", "-created_at", "-id"], name="map_changes_newest")
        ]

    def __str__(self) -> str:
        return f"{self.territory}: {self.held_before or 'nobody'} -> {self.held_after or 'nobody'}"
