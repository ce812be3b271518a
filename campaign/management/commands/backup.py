"""`manage.py backup PATH`: a consistent copy of the SQLite database, taken while the app runs.

SQLite's online backup API copies every page in one step, inside one read transaction: the
copy is the database as it was at one moment, whatever the app writes meanwhile (in WAL
mode writers never wait for it). The copy is written beside PATH, checked, and only then
renamed to PATH, so PATH is never half-written. PATH may be a folder: the copy is then
named after the current time. On PostgreSQL use pg_dump (the command says how).
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from campaign.management.backups import check_integrity, database_file


class Command(BaseCommand):
    help = "Copy the SQLite database to PATH (a file or a folder), consistent while the app runs."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="Where to write the copy: a file, or a folder.")

    def handle(self, *args, path: str, **options) -> None:
        source = database_file("backup")
        if not source.is_file():
            raise CommandError(f"There is no database at {source} to back up.")
        target = Path(path)
        if target.is_dir():
            target = target / f"crusade-{timezone.now():%Y%m%d-%H%M%S}.sqlite3"
        if target.exists() and target.resolve() == source:
            raise CommandError("PATH is the database itself: give another file or a folder.")
        partial = target.with_name(f".{target.name}.partial")
        partial.unlink(missing_ok=True)
        try:
            with (
                closing(sqlite3.connect(source, timeout=20)) as database,
                closing(sqlite3.connect(partial)) as copy,
            ):
                database.backup(copy)  # all pages in one step: one moment's snapshot
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                check_integrity(copy, partial)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        size = target.stat().st_size / 1024
        self.stdout.write(f"Backed up {source} to {target} ({size:,.0f} KB).")
