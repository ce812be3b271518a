"""Hardening: uploaded files on a disk of their own (or in moto's S3 bucket), and live
servers on a SQLite file whatever the leg (backups are SQLite's; see
tests/concurrency/fixtures.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.concurrency.fixtures import (  # noqa: F401
    app_env,
    migrated_sqlite,
    server,
    static_root,
    workdir,
)
from tests.concurrency.live import sqlite_file_database
from tests.deploy.conftest import object_store  # noqa: F401


@pytest.fixture
def server_database(workdir: Path, migrated_sqlite: Path) -> Iterator[str]:  # noqa: F811
    """A migrated SQLite file, on either leg of the suite: what `backup` and `restore`
    work on."""
    with sqlite_file_database(workdir, template=migrated_sqlite) as url:
        yield url


@pytest.fixture
def media(settings, tmp_path: Path) -> Path:
    """An empty MEDIA_ROOT for this test: every file in it is one the test made."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def stored(media: Path) -> set[str]:
    """The names of the files under MEDIA_ROOT, as the storage and the rows name them."""
    return {path.relative_to(media).as_posix() for path in media.rglob("*") if path.is_file()}
