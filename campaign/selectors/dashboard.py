"""The player's dashboard: their forces and campaigns, and everything waiting for them."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from campaign.models import (
    Battle,
    BattleParticipant,
    CrusadeForce,
    Membership,
    OutOfActionTest,
    Promotion,
    Unit,
)


@dataclass(frozen=True)
class Dashboard:
    forces: list[CrusadeForce]
    memberships: list[Membership]
    promotions: list[Promotion]
    tests: list[OutOfActionTest]
    battles: list[BattleParticipant]

    @property
    def pending_count(self) -> int:
        return len(self.promotions) + len(self.tests) + len(self.battles)


def dashboard(user) -> Dashboard:
    """Everything a player sees first, in a fixed number of queries."""
    forces = list(
        CrusadeForce.objects.filter(player=user).select_related("campaign").order_by("name")
    )
    memberships = list(
        Membership.objects.filter(user=user)
        .select_related("campaign")
        .annotate(force_count=Count("campaign__forces", distinct=True))
        .order_by("campaign__name")
    )
    promotions = list(
        Promotion.objects.filter(
            unit__force__player=user,
            unit__status=Unit.Status.ACTIVE,
            status=Promotion.Status.PENDING,
        ).select_related("unit__force")
    )
    tests = list(
        OutOfActionTest.objects.open()
        .filter(unit__force__player=user)
        .select_related("unit__force")
    )
    battles = list(
        BattleParticipant.objects.filter(
            force__player=user, battle__status=Battle.Status.IN_PROGRESS
        ).select_related("battle", "force")
    )
    return Dashboard(forces, memberships, promotions, tests, battles)
