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
    app_environment,
    database_name,
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


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once for the run: each server's SQLite database is a copy
    (migrating takes seconds, copying a fraction of one)."""
    path = tmp_path_factory.mktemp("migrated") / "db.sqlite3"
    manage(app_environment(DATABASE_URL=f"sqlite:///{path}"), "migrate", "--noinput")
    return path


@pytest.fixture(scope="session")
def migrated_postgresql() -> Iterator[str]:
    """The same on the PostgreSQL leg: a database migrated once for the run, the
    template of each server's database."""
    with postgresql_database(os.environ["DATABASE_URL"]) as url:
        manage(app_environment(DATABASE_URL=url), "migrate", "--noinput")
        yield database_name(url)


@pytest.fixture
def server_database(workdir: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A migrated database made for this test, of this leg's kind."""
    if leg_vendor() == "postgresql":
        template = request.getfixturevalue("migrated_postgresql")
        with postgresql_database(os.environ["DATABASE_URL"], template=template) as url:
            yield url
    else:
        template = request.getfixturevalue("migrated_sqlite")
        with sqlite_file_database(workdir, template=template) as url:
            yield url


@pytest.fixture
def app_env(server_database: str, workdir: Path, static_root: Path) -> dict:
    """The production environment of the server, on its migrated database."""
    return production_env(server_database, static_root=static_root, media_root=workdir / "media")


@pytest.fixture
def server(app_env: dict, workdir: Path) -> Iterator[Server]:
    """gunicorn, 2 workers x 8 threads, serving the app on a free port."""
    with running(Server(app_env, log_path=workdir / "gunicorn.log")) as live:
        yield live
        print(f"--- gunicorn log ---\n{live.log()[-8000:]}")  # shown when the test fails
