"""Pack counters held by forces and units, pack upgrades on cards, and pack Requisitions
bought.

A counter's value is kept only once it has changed: a force (or unit) without a row for a
counter holds the counter's start value. Counters change only through the services of
`campaign.services.counters` (a pack Requisition, an organiser's correction) and the
others the counters' rules name, each with a history row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from campaign.bounds import Bounded, between, count

from ._common import EFFECT_LENGTH, MOST_RP
from .forces import CrusadeForce, Unit
from .packs import CustomContent

MOST_PACK_COST = 20
"""The largest cost a pack Requisition may have (the pack format's bound)."""
COUNTER_LEAST, COUNTER_MOST = -1000, 1000
"""The widest bounds a pack may give a counter (the pack format's): each counter's own
bounds are checked by the services."""


class BoundedIntegerField(Bounded, models.IntegerField):
    pass


class CounterValue(models.Model):
    """What one force (``unit`` empty) or one of its units holds of a pack counter."""

    counter = models.ForeignKey(
        CustomContent,
        on_delete=models.PROTECT,
        related_name="counter_values",
        limit_choices_to={"kind": CustomContent.Kind.COUNTER},
    )
    force = models.ForeignKey(CrusadeForce, on_delete=models.CASCADE, related_name="counters")
    unit = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.CASCADE, related_name="counters"
    )
    value = BoundedIntegerField(validators=between(COUNTER_LEAST, COUNTER_MOST))
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["force", "unit", "counter__position", "pk"]
        verbose_name = "counter"
        constraints = [
            models.UniqueConstraint(
                fields=["counter", "force"],
                condition=Q(unit__isnull=True),
                name="counter_once_per_force",
                violation_error_message="The force already has a value for this counter.",
            ),
            models.UniqueConstraint(
                fields=["counter", "unit"],
                condition=Q(unit__isnull=False),
                name="counter_once_per_unit",
                violation_error_message="The unit already has a value for this counter.",
            ),
        ]

    def __str__(self) -> str:
        holder = self.unit.name if self.unit_id else self.force.name
        return f"{self.counter.name} of {holder}: {self.value}"


class UnitUpgrade(models.Model):
    """A pack upgrade a unit gained (by a pack Requisition, or restored with its card).

    Its name, effect and Crusade points are kept as they were when it was gained."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Held"
        LOST = "lost", "Lost"

    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="upgrades")
    upgrade = models.ForeignKey(
        CustomContent,
        on_delete=models.PROTECT,
        related_name="unit_upgrades",
        limit_choices_to={"kind": CustomContent.Kind.UPGRADE},
    )
    name = models.CharField(max_length=120)
    effect = models.TextField(blank=True, max_length=EFFECT_LENGTH)
    crusade_points = count(3, default=0)
    gained_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)

    class Meta:
        ordering = ["unit", "gained_at", "pk"]
        verbose_name = "unit upgrade"
        constraints = [
            models.UniqueConstraint(
                fields=["unit", "upgrade"],
                name="upgrade_once_per_unit",
                violation_error_message="The unit already has this upgrade.",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PackRequisitionPurchase(models.Model):
    """A pack Requisition bought: what it cost, in what, and what it did."""

    force = models.ForeignKey(
        CrusadeForce, on_delete=models.PROTECT, related_name="pack_requisitions"
    )
    unit = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.PROTECT, related_name="pack_requisitions"
    )
    requisition = models.ForeignKey(
        CustomContent,
        on_delete=models.PROTECT,
        related_name="purchases",
        limit_choices_to={"kind": CustomContent.Kind.REQUISITION},
    )
    name = models.CharField(max_length=120)
    cost = count(max(MOST_PACK_COST, MOST_RP), default=0)
    cost_in = models.CharField(max_length=40, help_text='"rp", or the id of a force counter.')
    effect = models.TextField(
        blank=True, max_length=EFFECT_LENGTH, help_text="What it did, as its pack says."
    )
    details = models.JSONField(default=dict, blank=True)
    bought_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "pack Requisition bought"
        verbose_name_plural = "pack Requisitions bought"

    def __str__(self) -> str:
        return f"{self.name} ({self.cost_label})"

    @property
    def cost_label(self) -> str:
        if self.cost_in == "rp":
            return f"{self.cost}RP"
        return f"{self.cost} {self.details.get('cost_name', self.cost_in)}"
