"""`manage.py clean_media [--dry-run]`: report, and delete, the uploaded files no row refers to.

Replaced pictures are deleted when their replacement is saved, and the files of a failed
save when it fails; what is left behind anyway (a crash at the wrong moment, a storage
error, a transaction rolled back by its caller) is found here. Only the folders the app
uploads to are searched (`upload_to` of every file field), through the storage API, so it
works the same on the local disk and in an S3 bucket. Files younger than `--min-age`
seconds are kept: an upload may be saving them right now.
"""

from __future__ import annotations

import datetime
import posixpath
from collections.abc import Iterator

from django.apps import apps
from django.core.files.storage import Storage
from django.core.management.base import BaseCommand
from django.db import models
from django.utils import timezone


def file_fields() -> list[models.FileField]:
    return [
        field
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if isinstance(field, models.FileField)
    ]


def referenced(fields: list[models.FileField]) -> set[str]:
    """Every file name a row holds."""
    return {
        name
        for field in fields
        for name in field.model._default_manager.values_list(field.name, flat=True)
        if name
    }


def upload_folders(fields: list[models.FileField]) -> dict[Storage, set[str]]:
    """The top folders each storage is given files in ("": all of it, when a field's
    upload_to is not a plain folder)."""
    folders: dict[Storage, set[str]] = {}
    for field in fields:
        plain = isinstance(field.upload_to, str) and "%" not in field.upload_to
        folders.setdefault(field.storage, set()).add(
            field.upload_to.split("/", 1)[0] if plain else ""
        )
    return {storage: {""} if "" in tops else tops for storage, tops in folders.items()}


def walk(storage: Storage, folder: str) -> Iterator[str]:
    """Every file under ``folder``, recursively, by its name in the storage."""
    try:
        directories, files = storage.listdir(folder)
    except FileNotFoundError:
        return
    for name in sorted(files):
        yield posixpath.join(folder, name)
    for name in sorted(directories):
        yield from walk(storage, posixpath.join(folder, name))


class Command(BaseCommand):
    help = "List the uploaded files no row refers to, and delete them (--dry-run: only list)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="List what would be deleted; delete nothing."
        )
        parser.add_argument(
            "--min-age",
            type=int,
            default=3600,
            help="Keep files younger than this many seconds (default 3600).",
        )

    def handle(self, *args, dry_run: bool, min_age: int, **options) -> None:
        fields = file_fields()
        names = referenced(fields)
        cutoff = timezone.now() - datetime.timedelta(seconds=min_age)
        seen = deleted = young = 0
        for storage, folders in upload_folders(fields).items():
            for name in (name for folder in sorted(folders) for name in walk(storage, folder)):
                seen += 1
                if name in names:
                    continue
                if min_age and storage.get_modified_time(name) > cutoff:
                    young += 1
                    self.stdout.write(f"{name}: not referenced; kept, younger than {min_age}s")
                    continue
                deleted += 1
                if not dry_run:
                    storage.delete(name)
                self.stdout.write(f"{name}: not referenced; {'would be ' * dry_run}deleted")
        self.stdout.write(
            f"{seen} files: {seen - deleted - young} referenced, {deleted} "
            f"{'would be ' * dry_run}deleted, {young} kept (younger than {min_age}s)."
        )
