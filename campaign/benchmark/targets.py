"""The targets of the issue "Fast where players wait", and the results table.

Times are stated as ratios to the admin login page timed in the same rounds, which
makes runs on different machines comparable; the battle steps are judged on queries.
"""

from __future__ import annotations

from dataclasses import dataclass

from .seed import Scale
from .steps import (
    COMPLETE_QUERY_BUDGET,
    MUSTER_QUERY_BUDGET,
    RECORD_SIDE_QUERY_BUDGET,
    STEP_SIZES,
)
from .stopwatch import Timing

PLAYER_PAGE_TIMES = 3
FIRST_LOOK_TIMES = 4
FIRST_LOOK_TIMES_EXCEPTIONS = {"order_of_battle_200": 6}
MUSTER_200_TIMES, MUSTER_200_KB = 6, 150
PRINT_TIMES = {50: 4, 200: 8}
EXPORT_TIMES = 20
IMPORT_TIMES = 4
ADMIN_TIMES = 5


@dataclass(frozen=True)
class Row:
    key: str
    page: str
    timing: Timing
    ratio_to_login: float
    target: str
    met: bool | None
    """None for the reference and the rows shown for comparison only."""
    ratio_to_baseline: float | None = None

    def as_json(self) -> dict:
        return {
            "key": self.key,
            "page": self.page,
            "queries": self.timing.queries,
            "kb": round(self.timing.kb, 1),
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


def player_pages(league: Scale, counts: dict[str, int]) -> dict[str, str]:
    """The pages every player opens, by key, as the table names them."""
    return {
        "dashboard": "dashboard",
        "campaign_page": (
            f"campaign page, {league.forces} forces / {league.units:,} units / "
            f"{counts['battles']:,} battles"
        ),
        "order_of_battle_50": "Order of Battle, 50 units",
        "order_of_battle_200": "Order of Battle, 200 units",
        "crusade_card": "Crusade card of a veteran",
        "battle_detail": "battle detail",
        "record_form": "record form",
        "muster_form_50": "muster form, 50 units",
        "start_battle": f"start-a-battle form, {league.forces} forces to invite",
        "force_history": "force history",
    }


BASELINE_TWINS = ("battle_detail", "record_form", "force_history")
"""Pages whose subject is the same in the 20-battle league: shown beside it."""


def judge(
    timings: dict[str, Timing], *, league: Scale, baseline: Scale, counts: dict[str, int]
) -> list[Row]:
    """The results table: each measurement against its target."""
    login = timings["admin_login"]

    def row(key: str, page: str, target: str, met: bool | None, **extra) -> Row | None:
        timing = timings.get(key)
        if timing is None:  # left out of the run (`--only`)
            return None
        return Row(key, page, timing, timing.ratio_to(login), target, met, **extra)

    def times(key: str, page: str, limit: float, *, kb: float | None = None) -> Row | None:
        if key not in timings:
            return None
        ratio = timings[key].ratio_to(login)
        target = f"<= {limit:g}x login"
        met = ratio <= limit
        if kb is not None:
            target += f", <= {kb:g} KB"
            met = met and timings[key].kb <= kb
        return row(key, page, target, met)

    rows: list[Row | None] = [row("admin_login", "admin login page, the reference", "", None)]
    for key, page in player_pages(league, counts).items():
        if key in BASELINE_TWINS:
            rows.append(row(f"{key}_baseline", f"{page}, {baseline.battles} battles", "", None))
            page = f"{page}, {league.battles:,} battles"
        rows.append(times(key, page, PLAYER_PAGE_TIMES))
        if key in BASELINE_TWINS and rows[-1] is not None:
            ratio = timings[key].ratio_to(timings[f"{key}_baseline"])
            rows[-1] = Row(**{**rows[-1].__dict__, "ratio_to_baseline": ratio})
        limit = FIRST_LOOK_TIMES_EXCEPTIONS.get(key, FIRST_LOOK_TIMES)
        rows.append(times(f"{key}_first", f"{page}, first look after a write", limit))
        if key == "campaign_page":
            after = f"{page}, first look after a completed battle"
            rows.append(times("campaign_page_battle_first", after, FIRST_LOOK_TIMES))
    rows.append(
        times("muster_form_200", "muster form, 200 units", MUSTER_200_TIMES, kb=MUSTER_200_KB)
    )
    for size, limit in PRINT_TIMES.items():
        rows.append(times(f"print_{size}", f"print page, {size} units", limit))
    rows.append(times("export_json", "export JSON of the veteran's force", EXPORT_TIMES))
    rows.append(times("import_text", "import preview, 2,000-point app text", IMPORT_TIMES))
    rows.append(times("import_ros", "import preview, 2,000-point .ros file", IMPORT_TIMES))
    for step, what, budget in (
        ("muster_army", "mustering an army", MUSTER_QUERY_BUDGET),
        ("record_side", "recording a side", RECORD_SIDE_QUERY_BUDGET),
        ("complete_battle", "completing a battle", COMPLETE_QUERY_BUDGET),
    ):
        few = timings.get(f"{step}_{STEP_SIZES[0]}")
        for size in STEP_SIZES if few is not None else ():
            key = f"{step}_{size}"
            queries = timings[key].queries
            rows.append(
                row(
                    key,
                    f"{what}, {size} units",
                    f"<= {budget} queries, as many as {STEP_SIZES[0]} units",
                    queries <= budget and queries == few.queries,
                )
            )
    for key, page in (
        ("admin_units", f"admin units changelist, {counts['units']:,} units"),
        ("admin_battles", f"admin battles changelist, {counts['battles']:,} battles"),
        ("admin_history", f"admin history changelist, {counts['history']:,} rows"),
        ("admin_forces", f"admin forces changelist, {counts['forces']} forces"),
    ):
        rows.append(times(key, page, ADMIN_TIMES))
    return [r for r in rows if r is not None]


def table(rows: list[Row]) -> list[str]:
    """The results as aligned text lines."""
    header = ("page or step", "queries", "KB", "median ms", "x login", "target", "result")
    cells = [
        (
            r.page,
            str(r.timing.queries),
            f"{r.timing.kb:.1f}",
            f"{r.timing.median_ms:.1f}",
            f"{r.ratio_to_login:.1f}",
            r.target or "-",
            "-" if r.met is None else ("MET" if r.met else "NOT MET"),
        )
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [header, *cells]) for i in range(len(header))]
    right = {1, 2, 3, 4}

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
