"""`make load`: the league under load. `.venv/bin/python -m scripts.load --help`.

1. The league: the benchmark's kept one (`manage.py bench --keep`), else this command's
   kept one, else seeded now and kept (`scripts/load/league.py`).
2. A copy of it, migrated: a SQLite file, or with --postgresql a database of its own in
   that cluster, loaded from the SQLite copy.
3. Sessions for its players, made beforehand with the server's SECRET_KEY, and their
   forces' and units' numbers noted (`scripts/load/players.py`).
4. gunicorn with the production settings (DEBUG=0, secure cookies and HSTS off: plain
   HTTP on 127.0.0.1), `--workers 2 --threads 4` as the README deploys it.
5. locust, headless, on this machine (`scripts/load/locustfile.py`), then its numbers by
   kind of page against the targets, and whether every force's and unit's numbers add up.

With --throughput, instead of 4-5: requests per second per page with wrk, for several
workers x threads and numbers of connections. Times are measured here, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

import django

from tests.concurrency.live import (
    PYTHON,
    REPO,
    Server,
    app_environment,
    manage,
    production_env,
    running,
    temporary_directory,
)

from . import league, report, throughput

SHAPE = re.compile(r"(\d+)x(\d+)")
SERVER_OPTIONS = "--reuse-port"
"""gunicorn's options beyond workers and threads, as the README's Deploying runs it."""


def positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value}: must be 1 or more")
    return number


def shapes(value: str) -> list[tuple[int, int]]:
    found = []
    for part in value.split(","):
        match = SHAPE.fullmatch(part.strip())
        if not match or min(int(match[1]), int(match[2])) < 1:
            raise argparse.ArgumentTypeError(f"{part!r}: write WORKERSxTHREADS, e.g. 2x4")
        found.append((int(match[1]), int(match[2])))
    return found


def numbers(value: str) -> list[int]:
    return [positive(part) for part in value.split(",")]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m scripts.load", description=__doc__.split("\n")[0])
    p.add_argument("--users", type=positive, default=50, help="simulated players (default 50)")
    p.add_argument("--spawn-rate", type=positive, default=10, help="players started per second")
    p.add_argument("--time", type=positive, default=60, help="seconds of load (default 60)")
    p.add_argument("--workers", type=positive, default=2, help="gunicorn workers (default 2)")
    p.add_argument("--threads", type=positive, default=4, help="threads per worker (default 4)")
    p.add_argument(
        "--gunicorn",
        type=shlex.split,
        default=shlex.split(SERVER_OPTIONS),
        metavar="OPTIONS",
        help=f"more gunicorn options (default: the README's, {SERVER_OPTIONS!r})",
    )
    p.add_argument("--scale", choices=["league", "small"], default="league")
    p.add_argument("--postgresql", metavar="URL", help="serve from a database in this cluster")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    p.add_argument("--throughput", action="store_true", help="measure requests/s per page with wrk")
    p.add_argument("--shapes", type=shapes, default=shapes("2x4,4x1,4x2,2x8"))
    p.add_argument("--connections", type=numbers, default=numbers("4,16,64"))
    p.add_argument("--seconds", type=positive, default=3, help="seconds per wrk measurement")
    p.add_argument("--rounds", type=positive, default=3, help="rounds of every page (median)")
    return p


def say(text: str) -> None:
    print(text, flush=True)


def in_app(env: dict, step: str, campaign: str, count: int, path: Path) -> dict:
    code = (
        "from scripts.load import players; "
        f"players.main({step!r}, {campaign!r}, {count}, {str(path)!r})"
    )
    out = manage(env, "shell", "--no-imports", "--command", code)
    return json.loads(out.strip().splitlines()[-1])


def cpu_seconds(pid: int) -> float:
    import psutil

    try:
        process = psutil.Process(pid)
        total = 0.0
        for p in [process, *process.children(recursive=True)]:
            times = p.cpu_times()
            total += times.user + times.system
        return total
    except psutil.Error:
        return 0.0


def server_errors(log: Path) -> list[str]:
    """The tracebacks in the server's log, each with the line before it (the request)."""
    if not log.exists():
        return []
    found, current, previous = [], None, ""
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("Traceback"):
            current = [previous, line]
            found.append(current)
        elif current is not None:
            current.append(line)
            if not line.startswith((" ", "\t")):  # the exception itself ends it
                current = None
        previous = line
    return ["\n".join(lines[-40:]) for lines in found]


def run_locust(args, server: Server, players: Path, work: Path) -> dict:
    prefix = work / "locust"
    command = [
        PYTHON, "-m", "locust", "-f", str(REPO / "scripts/load/locustfile.py"), "--headless",
        "-u", str(args.users), "-r", str(args.spawn_rate), "-t", f"{args.time}s",
        "--host", server.url, "--csv", str(prefix), "--only-summary", "--stop-timeout", "15",
        "--loglevel", "WARNING",
    ]  # fmt: skip
    env = app_environment(CRUSADE_LOAD_PLAYERS=str(players), PYTHONPATH=str(REPO))
    before_server = cpu_seconds(server.process.pid)
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    with open(work / "locust.log", "w") as log:
        done = subprocess.run(
            command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
            timeout=args.time + 180,
        )  # fmt: skip
    wall = time.monotonic() - started
    after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_average = os.getloadavg()[0]
    if not Path(f"{prefix}_stats.csv").exists():
        raise SystemExit(f"load: locust wrote no statistics:\n{(work / 'locust.log').read_text()}")
    locust_cpu = (after_children.ru_utime + after_children.ru_stime) - (
        before_children.ru_utime + before_children.ru_stime
    )
    return {
        "rows": report.read(prefix),
        "failures": report.failures(prefix),
        "wall": wall,
        "server_cores": (cpu_seconds(server.process.pid) - before_server) / wall,
        "locust_cores": locust_cpu / wall,
        "load_average": load_average,
        "errors_log": (work / "locust.log").read_text()[-2000:] if done.returncode > 1 else "",
    }


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.throughput and not throughput.available():
        raise SystemExit("load: --throughput needs wrk (apt-get install wrk; .ci/system-deps)")
    # This process only seeds, if it has to: in a file of its own, never the configured one.
    os.environ["DATABASE_URL"] = "sqlite:///:memory:"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
    django.setup()
    from campaign.benchmark import seed

    scale = seed.SCALES[args.scale]
    source = league.find_or_seed(scale, say)
    vendor = "PostgreSQL" if args.postgresql else "SQLite"
    results: dict = {
        "vendor": vendor,
        "scale": scale.name,
        "users": args.users,
        "seconds": args.time,
    }
    pg_name = f"crusade_load_{os.getpid()}"
    with temporary_directory("crusade-load-") as work:
        copy = work / "league.sqlite3"
        league.copy_sqlite(source, copy)
        env = production_env(
            f"sqlite:///{copy}", static_root=work / "static", media_root=work / "media"
        )
        say(f"load: copied to {copy}; migrating it")
        manage(env, "migrate", "--noinput")
        try:
            if args.postgresql:
                env["DATABASE_URL"] = league.create_postgresql(args.postgresql, pg_name)
                manage(env, "migrate", "--noinput")
                started = time.monotonic()
                rows = league.copy_to_postgresql(copy, env["DATABASE_URL"])
                seconds = time.monotonic() - started
                say(f"load: {rows:,} rows copied into PostgreSQL {pg_name} in {seconds:.0f} s")
            manage(env, "collectstatic", "--noinput")
            players = work / "players.json"
            prepared = in_app(env, "prepare", scale.campaign, args.users, players)
            say(f"load: {prepared['players']} players, each with a session made beforehand")
            if args.throughput:
                listed = work / "pages.json"
                in_app(env, "pages", scale.campaign, args.users, listed)
                results["throughput"] = measure_throughput(args, env, listed, work)
            else:
                results.update(measure_load(args, env, players, work, scale))
        finally:
            if args.postgresql:
                league.drop_postgresql(args.postgresql, pg_name)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, default=str))
    return 0


def warm_up(server: Server, players: Path) -> None:
    """Each worker's first looks (templates compiled, caches filled) before the clock runs,
    as in a server that has been up a while: a few players' pages, a few times each."""
    for player in json.loads(players.read_text())["players"][:4]:
        client = server.player()
        client.cookies["sessionid"] = player["session"]
        for _ in range(3):
            for path, _cookie in throughput.pages(player).values():
                client.get(path)


def measure_load(args, env: dict, players: Path, work: Path, scale) -> dict:
    server = Server(
        env, work / "server.log", workers=args.workers, threads=args.threads, options=args.gunicorn
    )
    options = " ".join(["", *args.gunicorn])
    say(f"load: gunicorn --workers {args.workers} --threads {args.threads}{options}; locust "
        f"--headless -u {args.users} -r {args.spawn_rate} -t {args.time}s")  # fmt: skip
    with running(server):
        warm_up(server, players)
        run = run_locust(args, server, players, work)
    totals = in_app(env, "check", scale.campaign, args.users, players)
    rows = run["rows"]
    vendor = "PostgreSQL" if args.postgresql else "SQLite"
    say("")
    say("\n".join(report.table(rows)))
    say("")
    for line in run["failures"][:10]:
        say(f"load: failure {line}")
    if run["failures"]:
        # What the server said about them (its log goes with the work directory).
        for traceback in server_errors(work / "server.log")[:3]:
            say(f"load: the server logged:\n{traceback}")
    if run["errors_log"]:
        say(f"load: locust said:\n{run['errors_log']}")
    judged = [r for r in rows if r.met is not None]
    met = sum(1 for r in judged if r.met)
    everything = met == len(judged) and totals["problem_count"] == 0
    say(
        f"load: {vendor}, {args.users} players for {args.time} s, gunicorn {args.workers}x"
        f"{args.threads}: {met} of {len(judged)} kinds within target; "
        + ("MET" if everything else "NOT MET")
    )
    served = rows[-1].requests if rows and rows[-1].name == "Aggregated" else 0
    cpu_ms = run["server_cores"] * run["wall"] * 1000 / max(served, 1)
    say(
        f"load: {os.cpu_count()} CPUs, load average {run['load_average']:.1f} at the end; "
        f"the server used {run['server_cores']:.2f} cores ({cpu_ms:.0f} ms of CPU a request), "
        f"locust {run['locust_cores']:.2f}"
    )
    battles = totals["battles"]
    say(
        f"load: totals: {battles['completed']} battles completed ({battles['in_progress']} left "
        f"in progress at the stop), {totals['sides_recorded']} sides, {totals['units_changed']} "
        f"units, {totals['purchases']} purchases ({totals['rp_spent']} RP) over "
        f"{totals['forces_checked']} forces: "
        + (
            "every number adds up"
            if totals["problem_count"] == 0
            else f"{totals['problem_count']} do not: {totals['problems'][:5]}"
        )
    )
    return {
        "rows": [r.as_dict() for r in rows],
        "failures": run["failures"],
        "totals": totals,
        "met": everything,
        "load_average": run["load_average"],
        "server_cores": run["server_cores"],
        "server_cpu_ms_per_request": cpu_ms,
        "locust_cores": run["locust_cores"],
        "workers": args.workers,
        "threads": args.threads,
    }


def measure_throughput(args, env: dict, listed: Path, work: Path) -> dict:
    """Every page a player opens (`players.pages`), each shape, each number of connections;
    then the verdicts (`throughput.verdicts`)."""
    pages = json.loads(listed.read_text())
    measured = []
    for workers, threads in args.shapes:
        shape = f"{workers}x{threads}"
        log = work / f"server-{shape}.log"
        server = Server(env, log, workers=workers, threads=threads, options=args.gunicorn)
        with running(server):
            for page in pages:  # each worker's first looks, before the clock runs
                throughput.wrk(
                    server.url + page["path"], connections=2, seconds=1, cookie=page["session"]
                )
            # Round after round of every page, so that a slower minute of the machine
            # falls on every page alike; each page's median is judged.
            for round_number in range(1, args.rounds + 1):
                for page in pages:
                    url, cookie = server.url + page["path"], page["session"]
                    for connections in args.connections:
                        rps, p50, p99, errors = throughput.wrk(
                            url, connections=connections, seconds=args.seconds, cookie=cookie
                        )
                        measured.append(
                            throughput.Sample(
                                shape, page["page"], connections, rps, p50, p99, errors
                            )
                        )
                        say(f"  {shape} round {round_number} {page['page']:20} {connections:3} "
                            f"connections: {rps:6.0f} req/s, p50 {p50:.0f} ms, p99 {p99:.0f} ms, "
                            f"{errors} errors")  # fmt: skip
    samples = throughput.medians(measured)
    say("")
    say("\n".join(throughput.table(samples, args.connections)))
    say("")
    verdicts = throughput.verdicts(samples, args.connections)
    for verdict in verdicts:
        say(f"load: {verdict.line()}: {'MET' if verdict.met else 'NOT MET'}")
    for shape in dict.fromkeys(v.shape for v in verdicts):
        judged = [v for v in verdicts if v.shape == shape]
        met = sum(v.met for v in judged)
        say(f"load: throughput, gunicorn {shape}: {met} of {len(judged)} pages within target")
    say(f"load: load average {os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} CPUs")
    return {
        "measured": [s.__dict__ for s in measured],
        "samples": [s.__dict__ for s in samples],
        "verdicts": [{**v.__dict__, "met": v.met} for v in verdicts],
    }


if __name__ == "__main__":
    sys.exit(main())
