"""The campaign page and invitations to join a campaign."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page
from django.db.models import Prefetch

from campaign import rules
from campaign.models import (
    Battle,
    BattleParticipant,
    Campaign,
    CrusadeForce,
    Membership,
    Unit,
    card_prefetches,
)

from .paging import paginate

BATTLES_PER_PAGE = 10


@dataclass(frozen=True)
class Standing:
    force: CrusadeForce
    crusade_points: int
    units: int

    @property
    def name(self) -> str:
        return self.force.name

    @property
    def victories(self) -> int:
        return self.force.victories


def rank_standings(standings: list[Standing]) -> list[Standing]:
    """Order standings as the rules' ``STANDINGS_ORDER`` says ("-field" is descending)."""
    ranked = list(standings)
    for key in reversed(rules.STANDINGS_ORDER):
        name = key.removeprefix("-")
        ranked.sort(key=lambda s, name=name: getattr(s, name), reverse=key.startswith("-"))
    return ranked


@dataclass(frozen=True)
class CampaignOverview:
    campaign: Campaign
    can_write: bool
    """The user organises the campaign (they change it in the admin)."""
    members: list[Membership]
    standings: list[Standing]
    battles: Page

    @property
    def recent_battles(self) -> list[Battle]:
        return list(self.battles.object_list)

    def has_force(self, user) -> bool:
        return any(s.force.player_id == user.pk for s in self.standings)


def campaign_overview(
    campaign: Campaign,
    *,
    can_write: bool = False,
    page: int | str | None = None,
    per_page: int = BATTLES_PER_PAGE,
) -> CampaignOverview:
    """Members, standings and a page of battles in a fixed number of queries."""
    members = list(campaign.memberships.select_related("user").order_by("role", "user__username"))
    forces = (
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
    battles = (
        campaign.battles.exclude(status=Battle.Status.VOIDED)
        .prefetch_related(
            Prefetch("participants", queryset=BattleParticipant.objects.select_related("force"))
        )
        .order_by("-date", "-pk")
    )
    return CampaignOverview(
        campaign=campaign,
        can_write=can_write,
        members=members,
        standings=rank_standings(standings),
        battles=paginate(battles, page, per_page=per_page),
    )


@dataclass(frozen=True)
class Invitation:
    campaign: Campaign
    member: bool
    """The user is in the campaign already."""


def invitation(code: str, user) -> Invitation | None:
    """The campaign an invitation code opens, or None for a code nobody issued."""
    campaign = Campaign.objects.filter(invite_code=code.strip()).first()
    if campaign is None:
        return None
    member = user.is_authenticated and campaign.memberships.filter(user_id=user.pk).exists()
    return Invitation(campaign, member)
