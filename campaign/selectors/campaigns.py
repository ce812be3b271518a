"""The campaign page and invitations to join a campaign."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page
from django.db.models import Exists, OuterRef, Prefetch, Q

from campaign import rules
from campaign.models import Battle, BattleParticipant, Campaign, CrusadeForce, Membership

from .charts import StandingsHistory, standings_history
from .paging import paginate

BATTLES_PER_PAGE = 10
STANDINGS_PER_PAGE = 20
"""A league of a hundred forces is shown twenty at a time: the page stays as quick."""


def sides_shown():
    """The sides a list of battles names: not those who declined or were un-invited."""
    left = [BattleParticipant.Invitation.DECLINED, BattleParticipant.Invitation.WITHDRAWN]
    return BattleParticipant.objects.exclude(invitation__in=left).select_related("force")


@dataclass(frozen=True)
class Standing:
    force: CrusadeForce
    crusade_points: int
    units: int
    position: int = 0
    """1 for the leading force."""

    @property
    def name(self) -> str:
        return self.force.name

    @property
    def victories(self) -> int:
        return self.force.victories


@dataclass(frozen=True)
class CampaignOverview:
    campaign: Campaign
    can_write: bool
    """The user organises the campaign (they change it in the admin)."""
    members: list[Membership]
    """Organisers, and members who have not raised a force here yet (the others are in
    the standings, with their forces)."""
    member_count: int
    standings_page: Page
    standings: list[Standing]
    """This page of the standings."""
    my_forces: list[CrusadeForce]
    """The user's own forces in the campaign, wherever they stand."""
    battles: Page
    standings_history: StandingsHistory | None = None
    """The top forces' wins over time (a chart), once any of them has won."""

    @property
    def recent_battles(self) -> list[Battle]:
        return list(self.battles.object_list)


def campaign_overview(
    campaign: Campaign,
    *,
    user=None,
    can_write: bool = False,
    page: int | str | None = None,
    standings_page: int | str | None = None,
    per_page: int = BATTLES_PER_PAGE,
) -> CampaignOverview:
    """Members, a page of standings (and the top forces' wins over time) and a page of
    battles in a fixed number of queries, and a fixed number of rows whatever the size of
    the league."""
    forces = campaign.forces.select_related("player").order_by(*rules.STANDINGS_ORDER)
    # The forces' stored totals, ranked by the database as the rules order standings.
    shown = paginate(forces, standings_page, per_page=STANDINGS_PER_PAGE)
    standings = [
        Standing(force, force.crusade_points, force.unit_count, shown.start_index() + i)
        for i, force in enumerate(shown.object_list)
    ]
    leaders = standings if shown.number == 1 else [Standing(f, 0, 0) for f in forces[:8]]
    has_forces = CrusadeForce.objects.filter(campaign=campaign, player=OuterRef("user"))
    members = (
        campaign.memberships.select_related("user")
        .filter(Q(role=Membership.Role.ORGANISER) | ~Exists(has_forces))
        .order_by("role", "user__username")
    )
    mine = list(forces.filter(player_id=user.pk)) if user and user.is_authenticated else []
    battles = (
        campaign.battles.exclude(status__in=[Battle.Status.VOIDED, Battle.Status.CANCELLED])
        .prefetch_related(Prefetch("participants", queryset=sides_shown()))
        .order_by("-date", "-pk")
    )
    return CampaignOverview(
        campaign=campaign,
        can_write=can_write,
        members=list(members),
        member_count=campaign.memberships.count(),
        standings_page=shown,
        standings=standings,
        my_forces=mine,
        battles=paginate(battles, page, per_page=per_page),
        standings_history=standings_history(leaders),
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
