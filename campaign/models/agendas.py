"""Agendas in play: the Agendas a side picks at muster, and what its units
achieved, kept as rows so a void or a settlement moves their XP and tallies exactly."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from campaign.bounds import count

from ._common import MOST_TALLY
from .battles import BattleParticipant, BattleUnit
from .packs import CustomContent


class AgendaPick(models.Model):
    """An Agenda one side picked for a battle when it mustered."""

    participant = models.ForeignKey(
        BattleParticipant, on_delete=models.CASCADE, related_name="agenda_picks"
    )
    agenda = models.ForeignKey(CustomContent, on_delete=models.PROTECT, related_name="picks")

    class Meta:
        ordering = ["participant", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "agenda"], name="agenda_picked_once_per_side"
            )
        ]

    def __str__(self) -> str:
        return self.agenda.name


class AgendaAchievement(models.Model):
    """One unit's achievement of one picked Agenda in one battle: how many times, and the
    XP it gave within the caps once the battle was applied (0 until then)."""

    battle_unit = models.ForeignKey(
        BattleUnit, on_delete=models.CASCADE, related_name="agenda_achievements"
    )
    agenda = models.ForeignKey(CustomContent, on_delete=models.PROTECT, related_name="achievements")
    times = count(MOST_TALLY, default=1)
    xp_gained = count(MOST_TALLY, default=0)
    tally_gained = count(MOST_TALLY, default=0, help_text="What it added to the Agenda tally.")

    class Meta:
        ordering = ["battle_unit", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["battle_unit", "agenda"], name="agenda_achieved_once_per_entry"
            ),
            models.CheckConstraint(condition=Q(times__gte=1), name="agenda_achieved_at_least_once"),
        ]

    def __str__(self) -> str:
        return f"{self.agenda.name} x{self.times}"
