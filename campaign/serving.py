"""What a running app holds on its SQLite file, so that `manage.py restore` can tell, and
the database's generation, which a restore moves on so that no cached page outlives it.

**In use.** Every app server process (gunicorn's workers, runserver: both load
`campaign.wsgi`) takes a shared advisory lock (`flock`) on `<database>.in-use`, beside the
SQLite file, and holds it for its whole life, whether or not it has a connection open at
the moment (with CONN_MAX_AGE=0 it has none between requests). `restore` needs the lock
exclusively, so it refuses while any app process is alive; an app process that starts
during a restore waits for it to end. The lock goes with the process: a crashed or
killed process leaves nothing to clean up.

**Generation.** Cached fragments are keyed by revisions, which a restore takes back to
numbers they had before, naming other states. So every cache key also carries the
database's generation: a stamp of `<database>.generation` (its inode and modification
time, one `stat` and no query), which `restore` replaces. Whatever a process cached
before a restore is then never asked for again, in any cache backend.
"""

from __future__ import annotations

import fcntl
import functools
import os
import secrets
from pathlib import Path

from django.conf import settings

_held: list[int] = []
"""The lock file descriptors this process holds for its lifetime (never closed)."""


class DatabaseInUse(Exception):
    """An app server process holds the database open."""


def sqlite_file() -> Path | None:
    """The default database's file, or None (PostgreSQL, or SQLite in memory)."""
    database = settings.DATABASES["default"]
    name = str(database["NAME"])
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return None
    if name == ":memory:" or "mode=memory" in name:
        return None
    return _resolved(name)


@functools.lru_cache(maxsize=8)
def _resolved(name: str) -> Path:
    return Path(name).resolve()


def lock_file(database: Path) -> Path:
    return database.with_name(f"{database.name}.in-use")


def generation_file(database: Path) -> Path:
    return database.with_name(f"{database.name}.generation")


def _open_lock(database: Path) -> int:
    return os.open(lock_file(database), os.O_RDWR | os.O_CREAT, 0o644)


def hold_database_open() -> None:
    """Mark this process as an app server on the database, for as long as it lives
    (called by `campaign.wsgi`). Waits while a restore is running."""
    database = sqlite_file()
    if database is None or _held or not database.parent.is_dir():
        return
    descriptor = _open_lock(database)
    fcntl.flock(descriptor, fcntl.LOCK_SH)
    _held.append(descriptor)


class NoAppRunning:
    """Held by `restore`: the exclusive lock, refused (DatabaseInUse) while any app server
    process holds its shared one."""

    def __init__(self, database: Path) -> None:
        self.database = database

    def __enter__(self) -> NoAppRunning:
        self.descriptor = _open_lock(self.database)
        try:
            fcntl.flock(self.descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.descriptor)
            raise DatabaseInUse(self.database) from None
        return self

    def __exit__(self, *exc_info) -> None:
        os.close(self.descriptor)  # and with it the lock


def new_generation(database: Path) -> None:
    """Move the database's generation on (a new file in the old one's place)."""
    path = generation_file(database)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(secrets.token_hex(8) + "\n")
    os.replace(partial, path)


def generation() -> str:
    """The database's generation: changes with every restore, costs one `stat`."""
    database = sqlite_file()
    if database is None:
        return "0"
    try:
        stamp = os.stat(generation_file(database))
    except FileNotFoundError:
        return "0"
    return f"{stamp.st_ino:x}.{stamp.st_mtime_ns:x}"


def cache_key(key: str, key_prefix: str, version: int) -> str:
    """Django's cache key with the database's generation in it (CACHES' KEY_FUNCTION)."""
    return f"{key_prefix}:{version}:{generation()}:{key}"
