"""`manage.py restore BACKUP`: put a copy made by `manage.py backup` back as the database.

Stop the app first: restore refuses while an app server process is running (each holds
the database's "in use" lock for its life, campaign.serving), or while any other process
has the database open. It checks the backup (SQLite's integrity check; this app's
database, and not from a newer version of it), takes the "in use" lock and the database's
exclusive lock, keeps the current database beside it as `<name>.before-restore-<time>`,
copies the backup in through SQLite's backup API, checks the result and moves the
database's generation on, so that no page cached before is shown again. A backup from an
older version is restored too: then run `manage.py migrate` before starting the app. On
PostgreSQL use pg_restore (the command says how).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from campaign.management.backups import (
    applied_migrations,
    check_integrity,
    database_file,
    known_migrations,
)
from campaign.serving import DatabaseInUse, NoAppRunning, new_generation

IN_USE = (
    "The database {} is in use: stop the app (every gunicorn or runserver process), then restore."
)


def _names(migrations: set[tuple[str, str]]) -> str:
    return ", ".join(f"{app}.{name}" for app, name in sorted(migrations))


class Command(BaseCommand):
    help = (
        "Replace the SQLite database with a backup made by `manage.py backup`. Stop the app first."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("backup", help="The backup file to restore.")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="Do not ask before replacing the database.",
        )

    def handle(self, *args, backup: str, interactive: bool, **options) -> None:
        target = database_file("restore")
        source = Path(backup).resolve()
        if not source.is_file():
            raise CommandError(f"There is no backup at {source}.")
        if source == target:
            raise CommandError("BACKUP is the database itself: give the backup's file.")
        known = known_migrations()
        try:
            with closing(sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True)) as copy:
                check_integrity(copy, source)
                applied = applied_migrations(copy, source)
                if applied - known:
                    raise CommandError(
                        f"{source} comes from a newer version of the app: this one does not "
                        f"know its migrations {_names(applied - known)}. Restore it with "
                        "that version."
                    )
                with NoAppRunning(target):
                    try:
                        self._restore(copy, source, target, interactive)
                    finally:  # even half-copied, the database may not be what was cached
                        new_generation(target)
        except DatabaseInUse:
            raise CommandError(IN_USE.format(target)) from None
        except sqlite3.DatabaseError as error:
            raise CommandError(f"Could not restore {source}: {error}") from None
        if known - applied:
            self.stdout.write(
                f"The backup lacks this version's migrations {_names(known - applied)}: "
                "run `manage.py migrate` before starting the app."
            )

    def _restore(
        self, copy: sqlite3.Connection, source: Path, target: Path, interactive: bool
    ) -> None:
        with closing(sqlite3.connect(target, timeout=0, isolation_level=None)) as database:
            try:
                # Held until the connection closes: nothing else reads or writes meanwhile.
                database.execute("PRAGMA locking_mode=EXCLUSIVE")
                database.execute("BEGIN EXCLUSIVE")
                database.execute("COMMIT")
            except sqlite3.OperationalError:
                raise DatabaseInUse(target) from None
            (tables,) = database.execute("SELECT count(*) FROM sqlite_master").fetchone()
            kept = target.with_name(f"{target.name}.before-restore-{timezone.now():%Y%m%d-%H%M%S}")
            if interactive and not self._confirmed(source, target, kept if tables else None):
                raise CommandError("Restore cancelled.")
            if tables:
                with closing(sqlite3.connect(kept)) as before:
                    database.backup(before)
                    before.execute("PRAGMA journal_mode=DELETE")
            copy.backup(database)
            check_integrity(database, target)
        self.stdout.write(f"Restored {target} from {source}.")
        if tables:
            self.stdout.write(f"The database it replaced is kept as {kept}.")

    def _confirmed(self, source: Path, target: Path, kept: Path | None) -> bool:
        keeping = f" (the current one is kept as {kept})" if kept else ""
        answer = input(
            f"This replaces the database {target} with {source}{keeping}.\n"
            "Type 'yes' to continue, or anything else to cancel: "
        )
        return answer.strip().lower() == "yes"
