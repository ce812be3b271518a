"""The campaign page and invitations to join a campaign."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page
from django.db.models import Prefetch

from campaign import rules
from campaign.models import Battle, BattleParticipant, Campaign, CrusadeForce, Membership

from .paging import paginate

BATTLES_PER_PAGE = 10


def sides_shown():
    """The sides a list of battles names: not those who declined or were un-invited."""
    left = [BattleParticipant.Invitation.DECLINED, BattleParticipant.Invitation.WITHDRAWN]
    return BattleParticipant.objects.exclude(invitation__in=left).select_related("force")


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
    # The forces' stored totals, ranked by the database as the rules order standings: the
    # page reads one row per force, whatever the number of units or battles.
    forces = campaign.forces.select_related("player").order_by(*rules.STANDINGS_ORDER)
    standings = [Standing(force, force.crusade_points, force.unit_count) for force in forces]
    battles = (
        campaign.battles.exclude(status__in=[Battle.Status.VOIDED, Battle.Status.CANCELLED])
        .prefetch_related(Prefetch("participants", queryset=sides_shown()))
        .order_by("-date", "-pk")
    )
    return CampaignOverview(
        campaign=campaign,
        can_write=can_write,
        members=members,
        standings=standings,
        battles=paginate(battles, page, per_page=per_page),
    )


@dataclass(frozen=True)
class Invitation:
    campaign: Campaign
    member: bool
    """The user is in the campaign already."""


def invitation(code: str, user) -> Invitation | None:
    """The campaign an invitation code opens, or None for a code nobody issued.

    The code comes from a link (`/join/<code>/`) as well as a form, so it is checked here:
    a code longer than any, or with a NUL (which PostgreSQL refuses in a query: a 500
    before), opens nothing."""
    code = code.strip()
    longest = Campaign._meta.get_field("invite_code").max_length
    if not code or "\x00" in code or len(code) > longest:
        return None
    campaign = Campaign.objects.filter(invite_code=code).first()
    if campaign is None:
        return None
    member = user.is_authenticated and campaign.memberships.filter(user_id=user.pk).exists()
    return Invitation(campaign, member)
