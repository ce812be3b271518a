"""Time the pages of seeded leagues against the targets of "Ready for a whole gaming group".

Each page is fetched in-process through Django's test Client, logged in as the user
who would look at it. A first fetch warms up and a second counts the queries; then
every page is timed once per round, round after round, so that whatever else the
machine is doing weighs on all of them alike, the 20-battle league's pages included.
Each run starts from a garbage-collected heap, so the collections a page triggers
are its own. The median of the rounds is the page's time. Ratios (to the admin login
page, which makes runs on different machines comparable, and to the 20-battle
league) are medians of each round's ratio: pages timed in the same round share
whatever load the machine had then. Recording a battle end runs in a transaction
that is rolled back after each run.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection, transaction
from django.db.models import Case, Count, F, Q, When
from django.db.models.functions import Abs
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from campaign import rules, services
from campaign.models import (
    Battle,
    BattleParticipant,
    BattleUnit,
    Campaign,
    CrusadeForce,
    Membership,
    Unit,
)

from . import moves
from .database import BenchDatabase
from .rosters import AGENDAS
from .seed import (
    BASELINE_BATTLES,
    MUSTER_MISSION,
    RECORD_MISSION,
    Scale,
    army_candidates,
    pick_army,
)

RECORD_QUERY_BUDGET = 60
ADMIN_BUDGET_MS = 100.0
SAME_SPEED_TOLERANCE = 0.25
FRAGMENT_CACHE = "template_fragments"

Prepare = Callable[[], tuple[str, Callable[[], HttpResponse]]]
"""Sets up one run, untimed; returns the URL and the request to time."""


class PageFailed(Exception):
    """A page answered with something other than what a player would get."""


@contextmanager
def measuring() -> Iterator[None]:
    """Settings for timing in-process: DEBUG off (no query log), the test Client's host."""
    with override_settings(
        DEBUG=False,
        ALLOWED_HOSTS=["testserver"],
        SECURE_SSL_REDIRECT=False,
        WHITENOISE_AUTOREFRESH=True,
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        yield


@dataclass(frozen=True)
class Probe:
    """One page or step to time, in the database it lives in."""

    key: str
    database: BenchDatabase
    prepare: Prepare
    expect: int = 200
    rollback: bool = False
    """Run in a transaction rolled back after each run (for steps that change things)."""
    after: Callable[[], None] | None = None
    """Called after each run, untimed: undoes what `prepare` set up around the request."""


def page_probe(key: str, database: BenchDatabase, client: Client, url: str) -> Probe:
    return Probe(key, database, lambda: (url, lambda: client.get(url)))


def first_look_probe(key: str, database: BenchDatabase, client: Client, url: str) -> Probe:
    """The page as the first player to look after a change sees it: nothing cached under
    the new version yet. The page gets an empty fragment cache of its own for the run
    (untimed), so the other pages keep theirs."""
    cached = caches[FRAGMENT_CACHE]

    def prepare() -> tuple[str, Callable[[], HttpResponse]]:
        empty = LocMemCache("bench-first-look", {})
        empty.clear()
        caches[FRAGMENT_CACHE] = empty
        return url, lambda: client.get(url)

    def after() -> None:
        caches[FRAGMENT_CACHE] = cached

    return Probe(key, database, prepare, after=after)


@dataclass(frozen=True)
class Query:
    ms: float
    sql: str


@dataclass(frozen=True)
class Timing:
    queries: int
    samples_ms: tuple[float, ...]
    """One time per round, in round order."""
    captured: tuple[Query, ...] = ()
    """The queries of one warm run, with their times, for `slowest`."""

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ms)

    def ratio_to(self, other: Timing) -> float:
        """The median of the per-round ratios: pages timed in the same round share the
        machine's load, so this is steadier than a ratio of medians."""
        return statistics.median(
            a / b for a, b in zip(self.samples_ms, other.samples_ms, strict=True)
        )

    def slowest(self, count: int) -> list[Query]:
        return sorted(self.captured, key=lambda q: q.ms, reverse=True)[:count]


class Stopwatch:
    """Warms each probe up, counts its queries on a second run, then times it per round."""

    def __init__(self, repeat: int) -> None:
        self.repeat = repeat

    def measure(self, probes: list[Probe]) -> dict[str, Timing]:
        captured = {}
        for probe in probes:
            with probe.database.active():
                self._once(probe)
                captured[probe.key] = self._once(probe, capture=True)[1]
        samples: dict[str, list[float]] = {probe.key: [] for probe in probes}
        for _ in range(self.repeat):
            for probe in probes:
                with probe.database.active():
                    samples[probe.key].append(self._once(probe, timed=True)[0])
        return {
            key: Timing(len(captured[key]), tuple(times), captured[key])
            for key, times in samples.items()
        }

    def _once(
        self, probe: Probe, *, capture: bool = False, timed: bool = False
    ) -> tuple[float, tuple[Query, ...]]:
        with transaction.atomic() if probe.rollback else nullcontext():
            url, request = probe.prepare()
            if timed:
                # Start from a collected heap: otherwise the garbage one page leaves
                # (cycles of model instances) is collected, at a cost, in the next one.
                gc.collect()
            with CaptureQueriesContext(connection) if capture else nullcontext() as queries:
                start = time.perf_counter()
                response = request()
                elapsed = (time.perf_counter() - start) * 1000
            if probe.after is not None:
                probe.after()
            if probe.rollback:
                transaction.set_rollback(True)
        if response.status_code != probe.expect:
            raise PageFailed(f"{url} answered {response.status_code}, not {probe.expect}")
        if not capture:
            return elapsed, ()
        return elapsed, tuple(Query(float(q["time"]) * 1000, q["sql"]) for q in queries)


class Clients:
    """One logged-in test Client per user (the session is made once, outside the timing)."""

    def __init__(self) -> None:
        self._clients: dict[int | None, Client] = {}

    def of(self, user=None) -> Client:
        key = user.pk if user is not None else None
        if key not in self._clients:
            client = Client()
            if user is not None:
                client.force_login(user)
            self._clients[key] = client
        return self._clients[key]


@dataclass(frozen=True)
class Subjects:
    """What the pages show in one seeded league, each with the user who looks at it."""

    campaign: Campaign
    organiser: object
    battle: Battle
    in_progress: Battle
    to_muster: BattleParticipant
    """The starter's side of a battle just started, its army still to muster."""
    unit: Unit
    force: CrusadeForce
    order_of_battle: dict[int, CrusadeForce]
    """The forces of exactly 50 and 200 units, by size."""


def find_subjects(
    league: tuple[BenchDatabase, Campaign], start: tuple[BenchDatabase, Campaign], scale: Scale
) -> tuple[Subjects, Subjects]:
    """The pages' subjects in the league and in the same league at the start of its season.

    Both leagues grow from one seed, so like can be compared with like, and what
    differs is how many battles the campaign has played:

    - battle detail: the last of the season's first battles with losses (Out of Action
      tests show): the same battle in both;
    - record form: the battle left in progress, the same two armies in both;
    - Crusade card: the most-fought unit at the start of the season, and a unit with
      the same record (battles, honours, scars) in the league;
    - force history: the force with the longest history at the start of the season,
      a full page (100 rows) in both.
    """
    (league_db, league_campaign), (start_db, start_campaign) = league, start
    with start_db.active():
        force_name = _longest_history(start_campaign, scale).name
        start_unit = _cards(start_campaign).order_by("-battles_played", "-honours_held", "pk")[0]
    with league_db.active():
        league_unit = _unit_with_the_same_record(league_campaign, start_unit)
        in_league = _subjects(league_campaign, scale, league_unit, force_name)
    with start_db.active():
        at_start = _subjects(start_campaign, scale, start_unit, force_name)
    return in_league, at_start


def _subjects(campaign: Campaign, scale: Scale, unit: Unit, force_name: str) -> Subjects:
    organiser = campaign.memberships.select_related("user").get(role=Membership.Role.ORGANISER)
    first_battles = list(
        campaign.battles.order_by("pk").values_list("pk", flat=True)[:BASELINE_BATTLES]
    )
    return Subjects(
        campaign=campaign,
        organiser=organiser.user,
        battle=campaign.battles.filter(
            pk__in=first_battles, status=Battle.Status.COMPLETED, participants__army__destroyed=True
        )
        .order_by("-pk")
        .first(),
        in_progress=campaign.battles.get(status=Battle.Status.IN_PROGRESS, mission=RECORD_MISSION),
        to_muster=BattleParticipant.objects.select_related("force__player").get(
            battle__campaign=campaign, battle__mission=MUSTER_MISSION
        ),
        unit=unit,
        force=campaign.forces.select_related("player").get(name=force_name),
        order_of_battle=_order_of_battle_forces(campaign, scale),
    )


def _order_of_battle_forces(campaign: Campaign, scale: Scale) -> dict[int, CrusadeForce]:
    sized = campaign.forces.annotate(
        active=Count("units", filter=Q(units__status=Unit.Status.ACTIVE))
    ).filter(active__in=scale.order_of_battle_sizes)
    forces = {force.active: force for force in sized.select_related("player")}
    missing = set(scale.order_of_battle_sizes) - set(forces)
    if missing:
        raise PageFailed(f"no force with exactly {sorted(missing)} units in {campaign.name}")
    return forces


def _longest_history(campaign: Campaign, scale: Scale) -> CrusadeForce:
    """The force with the most history rows, the Order of Battle forces left aside."""
    sized = _order_of_battle_forces(campaign, scale).values()
    return (
        campaign.forces.exclude(pk__in=[f.pk for f in sized])
        .annotate(entries=Count("history"))
        .order_by("-entries", "pk")
        .first()
    )


def _cards(campaign: Campaign):
    """Active units with what their card shows most of: honours and scars held."""
    return (
        Unit.objects.filter(force__campaign=campaign, status=Unit.Status.ACTIVE)
        .select_related("force__player")
        .annotate(
            honours_held=Count("honours", filter=Q(honours__status="active"), distinct=True),
            scars_held=Count("scars", filter=Q(scars__status="active"), distinct=True),
        )
    )


def _unit_with_the_same_record(campaign: Campaign, like: Unit) -> Unit:
    """The unit whose record (battles played, honours, scars) is closest to `like`'s,
    of the same datasheet if one is as close."""
    distance = (
        Abs(F("battles_played") - like.battles_played)
        + Abs(F("honours_held") - like.honours_held)
        + Abs(F("scars_held") - like.scars_held)
    )
    other_datasheet = Case(When(datasheet=like.datasheet, then=0), default=1)
    return (
        _cards(campaign)
        .annotate(distance=distance, other_datasheet=other_datasheet)
        .order_by("distance", "other_datasheet", "pk")
        .first()
    )


def side_by_side(league: list[Probe], baseline: list[Probe]) -> list[Probe]:
    """The league's probes, each 20-battle probe right after its league twin, so that the
    two are timed a moment apart in every round."""
    twins = {probe.key.removesuffix("_baseline"): probe for probe in baseline}
    ordered = []
    for probe in league:
        ordered.append(probe)
        if probe.key in twins:
            ordered.append(twins.pop(probe.key))
    return ordered + list(twins.values())


def _first_side(battle: Battle) -> BattleParticipant:
    return battle.participants.select_related("force__player").order_by("pk").first()


def _a_player_of(battle: Battle):
    return _first_side(battle).force.player


def size_independent_probes(
    subjects: Subjects, database: BenchDatabase, *, suffix: str = ""
) -> list[Probe]:
    """The pages that should not slow down as the league plays more battles."""
    clients = Clients()
    battle, in_progress, unit, force = (
        subjects.battle,
        subjects.in_progress,
        subjects.unit,
        subjects.force,
    )
    with database.active():
        return [
            page_probe(
                f"battle_detail{suffix}",
                database,
                clients.of(_a_player_of(battle)),
                reverse("battle_detail", args=[battle.pk]),
            ),
            page_probe(
                f"record_form{suffix}",
                database,
                clients.of(_a_player_of(in_progress)),
                reverse("army_record", args=[_first_side(in_progress).pk]),
            ),
            page_probe(
                f"muster_form{suffix}",
                database,
                clients.of(subjects.to_muster.force.player),
                reverse("army_muster", args=[subjects.to_muster.pk]),
            ),
            page_probe(
                f"crusade_card{suffix}",
                database,
                clients.of(unit.force.player),
                reverse("unit_detail", args=[unit.pk]),
            ),
            page_probe(
                f"force_history{suffix}",
                database,
                clients.of(force.player),
                reverse("force_history", args=[force.pk]),
            ),
        ]


def league_probes(subjects: Subjects, database: BenchDatabase) -> list[Probe]:
    """Every page of the league, and the reference: the admin login page."""
    clients = Clients()
    campaign_url = reverse("campaign_detail", args=[subjects.campaign.pk])
    with database.active():
        probes = [
            page_probe("admin_login", database, clients.of(None), reverse("admin:login")),
            *(
                probe(key, database, clients.of(subjects.force.player), campaign_url)
                for probe, key in (
                    (page_probe, "campaign_page"),
                    (first_look_probe, "campaign_page_first"),
                )
            ),
            page_probe(
                "campaign_log",
                database,
                clients.of(subjects.force.player),
                reverse("campaign_log", args=[subjects.campaign.pk]),
            ),
            *size_independent_probes(subjects, database),
        ]
        for size, force in sorted(subjects.order_of_battle.items()):
            url = reverse("force_detail", args=[force.pk])
            probes.append(
                page_probe(f"order_of_battle_{size}", database, clients.of(force.player), url)
            )
            probes.append(
                first_look_probe(
                    f"order_of_battle_{size}_first", database, clients.of(force.player), url
                )
            )
        for size in (5, 30):
            probes.append(_record_end_probe(subjects, database, size, clients))
        organiser = clients.of(subjects.organiser)
        for key, model in (
            ("admin_history", "historyentry"),
            ("admin_forces", "crusadeforce"),
            ("admin_units", "unit"),
            ("admin_battles", "battle"),
        ):
            url = reverse(f"admin:campaign_{model}_changelist")
            probes.append(page_probe(key, database, organiser, url))
    return probes


def _record_end_probe(
    subjects: Subjects, database: BenchDatabase, size: int, clients: Clients
) -> Probe:
    """POST the confirmed record form of the side that completes a fresh 2 x `size` battle
    of the two big forces (the other side recorded first)."""
    forces = [force for _, force in sorted(subjects.order_of_battle.items())][:2]
    battle_size = "Onslaught" if size > 10 else "Strike Force"
    armies = []
    for force in forces:
        cheapest_first = sorted(army_candidates(force), key=lambda u: (u.points, u.pk))
        army = pick_army(cheapest_first, size=size, points_limit=rules.BATTLE_SIZES[battle_size])
        if len(army) != size:
            raise PageFailed(f"{force.name} cannot muster {size} units")
        armies.append((force, army))
    client = clients.of(forces[1].player)

    def prepare() -> tuple[str, Callable[[], HttpResponse]]:
        battle = moves.start_and_muster(
            campaign=subjects.campaign, armies=armies, battle_size=battle_size, mission="Linchpin"
        )
        first, last = battle.participants.order_by("pk")
        services.record_side(actor=forces[0].player, **side_record(first, "win"))
        url = reverse("army_record", args=[last.pk])
        data = record_form_data(last, "loss")
        return url, lambda: client.post(url, data)

    return Probe(f"record_end_{size}", database, prepare, expect=302, rollback=True)


def _marked(entries: list[BattleUnit]) -> BattleUnit | None:
    return next(
        (
            e
            for e in entries
            if rules.marked_for_greatness_refusal(e.unit.facts(pending_promotions=0)) is None
        ),
        None,
    )


def _what_each_did(entries: list[BattleUnit]):
    """(entry, kills, bonus XP, bonus reason, destroyed) as a player fills them in."""
    for number, entry in enumerate(entries):
        bonus = number == 0
        yield entry, number % 3, int(bonus), AGENDAS[0] if bonus else "", number % 5 == 4


def side_record(participant: BattleParticipant, result: str) -> dict:
    """What `record_form_data` posts, as `services.record_side` arguments."""
    entries = list(participant.army.select_related("unit").order_by("pk"))
    marked = _marked(entries)
    return {
        "participant": participant,
        "result": result,
        "outcomes": {
            entry.pk: services.UnitOutcome(
                destroyed=destroyed,
                enemy_units_destroyed=kills,
                marked_for_greatness=marked is not None and entry.pk == marked.pk,
                bonus_xp=bonus,
                bonus_xp_reason=reason,
            )
            for entry, kills, bonus, reason, destroyed in _what_each_did(entries)
        },
    }


def record_form_data(participant: BattleParticipant, result: str) -> dict[str, str]:
    """One side's confirmed record form as its player fills it in: kills, losses, a bonus."""
    entries = list(participant.army.select_related("unit").order_by("pk"))
    marked = _marked(entries)
    data = {"confirm": "1", "result": result, "marked": str(marked.pk) if marked else ""}
    for entry, kills, bonus, reason, destroyed in _what_each_did(entries):
        data[f"kills_{entry.pk}"] = str(kills)
        data[f"bonus_{entry.pk}"] = str(bonus)
        data[f"reason_{entry.pk}"] = reason
        if destroyed:
            data[f"destroyed_{entry.pk}"] = "on"
    return data


# Targets ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    key: str
    page: str
    timing: Timing
    ratio_to_login: float
    target: str
    met: bool | None
    """None for the reference and the rows others are compared with."""
    ratio_to_baseline: float | None = None

    def as_json(self) -> dict:
        return {
            "key": self.key,
            "page": self.page,
            "queries": self.timing.queries,
            "median_ms": round(self.timing.median_ms, 3),
            "min_ms": round(min(self.timing.samples_ms), 3),
            "max_ms": round(max(self.timing.samples_ms), 3),
            "ratio_to_login": round(self.ratio_to_login, 3),
            "ratio_to_baseline": (
                round(self.ratio_to_baseline, 3) if self.ratio_to_baseline is not None else None
            ),
            "target": self.target,
            "met": self.met,
        }


SIZE_INDEPENDENT = {
    "battle_detail": "battle detail",
    "record_form": "record form",
    "muster_form": "muster form",
    "crusade_card": "Crusade card",
    "force_history": "force history",
}


def judge(
    timings: dict[str, Timing], *, league: Scale, baseline: Scale, counts: dict[str, int]
) -> list[Row]:
    """The results table: each measurement against its target.

    Pages are labelled with the sizes the targets are stated at (`league`, `baseline`),
    the admin changelists with the rows they list (`counts`, from the database).
    """
    login = timings["admin_login"]

    def row(key: str, page: str, timing: Timing, target: str, met: bool | None, **extra) -> Row:
        return Row(key, page, timing, timing.ratio_to(login), target, met, **extra)

    def times_login(key: str, page: str, times: int) -> Row:
        timing = timings[key]
        return row(key, page, timing, f"<= {times}x admin login", timing.ratio_to(login) <= times)

    def first_look(key: str, page: str) -> Row:
        """The same page just after a change: measured, with no target of its own."""
        return row(key, f"{page}, first look after a change", timings[key], "", None)

    battles = league.battles
    rows = [
        row("admin_login", "admin login page, the reference", timings["admin_login"], "", None),
        times_login(
            "campaign_page",
            f"campaign page, {league.forces} forces / {league.units:,} units / {battles:,} "
            f"battles / {counts['territories']} territories / {counts['log_entries']} log "
            f"entries / {counts['phases']} phases",
            3,
        ),
        first_look("campaign_page_first", "campaign page"),
        row(
            "campaign_log",
            f"the campaign's log, {counts['log_entries']} entries",
            timings["campaign_log"],
            "",
            None,
        ),
    ]
    for key, page in SIZE_INDEPENDENT.items():
        small, big = timings[f"{key}_baseline"], timings[key]
        ratio = big.ratio_to(small)
        rows.append(row(f"{key}_baseline", f"{page}, {baseline.battles} battles", small, "", None))
        rows.append(
            row(
                key,
                f"{page}, {battles:,} battles",
                big,
                f"{baseline.battles}-battle time ±25% (x{ratio:.2f}), same queries",
                abs(ratio - 1) <= SAME_SPEED_TOLERANCE and big.queries == small.queries,
                ratio_to_baseline=ratio,
            )
        )
    for size, times in ((50, 3), (200, 6)):
        rows.append(times_login(f"order_of_battle_{size}", f"Order of Battle, {size} units", times))
        if size == 200:
            fifty, two_hundred = timings["order_of_battle_50"], timings["order_of_battle_200"]
            rows[-1] = row(
                rows[-1].key,
                rows[-1].page,
                two_hundred,
                f"<= {times}x admin login, the queries of 50 units",
                rows[-1].met and two_hundred.queries == fifty.queries,
            )
        rows.append(first_look(f"order_of_battle_{size}_first", f"Order of Battle, {size} units"))
    few, many = timings["record_end_5"], timings["record_end_30"]
    rows.append(row("record_end_5", "recording a battle end, 2x5 units", few, "", None))
    rows.append(
        row(
            "record_end_30",
            "recording a battle end, 2x30 units",
            many,
            f"<= {RECORD_QUERY_BUDGET} queries, no more than 2x5",
            many.queries <= RECORD_QUERY_BUDGET and many.queries <= few.queries,
        )
    )
    for key, page in (
        ("admin_history", f"admin history changelist, {counts['history']:,} rows"),
        ("admin_forces", f"admin forces changelist, {counts['forces']} forces"),
        ("admin_units", f"admin units changelist, {counts['units']:,} units"),
        ("admin_battles", f"admin battles changelist, {counts['battles']:,} battles"),
    ):
        timing = timings[key]
        rows.append(
            row(
                key,
                page,
                timing,
                f"<= {ADMIN_BUDGET_MS:.0f} ms",
                timing.median_ms <= ADMIN_BUDGET_MS,
            )
        )
    return rows


def table(rows: list[Row]) -> list[str]:
    """The results as aligned text lines."""
    header = ("page or step", "queries", "median ms", "x login", "target", "result")
    cells = [
        (
            r.page,
            str(r.timing.queries),
            f"{r.timing.median_ms:.1f}",
            f"{r.ratio_to_login:.1f}",
            r.target or "-",
            "-" if r.met is None else ("MET" if r.met else "NOT MET"),
        )
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [header, *cells]) for i in range(len(header))]
    right = {1, 2, 3}

    def line(values) -> str:
        return "  ".join(
            v.rjust(w) if i in right else v.ljust(w)
            for i, (v, w) in enumerate(zip(values, widths, strict=True))
        ).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(c) for c in cells)]


def slowest_queries(rows: list[Row], count: int, *, width: int = 160) -> list[str]:
    """Each row's `count` slowest queries (from its counted run), for finding what grows."""
    lines = []
    for r in rows:
        lines.append(f"{r.page}: {r.timing.queries} queries")
        for query in r.timing.slowest(count):
            sql = " ".join(query.sql.split())
            lines.append(f"  {query.ms:8.1f} ms  {sql[:width]}")
    return lines
