"""Read-side queries for pages: a constant number of queries whatever the force's size."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Prefetch

from campaign.models import (
    Battle,
    BattleParticipant,
    Campaign,
    CrusadeForce,
    HistoryEntry,
    Membership,
    OutOfActionTest,
    Unit,
    card_prefetches,
)


@dataclass
class OrderOfBattle:
    force: CrusadeForce
    units: list[Unit]
    removed: list[Unit]
    in_battle: bool
    pending_tests: list[OutOfActionTest]

    @property
    def supply_percent(self) -> int:
        if not self.force.supply_limit:
            return 100
        return min(100, round(100 * self.force.supply_used / self.force.supply_limit))

    @property
    def at_supply_limit(self) -> bool:
        return self.force.supply_used >= self.force.supply_limit

    @property
    def pending_promotions(self):
        return [p for u in self.units for p in u.pending_promotions()]


def order_of_battle(force: CrusadeForce) -> OrderOfBattle:
    """The Order of Battle page's data in six queries."""
    force = (
        CrusadeForce.objects.with_supply_used()
        .select_related("player", "campaign")
        .get(pk=force.pk)
    )
    units = list(force.units.with_card_details().order_by("name"))
    for unit in units:
        unit.force = force
    in_battle = force.battle_entries.filter(battle__status=Battle.Status.IN_PROGRESS).exists()
    pending_tests = list(
        OutOfActionTest.objects.filter(
            unit__force=force,
            status__in=[OutOfActionTest.Status.PENDING, OutOfActionTest.Status.AWAITING_CHOICE],
        ).select_related("unit")
    )
    return OrderOfBattle(
        force=force,
        units=[u for u in units if u.is_active],
        removed=[u for u in units if not u.is_active],
        in_battle=in_battle,
        pending_tests=pending_tests,
    )


@dataclass
class Standing:
    force: CrusadeForce
    crusade_points: int
    units: int


@dataclass
class CampaignOverview:
    campaign: Campaign
    members: list[Membership]
    standings: list[Standing]
    recent_battles: list[Battle] = field(default_factory=list)


def campaign_overview(campaign: Campaign, *, battles: int = 10) -> CampaignOverview:
    """Members, standings and recent battles in a fixed number of queries."""
    members = list(campaign.memberships.select_related("user").order_by("role", "user__username"))
    forces = list(
        campaign.forces.with_supply_used()
        .select_related("player")
        .prefetch_related(
            Prefetch(
                "units",
                queryset=Unit.objects.active().prefetch_related(*card_prefetches()),
                to_attr="active_units",
            )
        )
    )
    standings = [
        Standing(
            force=force,
            crusade_points=sum(u.crusade_points for u in force.active_units),
            units=len(force.active_units),
        )
        for force in forces
    ]
    standings.sort(key=lambda s: (-s.force.victories, -s.crusade_points, s.force.name))
    recent = list(
        campaign.battles.exclude(status=Battle.Status.VOIDED)
        .prefetch_related(
            Prefetch("participants", queryset=BattleParticipant.objects.select_related("force"))
        )
        .order_by("-date", "-pk")[:battles]
    )
    return CampaignOverview(campaign, members, standings, recent)


def unit_timeline(unit: Unit, *, limit: int = 50) -> list[HistoryEntry]:
    return list(
        unit.history.select_related("actor", "battle").order_by("-created_at", "-pk")[:limit]
    )


def force_history(force: CrusadeForce, *, limit: int = 100) -> list[HistoryEntry]:
    return list(
        force.history.select_related("actor", "unit", "battle").order_by("-created_at", "-pk")[
            :limit
        ]
    )


@dataclass
class Dashboard:
    forces: list[CrusadeForce]
    memberships: list[Membership]
    promotions: list
    tests: list[OutOfActionTest]
    battles: list[BattleParticipant]

    @property
    def pending_count(self) -> int:
        return len(self.promotions) + len(self.tests) + len(self.battles)


def dashboard(user) -> Dashboard:
    """Everything a player sees first, in a fixed number of queries."""
    from campaign.models import Promotion

    forces = list(
        CrusadeForce.objects.with_supply_used()
        .filter(player=user)
        .select_related("campaign")
        .order_by("name")
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
        ).select_related("unit", "unit__force")
    )
    tests = list(
        OutOfActionTest.objects.filter(
            unit__force__player=user,
            status__in=[OutOfActionTest.Status.PENDING, OutOfActionTest.Status.AWAITING_CHOICE],
        ).select_related("unit", "unit__force")
    )
    battles = list(
        BattleParticipant.objects.filter(
            force__player=user, battle__status=Battle.Status.IN_PROGRESS
        ).select_related("battle", "force")
    )
    return Dashboard(forces, memberships, promotions, tests, battles)
