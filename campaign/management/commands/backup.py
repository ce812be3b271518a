"""`manage.py backup PATH`: a consistent copy of the SQLite database, taken while the app runs.

SQLite's online backup API copies every page in one step, inside one read transaction: the
copy is the database as it was at one moment, whatever the app writes meanwhile (in WAL
mode writers never wait for it). The copy is written beside its name, checked, and only
then renamed, so a backup is never half-written.

PATH is a folder when it is one already or ends with `/`: it is created if missing (its
parent must exist), and the copy is named after the current time, `-2`, `-3`, ... added
when a backup of that second is there already, so backups never replace each other.
Otherwise PATH is the file to write. On PostgreSQL use pg_dump (the command says how).
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from campaign.management.backups import check_integrity, database_file


def _folder(path: str) -> Path:
    """The folder PATH names, made if missing; a missing parent is refused."""
    folder = Path(path)
    try:
        folder.mkdir(exist_ok=True)
    except FileNotFoundError:
        raise CommandError(
            f"Cannot make the folder {folder}: {folder.parent} does not exist. "
            "Create it first, or give another folder."
        ) from None
    except FileExistsError:
        raise CommandError(f"{folder} is a file, not a folder.") from None
    return folder


def _new_name(folder: Path) -> Path:
    """A name in `folder` no backup has: reserved by creating it (O_EXCL), so two backups
    at the same moment never get the same one."""
    stem = f"crusade-{timezone.now():%Y%m%d-%H%M%S}"
    for n in range(1, 1000):
        target = folder / (f"{stem}.sqlite3" if n == 1 else f"{stem}-{n}.sqlite3")
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            continue
        return target
    raise CommandError(f"{folder} has too many backups of this second.")


class Command(BaseCommand):
    help = (
        "Copy the SQLite database to PATH (a file, or a folder: one ending in / is created), "
        "consistent while the app runs."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "path",
            help="Where to write the copy: a file, or a folder (an existing one, or one "
            "ending in /, which is created); in a folder each backup gets a name of its own.",
        )

    def handle(self, *args, path: str, **options) -> None:
        source = database_file("backup")
        if not source.is_file():
            raise CommandError(f"There is no database at {source} to back up.")
        reserved = None
        try:
            if path.endswith(("/", os.sep)) or Path(path).is_dir():
                target = reserved = _new_name(_folder(path))
            else:
                target = Path(path)
                if target.exists() and target.resolve() == source:
                    raise CommandError(
                        "PATH is the database itself: give another file or a folder."
                    )
                if not target.parent.is_dir():
                    raise CommandError(
                        f"Cannot write {target}: the folder {target.parent} does not exist."
                    )
            self._copy(source, target)
            reserved = None  # the backup is in its place
        except OSError as error:
            if error.filename is None:
                raise
            raise CommandError(
                f"Cannot write the backup to {error.filename}: {error.strerror}."
            ) from None
        finally:
            if reserved is not None:
                reserved.unlink(missing_ok=True)
        size = target.stat().st_size / 1024
        self.stdout.write(f"Backed up {source} to {target} ({size:,.0f} KB).")

    def _copy(self, source: Path, target: Path) -> None:
        partial = target.with_name(f".{target.name}.partial")
        # Made here first, so that a place we cannot write says so (SQLite would only say
        # "unable to open database file").
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
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
