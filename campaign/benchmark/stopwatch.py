"""Timing requests in-process, round after round.

Each page is fetched through Django's test Client, logged in as the user who would
look at it. A first fetch warms up and a second counts the queries (and the page's
size); then every probe is timed once per round, round after round, so that whatever
else the machine is doing weighs on all of them alike. The heap is not collected
before a timed request: the collections a page's garbage causes are part of what
players wait for. What the process held before the first request is frozen, as the
served app freezes what it loaded (`campaign.wsgi`). The median of the rounds is the
probe's time; ratios are medians of each round's ratio, since probes timed in the same
round share the machine's load.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from .database import BenchDatabase

Prepare = Callable[[], tuple[str, Callable[[], HttpResponse]]]
"""Sets up one run, untimed (a write a player would make, a fresh battle); returns the
URL and the request to time."""


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
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        yield


@dataclass(frozen=True)
class Probe:
    """One page or step to time, in the database it lives in. What a step writes is
    committed: the bench databases are throwaway, and grow a little with every run."""

    key: str
    database: BenchDatabase
    prepare: Prepare
    expect: int = 200


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
    """The queries of the counted run, with their times, for `slowest`."""
    kb: float = 0.0
    """The size of the counted run's response body, in kilobytes (1,000 bytes)."""

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ms)

    def ratio_to(self, other: Timing) -> float:
        """The median of the per-round ratios: probes timed in the same round share the
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

    def measure(self, probes: list[Probe], *, frozen: bool = False) -> dict[str, Timing]:
        """Time ``probes``. With ``frozen``, the objects the process holds before the first
        request (the seeded league's, Django's) are out of the collector's sight for the
        timing, as a served process's are (`campaign.wsgi`); what requests allocate is
        collected as usual."""
        if not frozen:
            return self._measure(probes)
        gc.freeze()
        try:
            return self._measure(probes)
        finally:
            gc.unfreeze()

    def _measure(self, probes: list[Probe]) -> dict[str, Timing]:
        counted: dict[str, tuple[tuple[Query, ...], float]] = {}
        for probe in probes:
            with probe.database.active():
                self._once(probe)
                _, queries, kb = self._once(probe, capture=True)
                counted[probe.key] = (queries, kb)
        samples: dict[str, list[float]] = {probe.key: [] for probe in probes}
        for _ in range(self.repeat):
            for probe in probes:
                with probe.database.active():
                    samples[probe.key].append(self._once(probe)[0])
        return {
            key: Timing(len(counted[key][0]), tuple(times), counted[key][0], counted[key][1])
            for key, times in samples.items()
        }

    def _once(self, probe: Probe, *, capture: bool = False) -> tuple[float, tuple, float]:
        url, request = probe.prepare()
        with CaptureQueriesContext(connection) if capture else nullcontext() as queries:
            start = time.perf_counter()
            response = request()
            elapsed = (time.perf_counter() - start) * 1000
        if response.status_code != probe.expect:
            raise PageFailed(f"{url} answered {response.status_code}, not {probe.expect}")
        if not capture:
            return elapsed, (), 0.0
        body = b"" if response.streaming else response.content
        captured = tuple(Query(float(q["time"]) * 1000, q["sql"]) for q in queries)
        return elapsed, captured, len(body) / 1000


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
