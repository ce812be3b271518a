"""The campaign's log in backups: `manage.py backup` copies the whole SQLite file (every
table, the log's among them, in one snapshot), and its pictures are files under
MEDIA_ROOT/chronicle/, which `clean_media` knows as an upload folder: kept while an entry
names them, found once none does."""

from __future__ import annotations

import io
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from django.core.management import call_command

from campaign import services
from campaign.management.commands.clean_media import file_fields, upload_folders
from campaign.models import LogEntry
from tests.factories import make_campaign, make_force, make_user
from tests.hardening.conftest import stored
from tests.hardening.test_backups import backing_up  # noqa: F401
from tests.hardening.test_clean_media import clean_media, left_behind
from tests.hardening.test_picture_files import processed_picture


def test_a_backup_carries_the_log_entries_table(backing_up):  # noqa: F811
    with closing(sqlite3.connect(backing_up / "db.sqlite3")) as db, db:
        db.execute(
            "INSERT INTO campaign_logentry (campaign_id, title, text, picture, status, "
            "hidden_reason, created_at) VALUES (1, 'Dawn', 'Guns', 'chronicle/a.jpg', "
            "'shown', '', '2026-03-01 03:00:00')"
        )

    call_command("backup", str(backing_up / "copy.sqlite3"), stdout=io.StringIO())

    with closing(sqlite3.connect(backing_up / "copy.sqlite3")) as copy:
        rows = copy.execute("SELECT title, picture FROM campaign_logentry").fetchall()
    assert rows == [("Dawn", "chronicle/a.jpg")]


def test_clean_media_knows_the_chronicle_folder():
    folders = set().union(*upload_folders(file_fields()).values())
    assert "chronicle" in folders or "" in folders


@pytest.mark.django_db
def test_clean_media_keeps_an_entrys_picture_and_finds_one_no_entry_names(media: Path):
    campaign = make_campaign()
    player = make_user()
    make_force(player=player, campaign=campaign)
    picture, _ = processed_picture()
    entry = services.write_log_entry(
        actor=player, campaign=campaign, title="Dawn", text="Guns", picture=picture
    )
    orphans = left_behind(media, "chronicle/old.jpg")

    clean_media()

    assert entry.picture.name in stored(media)
    assert not orphans & stored(media)
    assert LogEntry.objects.get().picture.name == entry.picture.name
