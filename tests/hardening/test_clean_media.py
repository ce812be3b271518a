"""`manage.py clean_media`: the uploaded files no row refers to are listed and deleted, on the
local disk and in an S3 bucket alike; the rest of the storage, and files an upload may still
be saving, are left alone."""

from __future__ import annotations

import os
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command

from campaign import services
from tests.factories import make_force, make_unit
from tests.hardening.conftest import stored
from tests.hardening.test_picture_files import processed_picture

pytestmark = pytest.mark.django_db

AN_HOUR_AGO = time.time() - 3601


def clean_media(*args: str) -> str:
    out = StringIO()
    call_command("clean_media", *args, stdout=out)
    return out.getvalue()


def with_picture() -> set[str]:
    """A card with a picture: the names of its two files."""
    unit = make_unit(make_force(), name="Squad Alpha")
    picture, thumbnail = processed_picture()
    unit = services.set_unit_picture(
        actor=unit.force.player, unit=unit, picture=picture, thumbnail=thumbnail
    )
    return {unit.picture.name, unit.thumbnail.name}


def left_behind(media: Path, *names: str, age: float = AN_HOUR_AGO) -> set[str]:
    for name in names:
        default_storage.save(name, ContentFile(b"not referenced", name=name))
        os.utime(media / name, (age, age))
    return set(names)


@pytest.fixture
def storage_with_orphans(media) -> tuple[set[str], set[str]]:
    """Referenced files, and files no row refers to in every folder the app uploads to."""
    kept = with_picture()
    orphans = left_behind(
        media,
        "units/old.jpg",
        "units/thumbs/old-thumb.jpg",
        "banners/b.jpg",
        "banners/thumbs/c.jpg",
    )
    return kept, orphans


def test_it_deletes_the_files_no_row_refers_to_and_lists_them(media, storage_with_orphans):
    kept, orphans = storage_with_orphans

    out = clean_media()

    assert stored(media) == kept
    for name in orphans:
        assert f"{name}: not referenced; deleted" in out
    assert "6 files: 2 referenced, 4 deleted, 0 kept (younger than 3600s)." in out


def test_it_only_lists_them_on_a_dry_run(media, storage_with_orphans):
    kept, orphans = storage_with_orphans

    out = clean_media("--dry-run")

    assert stored(media) == kept | orphans
    assert "units/old.jpg: not referenced; would be deleted" in out
    assert "4 would be deleted" in out


def test_it_keeps_a_file_an_upload_may_still_be_saving_until_it_is_old_enough(media):
    young = left_behind(media, "units/just-written.jpg", age=time.time() - 60)

    assert "units/just-written.jpg: not referenced; kept, younger than 3600s" in clean_media()
    assert stored(media) == young
    clean_media("--min-age", "30")
    assert stored(media) == set()


def test_it_leaves_files_outside_the_folders_the_app_uploads_to_alone(media):
    others = left_behind(media, "README.txt", "exports/campaign.csv")
    clean_media()
    assert stored(media) == others


def test_it_cleans_an_s3_bucket_through_the_same_storage_api(settings, object_store):
    env = object_store.env()
    bucket_storage = {
        "bucket_name": object_store.bucket,
        "endpoint_url": object_store.endpoint,
        "region_name": env["AWS_S3_REGION_NAME"],
        "access_key": env["AWS_ACCESS_KEY_ID"],
        "secret_key": env["AWS_SECRET_ACCESS_KEY"],
    }
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": bucket_storage},
    }
    kept = with_picture()
    bucket = object_store.client()
    for key in ("units/old.jpg", "banners/thumbs/old-thumb.jpg", "backups/crusade.sqlite3"):
        bucket.put_object(Bucket=object_store.bucket, Key=key, Body=b"not referenced")

    assert "2 kept (younger than 3600s)" in clean_media()
    assert set(object_store.keys()) == kept | {
        "units/old.jpg",
        "banners/thumbs/old-thumb.jpg",
        "backups/crusade.sqlite3",
    }
    clean_media("--min-age", "0")
    assert set(object_store.keys()) == kept | {"backups/crusade.sqlite3"}
