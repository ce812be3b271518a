"""What `manage.py backup` and `manage.py restore` share: the SQLite file of the default
database, and the checks a copy of it must pass.

Both copy with SQLite's online backup API (`sqlite3.Connection.backup`), never by copying
files: it reads one consistent snapshot while the app keeps writing, and it writes through
SQLite, so a write-ahead log (`-wal`) left beside the database can never be replayed onto
the wrong data.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError
from django.db.migrations.loader import MigrationLoader

POSTGRESQL_TOOLS = {
    "backup": 'pg_dump --format=custom --file=crusade.dump "$DATABASE_URL"',
    "restore": 'pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" crusade.dump',
}


def database_file(command: str) -> Path:
    """The default database's SQLite file; refused for PostgreSQL or an in-memory database."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        raise CommandError(
            f"{command} works on the SQLite file only; this database is PostgreSQL. "
            f"Use PostgreSQL's own tool: {POSTGRESQL_TOOLS[command]} "
            "(see Backups in the README)."
        )
    name = str(database["NAME"])
    if name == ":memory:" or "mode=memory" in name:
        raise CommandError(f"The database is in memory: there is no file to {command}.")
    return Path(name).resolve()


def _regexp(pattern: str | None, value) -> bool | None:
    """SQLite's ``value REGEXP pattern``, as Django gives its own connections."""
    if pattern is None or value is None:
        return None
    return re.search(pattern, str(value)) is not None


def check_integrity(connection: sqlite3.Connection, what: Path) -> None:
    """SQLite's integrity check, which also checks every CHECK constraint: some use
    REGEXP (an alliance's colour), a function only Django's own connections had."""
    connection.create_function("REGEXP", 2, _regexp, deterministic=True)
    (result,) = connection.execute("PRAGMA integrity_check").fetchone()
    if result != "ok":
        raise CommandError(f"{what} fails SQLite's integrity check: {result}")


def applied_migrations(connection: sqlite3.Connection, what: Path) -> set[tuple[str, str]]:
    """The migrations a database says it has; refused if it is not this app's database."""
    try:
        return set(connection.execute("SELECT app, name FROM django_migrations"))
    except sqlite3.DatabaseError:
        raise CommandError(f"{what} is not a database of this app.") from None


def known_migrations() -> set[tuple[str, str]]:
    """The migrations of this version of the app."""
    return set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)
