"""The campaign page and invitations to join a campaign."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import cached_property, partial
from typing import NamedTuple

from django.core.paginator import Page
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from campaign import charts, rules
from campaign.models import Battle, BattleParticipant, Campaign, CrusadeForce, Membership
from campaign.prepared import Prepared, fetch_together

from .charts import StandingsHistory, standings_history
from .chronicle import latest_entries
from .paging import paginate
from .phases import phase_overview, phase_reads
from .territories import campaign_map
from .versions import (
    campaign_version,
    campaigns_with_versions,
    digest,
    map_version,
    map_versions,
    results_version,
)

BATTLES_PER_PAGE = 10
STANDINGS_PER_PAGE = 20
"""A league of a hundred forces is shown twenty at a time: the page stays as quick."""


def sides_shown():
    """The sides a list of battles names: not those who declined or were un-invited."""
    left = [BattleParticipant.Invitation.DECLINED, BattleParticipant.Invitation.WITHDRAWN]
    return BattleParticipant.objects.exclude(invitation__in=left).select_related("force")


STANDINGS_COLUMNS = (
    "pk",
    "name",
    "faction",
    "player__username",
    "battle_tally",
    "victories",
    "crusade_points",
    "campaign_points",
    "supply_used",
    "supply_limit",
    "alliance__name",
    "alliance__colour",
)
"""What the standings table shows of a force, read as bare values."""
VICTORIES = STANDINGS_COLUMNS.index("victories")

BATTLE_COLUMNS = ("pk", "date", "battle_size", "mission", "status")
"""What the list of battles shows of a battle, read as bare values."""


def _listed(campaign: int) -> QuerySet[Battle]:
    """The campaign's battles the page lists, newest first."""
    battles = Battle.objects.filter(campaign_id=campaign, status__in=Battle.LISTED_STATUSES)
    return battles.order_by("-date", "-pk")


# The first pages of the standings and of the battles (what the page shows as it opens),
# compiled once and read together (`campaign.prepared`): building them anew after each
# change in the league spent more time compiling these queries than running them.
_STANDINGS_COUNT = Prepared(
    lambda campaign: (
        CrusadeForce.objects.filter(campaign_id=campaign)
        .order_by()
        .values("campaign_id")
        .annotate(n=Count("*"))
        .values_list("n", flat=True)
    ),
    campaign=int,
)
_STANDINGS_FIRST = Prepared(
    lambda campaign: (
        CrusadeForce.objects.filter(campaign_id=campaign)
        .order_by(*rules.STANDINGS_ORDER)
        .values_list(*STANDINGS_COLUMNS)[:STANDINGS_PER_PAGE]
    ),
    campaign=int,
)
_BATTLES_FIRST = Prepared(
    lambda campaign: _listed(campaign).values_list(*BATTLE_COLUMNS)[:BATTLES_PER_PAGE],
    campaign=int,
)
_SIDES_FIRST = Prepared(
    lambda campaign: (
        sides_shown()
        .filter(battle__in=_listed(campaign).values("pk")[:BATTLES_PER_PAGE])
        .order_by("battle", "pk")
        .values_list("battle_id", "force__name", "result")
    ),
    campaign=int,
)
_MY_FORCES = Prepared(
    lambda campaign, user: CrusadeForce.objects.filter(
        campaign_id=campaign, player_id=user
    ).order_by("name"),
    campaign=int,
    user=int,
)


def my_forces_read(campaign: int, user) -> tuple[Prepared, dict]:
    """The read of ``user``'s forces in a campaign, to read with the campaign itself
    (`access.read_campaign_for_user`)."""
    return _MY_FORCES, {"campaign": campaign, "user": user.pk}


class AllianceMark(NamedTuple):
    """What a row shows of a force's alliance: its badge."""

    name: str
    colour: str


class ForceLine(NamedTuple):
    """A force as the standings show it, from the bare values the table reads
    (`STANDINGS_COLUMNS`): no model is built for a row."""

    pk: int
    name: str
    faction: str
    player_username: str
    battle_tally: int
    victories: int
    crusade_points: int
    campaign_points: int
    supply_used: int
    supply_limit: int
    alliance: AllianceMark | None

    @classmethod
    def of(cls, row: tuple) -> ForceLine:
        *values, alliance_name, alliance_colour = row
        alliance = AllianceMark(alliance_name, alliance_colour) if alliance_name else None
        return cls(*values, alliance)


@dataclass(frozen=True)
class Standing:
    force: ForceLine
    crusade_points: int
    position: int = 0
    """1 for the leading force."""

    @property
    def name(self) -> str:
        return self.force.name

    @property
    def victories(self) -> int:
        return self.force.victories


class SideLine(NamedTuple):
    """A side as the list of battles names it: its force and its result ("" for none)."""

    force_name: str
    result: str

    def get_result_display(self) -> str:
        """The result's label, as a side's own (`battles/_result_badge.html`)."""
        return BattleParticipant.Result(self.result).label


class BattleLine(NamedTuple):
    """A battle as the campaign page lists it, from the bare values its key reads."""

    pk: int
    date: datetime.date
    battle_size: str
    mission: str
    status: str
    sides: list[SideLine]

    @property
    def status_label(self) -> str:
        return Battle.Status(self.status).label


@dataclass(frozen=True)
class CampaignOverview:
    """The campaign page. Its lists are read only when the page builds them: the page
    caches them under `version` (`selectors.versions`), so looking again costs a few
    queries whatever the size of the league."""

    campaign: Campaign
    can_write: bool
    """The user organises the campaign (they change it in the admin)."""
    my_forces: list[CrusadeForce]
    """The user's own forces in the campaign, wherever they stand."""
    version: str
    page: int | str | None = None
    standings_page_number: int | str | None = None
    per_page: int = BATTLES_PER_PAGE
    phase_number: int | str | None = None
    """The phase the page shows standings and the map for (``?phase=``; now if None)."""
    phase_standings_page_number: int | str | None = None

    @cached_property
    def phases(self):
        """Phases, standings per phase and alliance standings (`selectors.phases`)."""
        reads = phase_reads(self.campaign)
        return phase_overview(
            self.campaign,
            self.phase_number,
            page=self.phase_standings_page_number,
            rows=reads.rows(self._with_first_pages(reads.reads)),
        )

    @property
    def _opens_battles(self) -> bool:
        """The list of battles shows its first page."""
        return self.per_page == BATTLES_PER_PAGE and str(self.page or 1) == "1"

    def _first_page_reads(self) -> list[tuple[Prepared, dict]]:
        campaign = {"campaign": self.campaign.pk}
        reads = [(_STANDINGS_FIRST, campaign)]
        if not hasattr(self.campaign, "forces_count"):  # counted with the campaign, else here
            reads.append((_STANDINGS_COUNT, campaign))
        if self._opens_battles:
            reads += [(_BATTLES_FIRST, campaign), (_SIDES_FIRST, campaign)]
        return reads

    def _with_first_pages(self, reads: list[tuple[Prepared, dict]]) -> list[list]:
        """What ``reads`` fetch, read together with the first pages the lists need (unless
        read already, for `_first_pages`): one round trip on PostgreSQL. The phases are
        built again only inside the page's fragment, so with the standings and battles."""
        if "_first_pages" in self.__dict__:
            return fetch_together(*reads)
        firsts = self._first_page_reads()
        rows = fetch_together(*reads, *firsts)
        self.__dict__["_first_pages"] = {
            prepared: got for (prepared, _), got in zip(firsts, rows[len(reads) :], strict=True)
        }
        return rows[: len(reads)]

    @cached_property
    def _first_pages(self) -> dict[Prepared, list]:
        """The first pages of the standings (and its count) and of the battles with their
        sides (when the list shows it), read together, compiled once."""
        self._with_first_pages([])
        return self.__dict__["_first_pages"]

    @property
    def map_version(self) -> str:
        """What the map is cached under: it changes with the campaign's own rows and the
        battles over its territories, not with a change to a force (`selectors.versions`)."""
        return map_version(self.campaign)

    @cached_property
    def map(self):
        """The campaign's map (`selectors.territories`)."""
        return campaign_map(self.campaign, self.phase_number)

    @cached_property
    def chronicle(self) -> list:
        """The newest entries of the campaign's log (`selectors.chronicle`)."""
        return latest_entries(self.campaign)

    @property
    def standings_page(self) -> Page:
        """This page of the standings (its rows are bare values: `standings` reads them)."""
        return self._standings_shown

    @cached_property
    def standings(self) -> list[Standing]:
        """This page of the standings, from the values its key reads: no other query."""
        shown = self._standings_shown
        return [
            Standing(line, line.crusade_points, shown.start_index() + i)
            for i, line in enumerate(map(ForceLine.of, shown.object_list))
        ]

    @cached_property
    def _standings_shown(self) -> Page:
        """This page of the standings as the bare values its table shows (how many forces
        there are and the first page read together, compiled once)."""
        campaign = self.campaign
        first = self._first_pages[_STANDINGS_FIRST]
        count = getattr(campaign, "forces_count", None)
        if count is None:
            counted = self._first_pages[_STANDINGS_COUNT]
            count = counted[0] if counted else 0
        shown = paginate(
            # Built only for another page than the first, which is read already.
            lambda: campaign.forces.order_by(*rules.STANDINGS_ORDER).values_list(
                *STANDINGS_COLUMNS
            ),
            self.standings_page_number,
            per_page=STANDINGS_PER_PAGE,
            count=count,
            first_page=partial(list, first),
        )
        shown.object_list = list(shown.object_list)  # read once, for the table and the chart
        return shown

    @property
    def standings_key(self) -> str:
        """What the standings table is cached under, inside the page's fragment: the
        values it shows of this page of forces, read bare, so a change to a force that
        none of its columns show (its goals, a card's notes) leaves it be, and one that
        does (a name, a win, points, supply, an alliance) shows at once. The same for
        every viewer: the page marks the viewer's own forces after the cache."""
        shown = self._standings_shown
        return digest(shown.number, shown.paginator.num_pages, shown.object_list)

    @cached_property
    def _leaders(self) -> list[Standing]:
        if self._standings_shown.number == 1:
            return self.standings[: charts.MOST_LINES]
        forces = self.campaign.forces.order_by(*rules.STANDINGS_ORDER)
        top = forces.values_list(*STANDINGS_COLUMNS)[: charts.MOST_LINES]
        return [Standing(ForceLine.of(row), 0) for row in top]

    @property
    def chart_version(self) -> str:
        """What the chart is cached under: the forces it draws, in order, with their names
        and victories, and how many of the campaign's battles were voided. It shows only
        their names and the completed battles they won: a force's victories move on with
        each battle it wins, and a win that leaves the chart again is a void. So a battle
        none of them won (and any change to a force that is no result: its goals, a
        card) leaves it be."""
        shown = self._standings_shown
        if shown.number == 1:
            leaders = [(*row[:2], row[VICTORIES]) for row in shown.object_list[: charts.MOST_LINES]]
        else:
            forces = self.campaign.forces.order_by(*rules.STANDINGS_ORDER)
            leaders = list(forces.values_list("pk", "name", "victories")[: charts.MOST_LINES])
        return digest(self.campaign.voided_battles, leaders)

    @property
    def phases_version(self) -> str:
        """What the phases and the alliances' standings are cached under, when no phase's
        standings of forces are asked for (``?phase=``): the campaign's own rows (its
        phases, alliances and current phase) and its results."""
        return f"{self.campaign.revision}-{results_version(self.campaign)}"

    @cached_property
    def standings_history(self) -> StandingsHistory | None:
        """The top forces' wins over time (a chart), once any of them has won."""
        return standings_history(self._leaders, self.campaign.voided_battles)

    @cached_property
    def members(self) -> list[Membership]:
        """Organisers, and members who have not raised a force here yet (the others are
        in the standings, with their forces)."""
        forces = CrusadeForce.objects.filter(campaign=self.campaign, player=OuterRef("user"))
        return list(
            self.campaign.memberships.select_related("user")
            .filter(Q(role=Membership.Role.ORGANISER) | ~Exists(forces))
            .order_by("role", "user__username")
        )

    @property
    def members_version(self) -> str:
        """What the members are cached under: the campaign's revision (every member who
        joins, and every change of role, writes a history row that names the campaign
        and no force) and how many forces it has (a force is never deleted nor given to
        another player, so the members without one change only when a force is raised,
        which adds one). The count is the standings' own."""
        return f"{self.campaign.revision}-{self._standings_shown.paginator.count}"

    @cached_property
    def member_count(self) -> int:
        return self.campaign.memberships.count()

    def _battles_listed(self) -> QuerySet[Battle]:
        return _listed(self.campaign.pk)

    @cached_property
    def _battle_count(self) -> int:
        """How many battles the list has, for its key and its rows alike: the completed
        ones and those still being played, which the campaign's read counts already
        (`versions.map_versions`), else a query."""
        campaign = self.campaign
        if hasattr(campaign, "completed_battles") and hasattr(campaign, "open_battles"):
            return campaign.completed_battles + campaign.open_battles
        return self._battles_listed().count()

    @cached_property
    def _battles_shown(self) -> tuple[Page, list[tuple]]:
        """This page of battles, as the bare values of `BATTLE_COLUMNS`, and their sides'
        (battle, force name, result), in the order the list names them."""

        def listed():
            return self._battles_listed().values_list(*BATTLE_COLUMNS)

        if self._opens_battles:
            # The page as it opens: its battles and their sides read together.
            first, sides = self._first_pages[_BATTLES_FIRST], self._first_pages[_SIDES_FIRST]
            shown = paginate(
                listed,
                1,
                per_page=self.per_page,
                count=self._battle_count,
                first_page=partial(list, first),
            )
            shown.object_list = list(shown.object_list)
            return shown, list(sides)
        shown = paginate(listed(), self.page, per_page=self.per_page, count=self._battle_count)
        shown.object_list = list(shown.object_list)
        sides = list(
            sides_shown()
            .filter(battle_id__in=[row[0] for row in shown.object_list])
            .order_by("battle", "pk")
            .values_list("battle_id", "force__name", "result")
        )
        return shown, sides

    @property
    def battles(self) -> Page:
        """This page of battles (its rows are bare values: `recent_battles` reads them)."""
        return self._battles_shown[0]

    @property
    def battles_key(self) -> str:
        """What the list of battles is cached under, inside its fragment: the columns it
        shows of this page of battles and of their sides, read as bare values (a battle
        completed, voided or started, a side's result, a force renamed all show at once;
        a change to a force that the list doesn't show leaves it be)."""
        shown, sides = self._battles_shown
        return digest(shown.number, shown.paginator.num_pages, shown.object_list, sides)

    @cached_property
    def recent_battles(self) -> list[BattleLine]:
        """This page of battles with their sides, from the values its key reads: no other
        query."""
        shown, sides = self._battles_shown
        by_battle: dict[int, list[SideLine]] = {row[0]: [] for row in shown.object_list}
        for battle, force_name, result in sides:
            # The sides are read a moment after the battles (each read sees what was
            # committed when it ran): a battle that joined the page in between is left
            # for the next look, whose key differs (it names these sides).
            if battle in by_battle:
                by_battle[battle].append(SideLine(force_name, result))
        return [BattleLine(*row, by_battle[row[0]]) for row in shown.object_list]

    @property
    def my_force_ids(self) -> list[int]:
        """What the cached page shows differently for this user (their forces marked)."""
        return [force.pk for force in self.my_forces]


def campaign_page_campaigns() -> QuerySet[Campaign]:
    """Campaigns as the campaign page reads them (through their access helper): with the
    versions of what the page shows, its map's apart, and how many forces they have (the
    standings' count, from the index on the forces' campaign and revision)."""
    forces = CrusadeForce.objects.filter(campaign=OuterRef("pk")).order_by().values("campaign")
    counted = Coalesce(Subquery(forces.annotate(n=Count("*")).values("n")), Value(0))
    campaigns = Campaign.objects.select_related("current_phase").annotate(forces_count=counted)
    return map_versions(campaigns_with_versions(campaigns))


def campaign_overview(
    campaign: Campaign,
    *,
    user=None,
    can_write: bool = False,
    page: int | str | None = None,
    standings_page: int | str | None = None,
    per_page: int = BATTLES_PER_PAGE,
    phase: int | str | None = None,
    phase_standings_page: int | str | None = None,
    my_forces: list[CrusadeForce] | None = None,
) -> CampaignOverview:
    """Members, a page of standings (and the top forces' wins over time) and a page of
    battles in a fixed number of queries, and a fixed number of rows whatever the size of
    the league; one query when the page has them cached. ``campaign`` comes from
    `campaign_page_campaigns`; ``my_forces``, what `my_forces_read` read (else a query)."""
    mine = my_forces if my_forces is not None else []
    if my_forces is None and user is not None and user.is_authenticated:
        mine = _MY_FORCES.fetch(campaign=campaign.pk, user=user.pk)
    for force in mine:
        force.campaign = campaign
    return CampaignOverview(
        campaign=campaign,
        can_write=can_write,
        my_forces=mine,
        version=campaign_version(campaign),
        page=page,
        standings_page_number=standings_page,
        per_page=per_page,
        phase_number=phase,
        phase_standings_page_number=phase_standings_page,
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
