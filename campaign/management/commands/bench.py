"""`manage.py bench`: how page time depends on campaign size, at league scale.

Seeds a league (100 forces, 5,000 units, 2,000 battles by default) through the
services in a database of the benchmark's own, and the same league at the start of
its season (its first 20 battles) in another; then times the pages against the
targets of the issue "Fast where players wait" (ratios to the admin login page) and
prints a table. It is a
measurement: the exit status is 0 whether the targets are met or not. Tests assert
query counts; times live here.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path

import django
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from campaign.benchmark import probes, seed, stopwatch, subjects, targets
from campaign.benchmark.database import BenchDatabase, own_database


class Command(BaseCommand):
    help = (
        "Seed a league through the services in a throwaway database, then time the pages "
        "against their targets (a measurement: exits 0 either way)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--scale",
            choices=sorted(seed.SCALES),
            default=seed.LEAGUE.name,
            help="league: 100 forces, 5,000 units, 2,000 battles (default); "
            "small: a run of seconds, for a quick look and the test suite.",
        )
        parser.add_argument(
            "--repeat", type=int, default=20, help="Rounds: every page is timed once per round."
        )
        parser.add_argument(
            "--keep",
            action="store_true",
            help="Keep the seeded databases after the run (SQLite: files in the temp "
            "directory) so that --reuse can measure them again.",
        )
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="Measure the databases a --keep run left instead of seeding again (they "
            "are seeded if missing, incomplete or older than the latest migration, and "
            "kept). After changing the services, run once without it.",
        )
        parser.add_argument("--json", metavar="PATH", help="Also write the results as JSON.")
        parser.add_argument(
            "--only",
            metavar="KEYS",
            default="",
            help="Time only the probes whose key starts with one of these comma-separated "
            "words (say card,record_form), beside the admin login page: a quick look while "
            "working on a page. Its 'targets met' count covers those rows only.",
        )
        parser.add_argument(
            "--queries",
            type=int,
            default=0,
            metavar="N",
            help="Also print each page's N slowest queries, to see which ones grow.",
        )

    def handle(self, *args, scale: str, repeat: int, keep: bool, reuse: bool, **options) -> None:
        if repeat < 1:
            raise CommandError("--repeat must be at least 1.")
        league_scale = seed.SCALES[scale]
        baseline_scale = league_scale.at_start_of_season()
        vendor = connection.display_name
        try:
            with (
                stopwatch.measuring(),
                own_database(baseline_scale.name, keep=keep, reuse=reuse) as baseline_db,
                own_database(league_scale.name, keep=keep, reuse=reuse) as league_db,
            ):
                baseline_report = self._seed(baseline_scale, baseline_db, reuse=reuse)
                league_report = self._seed(league_scale, league_db, reuse=reuse)
                league_subjects, baseline_subjects = subjects.find_subjects(
                    (league_db, league_report.campaign),
                    (baseline_db, baseline_report.campaign),
                    league_scale,
                )
                measured = probes.side_by_side(
                    probes.league_probes(league_subjects, league_db),
                    probes.baseline_probes(baseline_subjects, baseline_db),
                )
                measured = _only(measured, options["only"])
                self._say(f"timing {len(measured)} pages and steps, {repeat} rounds")
                timings = stopwatch.Stopwatch(repeat).measure(measured, frozen=True)
                machine = _machine()
        except stopwatch.PageFailed as error:
            raise CommandError(f"bench: {error}") from error
        rows = targets.judge(
            timings, league=league_scale, baseline=baseline_scale, counts=league_report.counts
        )
        met = sum(1 for r in rows if r.met)
        judged = sum(1 for r in rows if r.met is not None)
        if options["queries"]:
            self.stdout.write("")
            self.stdout.write("\n".join(targets.slowest_queries(rows, options["queries"])))
        self.stdout.write("")
        self.stdout.write("\n".join(targets.table(rows)))
        self.stdout.write("")
        self.stdout.write(
            f"bench: {met} of {judged} targets met on {vendor} ({league_scale.name} scale, "
            f"median of {repeat} rounds; seeding took {league_report.seconds:,.1f} s)."
        )
        self.stdout.write(
            f"bench: {machine['cpus']} CPUs, load average {machine['load_average']:.1f} "
            "while timing (this run counts for about 1)."
        )
        if machine["load_average"] > machine["cpus"]:
            self.stdout.write(
                "bench: the machine was busy with other work: times are inflated, ratios "
                "less so. Run again when it is quieter for numbers to compare."
            )
        if options["json"]:
            self._write_json(
                Path(options["json"]),
                vendor=vendor,
                scale=league_scale,
                repeat=repeat,
                reports={"league": league_report, "baseline": baseline_report},
                rows=rows,
                met=met,
                targets=judged,
                machine=machine,
            )

    def _seed(self, scale: seed.Scale, database: BenchDatabase, *, reuse: bool) -> seed.SeedReport:
        """Seed the campaign of `scale` in its database, or reuse the one a kept run left."""
        self._say(
            f"{scale.campaign}: {scale.forces} forces, {scale.units:,} units, "
            f"{scale.battles:,} battles, in {database.describe()}"
        )
        with database.active():
            campaign = seed.seeded_campaign(scale) if reuse else None
            if campaign is not None:
                report = seed.reuse(campaign)
                self._say(f"  reusing it (seeding it took {report.seconds:,.1f} s)")
            else:
                if reuse:  # kept from an interrupted or older seed: start afresh
                    call_command("flush", interactive=False, verbosity=0)
                report = seed.seed(scale, progress=self._say)
                self._say(f"  seeded in {report.seconds:,.1f} s")
        database.settle()
        counts = ", ".join(f"{n:,} {what.replace('_', ' ')}" for what, n in report.counts.items())
        self._say(f"  {counts}")
        return report

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()

    def _write_json(
        self, path: Path, *, vendor, scale, repeat, reports, rows, met, targets, machine
    ):
        result = {
            "database": vendor,
            "scale": scale.name,
            "repeat": repeat,
            "django": django.get_version(),
            "python": platform.python_version(),
            "machine": machine,
            "seeding": {
                name: {
                    "campaign": report.campaign.name,
                    "seconds": round(report.seconds, 1),
                    "reused": report.reused,
                    **report.counts,
                }
                for name, report in reports.items()
            },
            "rows": [row.as_json() for row in rows],
            "summary": {"met": met, "targets": targets},
        }
        path.write_text(json.dumps(result, indent=2) + "\n")
        self._say(f"bench: results written to {path}")


def _only(measured: list, keys: str) -> list:
    """The probes ``--only`` names (by the start of their key), and the reference."""
    starts = tuple(word.strip() for word in keys.split(",") if word.strip())
    if not starts:
        return measured
    return [p for p in measured if p.key == "admin_login" or p.key.startswith(starts)]


def _machine() -> dict:
    """How busy the machine was while timing: other work on it inflates every time."""
    return {
        "cpus": os.cpu_count() or 1,
        "load_average": os.getloadavg()[0],
        "platform": platform.platform(),
    }
