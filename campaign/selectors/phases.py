"""A narrative campaign's phases on its page: the current phase, standings per phase and
overall, alliance standings and their chart.

A fixed number of queries whatever the number of phases, alliances, forces and battles:
the phases (at most `MOST_PHASES`), the alliances, their totals per phase (`AllianceTotal`,
kept by the services that complete and void battles: a row per alliance and phase,
whatever the battles), and for a phase asked for (``?phase=N``) a page of its forces'
standings (a count and the page, the database adding up its battles)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from django.core.cache import cache
from django.core.paginator import Page
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from campaign import charts, rules
from campaign.models import Alliance, AllianceTotal, Battle, BattleParticipant, Campaign, Phase
from campaign.prepared import Prepared, fetch_together

from .paging import paginate
from .versions import FRAGMENT_SECONDS

PHASE_STANDINGS_PER_PAGE = 20
DONE, CURRENT, TO_COME = "done", "current", "to come"
WON = Q(result=rules.BattleResult.WIN)


@dataclass(frozen=True)
class PhaseRow:
    phase: Phase
    state: str
    """`DONE`, `CURRENT` or `TO_COME`."""

    @property
    def is_current(self) -> bool:
        return self.state == CURRENT


@dataclass(frozen=True)
class AllianceScore:
    alliance: Alliance
    battles: int = 0
    wins: int = 0
    campaign_points: int = 0
    position: int = 0


@dataclass(frozen=True)
class AllianceChart:
    chart: charts.LineChart
    table: charts.PointsTable
    legend: list[tuple[Alliance, charts.Line]]


@dataclass
class PhaseOverview:
    campaign: Campaign
    rows: list[PhaseRow]
    current: Phase | None
    chosen: Phase | None
    """The phase whose standings are shown (``?phase=N``), None for overall."""
    alliances: list[Alliance]
    page_number: int | str | None = None
    _totals: dict = field(default_factory=dict)
    """(alliance pk, phase pk or None) -> {"battles", "wins", "points"}."""

    @property
    def phases(self) -> list[Phase]:
        return [row.phase for row in self.rows]

    @property
    def current_battle_size(self) -> str:
        return self.current.suggested_battle_size if self.current is not None else ""

    @cached_property
    def alliance_standings(self) -> list[AllianceScore]:
        """Battles, wins and Campaign Points of each alliance, in the chosen phase or
        overall, most points first (alliances yet to fight included)."""
        chosen = self.chosen.pk if self.chosen is not None else None
        scores = []
        for alliance in self.alliances:
            rows = [
                row
                for (pk, phase), row in self._totals.items()
                if pk == alliance.pk and (self.chosen is None or phase == chosen)
            ]
            scores.append(
                AllianceScore(
                    alliance,
                    battles=sum(r["battles"] for r in rows),
                    wins=sum(r["wins"] for r in rows),
                    campaign_points=sum(r["points"] for r in rows),
                )
            )
        scores.sort(key=lambda s: (-s.campaign_points, -s.wins, s.alliance.name))
        return [
            AllianceScore(s.alliance, s.battles, s.wins, s.campaign_points, i)
            for i, s in enumerate(scores, start=1)
        ]

    @cached_property
    def force_page(self) -> Page | None:
        """A page of the chosen phase's standings: each force's battles, wins and Campaign
        Points in the phase's completed battles (None overall)."""
        if self.chosen is None:
            return None
        sides = (
            BattleParticipant.objects.filter(
                battle__phase=self.chosen, battle__status=Battle.Status.COMPLETED
            )
            .values("force_id", "force__name", "force__faction", "force__player__username")
            .annotate(
                battles=Count("battle_id", distinct=True),
                wins=Count("battle_id", distinct=True, filter=WON),
                points=Coalesce(Sum("campaign_points"), 0),
            )
            .order_by("-points", "-wins", "force__name", "force_id")
        )
        return paginate(sides, self.page_number, per_page=PHASE_STANDINGS_PER_PAGE)

    @cached_property
    def force_standings(self) -> list[dict]:
        page = self.force_page
        if page is None:
            return []
        return [
            {**row, "position": page.start_index() + i} for i, row in enumerate(page.object_list)
        ]

    @cached_property
    def chart(self) -> AllianceChart | None:
        """Each alliance's Campaign Points so far at the end of each phase played (battles
        before the first phase at the start). None without points to draw."""
        played = [row.phase for row in self.rows if row.state != TO_COME]
        alliances = self.alliances[: charts.MOST_LINES]
        if not played or not alliances:
            return None
        series = []
        for alliance in alliances:
            so_far = self._totals.get((alliance.pk, None), {}).get("points", 0)
            values = [so_far]
            for phase in played:
                so_far += self._totals.get((alliance.pk, phase.pk), {}).get("points", 0)
                values.append(so_far)
            series.append(charts.PointsSeries(alliance.name, alliance.colour, values))
        drawn = charts.points_over_phases(series, [phase.name for phase in played])
        if drawn is None:
            return None
        chart, table = drawn
        return AllianceChart(chart, table, list(zip(alliances, chart.lines, strict=True)))


def _chosen(phases: list[Phase], number: int | str | None) -> Phase | None:
    wanted = str(number or "").strip()
    return next((phase for phase in phases if str(phase.position) == wanted), None)


def _state(phase: Phase, current: Phase | None) -> str:
    if current is not None and phase.pk == current.pk:
        return CURRENT
    if phase.ended_at is not None or (current is not None and phase.position < current.position):
        return DONE
    return TO_COME


# The campaign's phases, alliances and the alliances' totals per phase, compiled once
# and read together (`campaign.prepared`).
_PHASES = Prepared(
    lambda campaign: Phase.objects.filter(campaign_id=campaign).order_by("position"),
    campaign=int,
)
_ALLIANCES = Prepared(
    lambda campaign: Alliance.objects.filter(campaign_id=campaign).order_by("name", "pk"),
    campaign=int,
)
_TOTALS = Prepared(
    lambda campaign: (
        AllianceTotal.objects.filter(campaign_id=campaign)
        .order_by()
        .values_list("alliance_id", "phase_id", "battles", "wins", "campaign_points")
    ),
    campaign=int,
)


@dataclass(frozen=True)
class PhaseReads:
    """What `phase_overview` reads, for a caller that sends them with its own
    (`prepared.fetch_together`): the phases, the alliances and their totals. The phases
    and the alliances are the campaign's own rows, kept under its revision, which every
    change to them moves on (a history row naming the campaign alone): after a battle,
    only the totals are read."""

    campaign: Campaign
    kept: tuple[list[Phase], list[Alliance]] | None

    @classmethod
    def of(cls, campaign: Campaign) -> PhaseReads:
        return cls(campaign, cache.get(_kept_key(campaign)))

    @property
    def reads(self) -> list[tuple[Prepared, dict]]:
        values = {"campaign": self.campaign.pk}
        if self.kept is not None:
            return [(_TOTALS, values)]
        return [(_PHASES, values), (_ALLIANCES, values), (_TOTALS, values)]

    def rows(self, read: list[list]) -> list[list]:
        """The phases, alliances and totals, from what `reads` read."""
        if self.kept is not None:
            return [*self.kept, *read]
        cache.set(_kept_key(self.campaign), tuple(read[:2]), FRAGMENT_SECONDS)
        return read


def _kept_key(campaign: Campaign) -> str:
    return f"campaign-phase-rows:{campaign.pk}:{campaign.revision}"


def phase_reads(campaign: Campaign) -> PhaseReads:
    return PhaseReads.of(campaign)


def phase_overview(
    campaign: Campaign,
    phase: int | str | None = None,
    *,
    page: int | str | None = None,
    rows: list[list] | None = None,
) -> PhaseOverview | None:
    """What the campaign page shows of its phases and alliances (None without any);
    ``rows``: what `phase_reads` read, when read already."""
    if rows is None:
        reads = phase_reads(campaign)
        rows = reads.rows(fetch_together(*reads.reads))
    phases, alliances, totals = rows
    if not phases and not alliances:
        return None
    current = next((p for p in phases if p.pk == campaign.current_phase_id), None)
    return PhaseOverview(
        campaign=campaign,
        rows=[PhaseRow(p, _state(p, current)) for p in phases],
        current=current,
        chosen=_chosen(phases, phase),
        alliances=alliances,
        page_number=page,
        _totals={
            (alliance, phase_id): {"battles": battles, "wins": wins, "points": points}
            for alliance, phase_id, battles, wins, points in totals
        },
    )


def alliance_totals_added_up(campaign: Campaign) -> dict[tuple[int, int | None], tuple]:
    """What the sides of the campaign's completed battles add up to, per (alliance, phase):
    (battles, wins, Campaign Points), a battle counted once for an alliance, won if any
    of its sides won. What `alliance_totals_kept` must say: the tests and `make load`
    compare them."""
    sides = (
        BattleParticipant.objects.filter(
            battle__campaign=campaign,
            battle__status=Battle.Status.COMPLETED,
            alliance__isnull=False,
        )
        .values("alliance_id", "battle__phase_id")
        .annotate(
            battles=Count("battle_id", distinct=True),
            wins=Count("battle_id", distinct=True, filter=WON),
            points=Coalesce(Sum("campaign_points"), 0),
        )
        .order_by()
    )
    return {
        (row["alliance_id"], row["battle__phase_id"]): (row["battles"], row["wins"], row["points"])
        for row in sides
    }


def alliance_totals_kept(campaign: Campaign) -> dict[tuple[int, int | None], tuple]:
    """The stored totals (`AllianceTotal`) with any battle in them, in the same shape."""
    rows = AllianceTotal.objects.filter(campaign=campaign, battles__gt=0)
    return {
        (alliance, phase): (battles, wins, points)
        for alliance, phase, battles, wins, points in rows.values_list(
            "alliance_id", "phase_id", "battles", "wins", "campaign_points"
        )
    }
