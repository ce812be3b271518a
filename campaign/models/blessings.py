"""Crusade Blessings the underdog of a battle picked."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from .battles import BattleParticipant
from .packs import CustomContent


class BlessingPick(models.Model):
    """One Crusade Blessing picked for one side of a battle, by its player, before
    recording. Picking again before recording replaces the side's picks (a history row
    keeps the old ones); voiding the battle keeps them as a record: they change no numbers.
    """

    participant = models.ForeignKey(
        BattleParticipant, on_delete=models.CASCADE, related_name="blessing_picks"
    )
    blessing = models.ForeignKey(
        CustomContent,
        on_delete=models.PROTECT,
        related_name="+",
        limit_choices_to={"kind": CustomContent.Kind.BLESSING},
    )
    picked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    picked_at = models.DateTimeField(default=timezone.now)
    gap = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="How many Crusade points the side had fewer when it picked.",
    )

    class Meta:
        ordering = ["participant", "blessing__position", "pk"]
        verbose_name = "Blessing picked"
        verbose_name_plural = "Blessings picked"
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "blessing"], name="blessing_picked_once_per_side"
            )
        ]

    def __str__(self) -> str:
        return self.blessing.name
