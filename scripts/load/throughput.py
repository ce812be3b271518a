"""Requests per second per page, for several gunicorn shapes (workers x threads), with wrk
at several numbers of open connections; each page as a logged-in player sees it (the
admin login page logged out, as the benchmark's yardstick).

The targets of "Fast where players wait", judged for each shape: at 16 connections every
page a player opens serves at least half as many requests per second as the admin login
page, and no page serves fewer at 64 connections than at 4 (within `STEADY`: two runs of
the same page differ by a few per cent)."""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
from dataclasses import dataclass

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}
REFERENCE = "admin_login"
HALF = 0.5
"""A page's rate at `JUDGED` connections, at least this share of the admin login's."""
JUDGED = 16
STEADY = 0.9
"""A page's rate at the most connections, at least this share of its rate at the fewest."""


@dataclass
class Sample:
    shape: str
    page: str
    connections: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int


def medians(samples: list[Sample]) -> list[Sample]:
    """One sample for each shape, page and number of connections, from its rounds: the
    median rate and p50, the worst p99, every error."""
    rounds: dict[tuple[str, str, int], list[Sample]] = {}
    for sample in samples:
        rounds.setdefault((sample.shape, sample.page, sample.connections), []).append(sample)
    return [
        Sample(
            shape,
            page,
            connections,
            statistics.median(s.rps for s in taken),
            statistics.median(s.p50_ms for s in taken),
            max(s.p99_ms for s in taken),
            sum(s.errors for s in taken),
        )
        for (shape, page, connections), taken in rounds.items()
    ]


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(number) * UNITS[unit]


def wrk(
    url: str, *, connections: int, seconds: int, cookie: str | None
) -> tuple[float, float, float, int]:
    """requests/s, p50 and p99 in ms, and errors (non-2xx/3xx answers, socket errors)."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if cookie:
        command += ["-H", f"Cookie: sessionid={cookie}"]
    out = subprocess.run(
        [*command, url], capture_output=True, text=True, timeout=seconds + 60, check=True
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
    p50 = _ms(re.search(r"50%\s+([\d.]+\w+)", out)[1])
    p99 = _ms(re.search(r"99%\s+([\d.]+\w+)", out)[1])
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, p50, p99, errors + (int(bad[1]) if bad else 0)


def available() -> bool:
    return shutil.which("wrk") is not None


def pages(player: dict) -> dict[str, tuple[str, str | None]]:
    """Page name: (path, session cookie or None)."""
    session = player["session"]
    return {
        "admin login": ("/admin/login/", None),
        "order of battle": (f"/forces/{player['force']}/", session),
        "campaign": (f"/campaigns/{player['campaign']}/", session),
        "dashboard": ("/dashboard/", session),
        "card": (f"/units/{player['card']}/", session),
    }


@dataclass
class Verdict:
    shape: str
    page: str
    share: float | None
    """The page's rate at `JUDGED` connections over the admin login's."""
    kept: float | None
    """The page's rate at the most connections over its rate at the fewest."""

    @property
    def met(self) -> bool:
        share_met = self.page == REFERENCE or (self.share is not None and self.share >= HALF)
        return share_met and self.kept is not None and self.kept >= STEADY

    def line(self) -> str:
        share = "" if self.page == REFERENCE else f"{_times(self.share)} the login's rate, "
        return (
            f"{self.shape} {self.page}: {share}{_times(self.kept)} from fewest to most connections"
        )


def _times(ratio: float | None) -> str:
    return "?" if ratio is None else f"{ratio:.2f}x"


def verdicts(samples: list[Sample], connections: list[int]) -> list[Verdict]:
    """Each (shape, page) judged against the targets (see the module's note)."""
    rate = {(s.shape, s.page, s.connections): s.rps for s in samples}
    fewest, most = min(connections), max(connections)
    found = []
    for shape, page in dict.fromkeys((s.shape, s.page) for s in samples):
        login = rate.get((shape, REFERENCE, JUDGED))
        mine = rate.get((shape, page, JUDGED))
        share = mine / login if login and mine is not None else None
        low, high = rate.get((shape, page, fewest)), rate.get((shape, page, most))
        kept = high / low if low and high is not None and fewest != most else None
        found.append(Verdict(shape, page, share, kept))
    return found


def table(samples: list[Sample], connections: list[int]) -> list[str]:
    head = " | ".join(f"{c} conn. req/s (p50/p99 ms)" for c in connections)
    lines = [
        f"| workers x threads | page | {head} |",
        "| --- | --- |" + " --- |" * len(connections),
    ]
    keys = list(dict.fromkeys((s.shape, s.page) for s in samples))
    for shape, page in keys:
        cells = []
        for c in connections:
            s = next(
                (s for s in samples if (s.shape, s.page, s.connections) == (shape, page, c)), None
            )
            if s is None:
                cells.append("")
            else:
                errors = f", {s.errors} errors" if s.errors else ""
                cells.append(f"{s.rps:.0f} ({s.p50_ms:.0f}/{s.p99_ms:.0f}{errors})")
        lines.append(f"| {shape} | {page} | " + " | ".join(cells) + " |")
    return lines
