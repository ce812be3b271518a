"""Fixtures for the live-server tests (tests/concurrency/, tests/deploy/): a server per test,
on this leg's kind of database.

The SQLite leg gives each test a SQLite *file* (what `make run` gives a gaming group);
the PostgreSQL leg a new database in the same cluster, dropped afterwards. Either way
the server is gunicorn with production settings, started and stopped by the fixture.
Each conftest.py that needs them imports them by name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.concurrency.live import (
    Server,
    manage,
    postgresql_database,
    production_env,
    running,
    sqlite_file_database,
    temporary_directory,
)


def leg_vendor() -> str:
    """`sqlite` or `postgresql`: the database this run of the suite is on."""
    from django.db import connection

    return connection.vendor


@pytest.fixture(scope="session")
def static_root() -> Iterator[Path]:
    """Static files collected once for every server of the run (DEBUG=0 needs the manifest)."""
    with temporary_directory("crusade-live-static-") as root:
        env = production_env("sqlite://:memory:", static_root=root, media_root=root / "unused")
        manage(env, "collectstatic", "--noinput")
        yield root


@pytest.fixture
def workdir() -> Iterator[Path]:
    with temporary_directory("crusade-live-") as path:
        yield path


@pytest.fixture
def server_database(workdir: Path) -> Iterator[str]:
    """A DATABASE_URL made for this test, of this leg's kind."""
    if leg_vendor() == "postgresql":
        with postgresql_database(os.environ["DATABASE_URL"]) as url:
            yield url
    else:
        with sqlite_file_database(workdir) as url:
            yield url


@pytest.fixture
def app_env(server_database: str, workdir: Path, static_root: Path) -> dict:
    """The production environment of the server, its database migrated."""
    env = production_env(server_database, static_root=static_root, media_root=workdir / "media")
    manage(env, "migrate", "--noinput")
    return env


@pytest.fixture
def server(app_env: dict, workdir: Path) -> Iterator[Server]:
    """gunicorn, 2 workers x 8 threads, serving the app on a free port."""
    with running(Server(app_env, log_path=workdir / "gunicorn.log")) as live:
        yield live
        print(f"--- gunicorn log ---\n{live.log()[-8000:]}")  # shown when the test fails
