"""The player's dashboard: their forces and campaigns, and everything waiting for them."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from campaign.models import (
    Battle,
    BattleParticipant,
    CampaignInvitation,
    CrusadeForce,
    Membership,
    OutOfActionTest,
    Promotion,
    Unit,
)
from campaign.prepared import Prepared, fetch_together, give_related
from campaign.services.battles import recording_refusal

from .versions import summed


@dataclass(frozen=True)
class Dashboard:
    forces: list[CrusadeForce]
    memberships: list[Membership]
    promotions: list[Promotion]
    tests: list[OutOfActionTest]
    sides: list[BattleParticipant]
    """My forces' sides of battles that are not over, each with its battle's sides."""
    campaign_invitations: list[CampaignInvitation]
    """Invitations to join (or organise) a campaign, waiting for my answer."""

    @property
    def can_battle(self) -> bool:
        """One of my forces is in a campaign, so it has opponents to invite."""
        return any(force.campaign_id for force in self.forces)

    def _mine(self, wanted) -> list[BattleParticipant]:
        return [side for side in self.sides if wanted(side)]

    @property
    def invitations(self) -> list[BattleParticipant]:
        """Invitations to answer."""
        return self._mine(lambda s: s.awaits_answer)

    @property
    def to_muster(self) -> list[BattleParticipant]:
        return self._mine(lambda s: s.is_accepted and s.battle.is_open and not s.mustered)

    @property
    def to_record(self) -> list[BattleParticipant]:
        """Battles whose end I can record now (or amend, when the results disagree)."""
        return self._mine(_to_record)

    @property
    def waiting(self) -> list[BattleParticipant]:
        """My battles waiting for somebody else: an answer, or the other sides' records."""
        return self._mine(lambda s: s.is_accepted and s.mustered and not _to_record(s))

    @property
    def battles(self) -> list[BattleParticipant]:
        """Everything I must do in a battle, for the count."""
        return [*self.invitations, *self.to_muster, *self.to_record]

    @property
    def pending_count(self) -> int:
        return len(self.promotions) + len(self.tests) + len(self.battles)


def _to_record(side: BattleParticipant) -> bool:
    battle = side.battle
    if side.has_recorded and battle.status != Battle.Status.DISPUTED:
        return False
    return recording_refusal(battle, list(battle.participants.all()), side) is None


FORCE_COLUMNS = (
    "name",
    "player_id",
    "campaign_id",
    "faction",
    "supply_used",
    "supply_limit",
    "rp",
    "battle_tally",
    "victories",
)
"""What the dashboard shows of each of the player's forces."""


def _forces(user: int):
    # Only the columns the page shows: a force, a campaign and a card have many more.
    return (
        CrusadeForce.objects.filter(player=user)
        .select_related("campaign")
        .only(*FORCE_COLUMNS, "campaign__name")
        .order_by("name")
    )


def _memberships(user: int):
    """The player's campaigns, each with its number of forces, and its version (its
    revision and its forces', `selectors.versions`): the news is kept under them."""
    forces_of = CrusadeForce.objects.filter(campaign=OuterRef("campaign_id")).order_by()
    return (
        Membership.objects.filter(user=user)
        .select_related("campaign")
        .only("campaign_id", "user_id", "role", "campaign__name", "campaign__revision")
        .annotate(
            force_count=Coalesce(
                Subquery(forces_of.values("campaign").annotate(n=Count("*")).values("n")),
                Value(0),
            ),
            forces_revision=summed(forces_of.values("campaign"), "revision"),
        )
        .order_by("campaign__name")
    )


def _promotions(user: int):
    return (
        Promotion.objects.filter(
            unit__force__player=user,
            unit__status=Unit.Status.ACTIVE,
            status=Promotion.Status.PENDING,
        )
        .select_related("unit")
        .only("rank", "unit_id", "unit__name")
    )


def _tests(user: int):
    return (
        OutOfActionTest.objects.open()
        .filter(unit__force__player=user)
        .select_related("unit__force")
        .only("status", "unit_id", "unit__name", "unit__force_id", "unit__force__name")
    )


def _sides(user: int):
    return (
        BattleParticipant.objects.filter(BattleParticipant.in_play(), force__player=user)
        .select_related("battle__created_by", "force")
        .order_by("battle__date", "battle__pk")
    )


def _their_battles_sides(user: int):
    """Every side of the battles `_sides` are in (each battle's sides, for its opponents
    and whether it can be recorded): a query of its own, not the ORM's prefetch, which
    builds its SQL again on every look."""
    mine = BattleParticipant.objects.filter(BattleParticipant.in_play(), force__player=user)
    return (
        BattleParticipant.objects.filter(battle_id__in=mine.values("battle_id"))
        .select_related("force")
        .order_by("battle_id", "pk")
    )


def _campaign_invitations(user: int):
    return (
        CampaignInvitation.objects.filter(user=user, status=CampaignInvitation.Status.PENDING)
        .select_related("campaign", "invited_by")
        .order_by("created_at", "pk")
    )


_QUERIES = tuple(
    Prepared(build, user=int)
    for build in (
        _forces,
        _memberships,
        _promotions,
        _tests,
        _sides,
        _campaign_invitations,
        _their_battles_sides,
    )
)


def dashboard_reads(user) -> list[tuple[Prepared, dict]]:
    """The reads of `dashboard`, for a caller that sends them with its own."""
    return [(query, {"user": user.pk}) for query in _QUERIES]


def dashboard(user, rows: list[list] | None = None) -> Dashboard:
    """Everything a player sees first, in a fixed number of queries (compiled once and
    sent together: `campaign.prepared`); ``rows``: what `dashboard_reads` read, when read
    already."""
    *shown, battles_sides = rows if rows is not None else fetch_together(*dashboard_reads(user))
    dash = Dashboard(*shown)
    give_related([side.battle for side in dash.sides], "participants", battles_sides)
    return dash
