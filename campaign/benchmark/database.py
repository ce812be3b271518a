"""Databases of the benchmark's own, so a run never touches the developer's data.

Each `BenchDatabase` has its own connection to a new database, created and migrated
the way `manage.py testserver` makes one: SQLite gets a file in the temp directory,
PostgreSQL a database on the configured server. The configured database itself is
never opened. `active()` makes a bench database the default connection for a while,
so the services, the views and the test Client all use it; keeping one connection
per database lets the measurements switch between two databases without reconnecting.
"""

from __future__ import annotations

import copy
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import load_backend


def database_name(vendor: str, label: str, *, keep: bool) -> str:
    """Where a run's database lives: a stable name if kept, else one unique to the run."""
    suffix = "" if keep else f"-{os.getpid()}"
    if vendor == "sqlite":
        return str(Path(tempfile.gettempdir()) / f"crusade-bench-{label}{suffix}.sqlite3")
    return f"crusade_bench_{label}{suffix}".replace("-", "_")


class BenchDatabase:
    """One database of the benchmark's own, with a connection of its own."""

    def __init__(self, label: str, *, keep: bool) -> None:
        configured = connections.settings[DEFAULT_DB_ALIAS]
        self.configured_name = configured["NAME"]
        settings_dict = copy.deepcopy(configured)
        backend = load_backend(settings_dict["ENGINE"])
        self.connection = backend.DatabaseWrapper(settings_dict, DEFAULT_DB_ALIAS)
        settings_dict["TEST"]["NAME"] = database_name(self.connection.vendor, label, keep=keep)
        self.label = label
        self.keep = keep

    @contextmanager
    def active(self) -> Iterator[None]:
        """Make this database the default one inside the block."""
        previous = connections[DEFAULT_DB_ALIAS]
        connections[DEFAULT_DB_ALIAS] = self.connection
        try:
            yield
        finally:
            connections[DEFAULT_DB_ALIAS] = previous

    def create(self, *, reuse: bool) -> None:
        """Create and migrate it; with `reuse`, open a kept one as it is (if there is one)."""
        configured = connections.settings[DEFAULT_DB_ALIAS]
        with self.active():
            try:
                self.connection.creation.create_test_db(
                    verbosity=0, autoclobber=True, serialize=False, keepdb=reuse
                )
            finally:
                # create_test_db also renames the database in settings.DATABASES: undo that.
                configured["NAME"] = self.configured_name

    def drop(self) -> None:
        """Close it, and delete it unless it is kept. The configured database is left alone."""
        with self.active():
            if self.connection.settings_dict["NAME"] != self.configured_name:
                self.connection.creation.destroy_test_db(
                    self.configured_name, verbosity=0, keepdb=self.keep
                )
            self.connection.close()

    def settle(self) -> None:
        """After seeding, what a live database has had done to it by then: on PostgreSQL,
        autovacuum would have vacuumed and analysed the tables after so many writes
        (minutes after them); timing a database seconds after a bulk load measured plans
        made without statistics. SQLite keeps no statistics unless asked (ANALYZE), and
        nothing here or in a deployment asks."""
        if self.connection.vendor != "postgresql":
            return
        with self.active(), self.connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")

    def describe(self) -> str:
        settings_dict = self.connection.settings_dict
        if self.connection.vendor == "sqlite":
            return f"SQLite {settings_dict['NAME']}"
        host = settings_dict.get("HOST") or "localhost"
        port = settings_dict.get("PORT") or "the default port"
        return f"{self.connection.display_name} database {settings_dict['NAME']} on {host}:{port}"


@contextmanager
def own_database(label: str, *, keep: bool, reuse: bool) -> Iterator[BenchDatabase]:
    """A migrated bench database for the length of the block, dropped after unless kept.

    With `reuse`, a database a kept run left is opened as it is (and made if missing);
    otherwise an old one of the same name is replaced. `reuse` implies `keep`.
    """
    database = BenchDatabase(label, keep=keep or reuse)
    database.create(reuse=reuse)
    try:
        yield database
    finally:
        database.drop()
