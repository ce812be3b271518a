"""Backups of the SQLite file (`manage.py backup` / `restore`): taken while players write,
a backup is the database of one moment, and restored it is a consistent database; restore
refuses what would lose or break data."""

from __future__ import annotations

import io
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from campaign import serving
from campaign.management.commands import backup as backup_command
from tests.concurrency.live import (
    PYTHON,
    REPO,
    PageReader,
    Player,
    Server,
    app_environment,
    free_port,
    logged_in,
    manage,
    running,
    scenario,
    wait_until_serving,
)
from tests.concurrency.moves import expect, fill, play_battle
from tests.hardening.consistency import state

WAIT = 60


def fight(players: list[Player], sides: list[dict]) -> Callable[[int], None]:
    """One table: a battle each turn (R8, R9), won by each side in turn."""

    def battle(turn: int) -> None:
        play_battle(players, sides, first_wins=bool(turn % 2))

    return battle


def recruit(player: Player, side: dict) -> Callable[[int], None]:
    """One player adding a card to the Order of Battle each turn."""
    path = f"/forces/{side['force']}/units/new/"

    def add(turn: int) -> None:
        form = expect("open the new card form", player.get(path), 200)
        fields = fill(
            PageReader(form.text).post_form(having="datasheet"),
            name=f"Recruits {turn}",
            datasheet="Cadian Shock Troops",
            points=5,
            model_count=10,
        )
        expect("add a card", player.post(path, fields), 302)

    return add


class Writer(threading.Thread):
    """Plays one move over and over until told to stop; counts the moves it began and
    the moves it finished."""

    def __init__(self, move: Callable[[int], None]) -> None:
        super().__init__(daemon=True)
        self.move, self.begun, self.done, self.error = move, 0, 0, None
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                self.begun += 1
                self.move(self.done)
                self.done += 1
        except BaseException as error:  # the test reports it
            self.error = error


def wait_until_each_has_done(writers: list[Writer], moves: dict[Writer, int]) -> None:
    deadline = time.monotonic() + WAIT
    while not all(w.done >= moves[w] for w in writers):
        assert not [w.error for w in writers if w.error], [w.error for w in writers]
        assert time.monotonic() < deadline, [w.done for w in writers]
        time.sleep(0.05)  # poll interval, not synchronisation


def test_it_backs_up_while_players_write_and_the_backup_restores_a_consistent_database(
    app_env: dict, server: Server, workdir: Path
):
    """Two tables fight battles and two players add cards throughout; the backup, taken in
    the middle, restores to a database where every stored number matches its rows."""
    pairs = scenario(app_env, "soak", pairs=3)["pairs"]
    tables, newcomers = pairs[:2], pairs[2]
    starting_rp = {side["force"]: side["rp"] for pair in pairs for side in pair}
    players = logged_in(server, [side["username"] for pair in pairs for side in pair])
    writers = [Writer(fight(players[2 * n : 2 * n + 2], table)) for n, table in enumerate(tables)]
    writers += [Writer(recruit(p, side)) for p, side in zip(players[4:], newcomers, strict=True)]
    for writer in writers:
        writer.start()

    wait_until_each_has_done(writers, {w: 1 for w in writers})
    manage(app_env, "backup", str(workdir / "backup.sqlite3"))
    # Each writer also finishes a move it began after the backup ended.
    wait_until_each_has_done(writers, {w: w.begun + 1 for w in writers})
    for writer in writers:
        writer.stopping.set()
    for writer in writers:
        writer.join(timeout=WAIT)
    assert not [w.error for w in writers if w.error], [w.error for w in writers]

    restored = {**app_env, "DATABASE_URL": f"sqlite:///{workdir / 'restored.sqlite3'}"}
    out = manage(restored, "restore", "--noinput", str(workdir / "backup.sqlite3"))
    assert f"Restored {workdir / 'restored.sqlite3'}" in out
    assert "migrate" not in out  # every migration applied
    then = state(restored)

    assert then["integrity"] == "ok"
    for force in then["totals"]:
        assert force["stored"] == force["derived"], force
    for force in then["forces"]:
        assert force["battle_tally"] == force["battles_completed"], force
        assert force["victories"] == force["wins"], force
        rp = starting_rp[force["force"]] + force["rp_from_battles"] - force["rp_spent"]
        assert force["rp"] == rp, force
    # Taken in the middle: after some of the writes, before others.
    cards_at_start = 2 * len(starting_rp)
    cards_at_end = cards_at_start + sum(w.done for w in writers[len(tables) :])
    assert cards_at_start < then["units"] < cards_at_end
    assert 0 < then["battles"]["completed"] < sum(w.done for w in writers[: len(tables)])


@pytest.fixture
def database(migrated_sqlite: Path, tmp_path: Path) -> tuple[dict, Path]:
    """The environment of an app on a copy of the migrated database, and a backup of it
    (copies of a closed database file are as good as backups)."""
    for name in ("db.sqlite3", "backup.sqlite3"):
        shutil.copy(migrated_sqlite, tmp_path / name)
    return app_environment(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"
    ), tmp_path / "backup.sqlite3"


def restore_fails(env: dict, backup: Path) -> str:
    with pytest.raises(AssertionError, match="failed") as failed:
        manage(env, "restore", "--noinput", str(backup))
    return str(failed.value)


def test_it_refuses_to_restore_over_a_database_the_app_has_open(database):
    env, backup = database
    path = Path(env["DATABASE_URL"].removeprefix("sqlite:///"))
    with closing(sqlite3.connect(path)) as app:  # as a gunicorn worker keeps it open
        app.execute("SELECT count(*) FROM django_migrations").fetchone()
        assert "is in use: stop the app" in restore_fails(env, backup)
    assert "Restored" in manage(env, "restore", "--noinput", str(backup))


def test_it_refuses_a_backup_from_a_newer_version_of_the_app(database):
    env, backup = database
    with sqlite3.connect(backup) as copy:
        copy.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('campaign', '9999_from_the_future', '2030-01-01')"
        )
    refused = restore_fails(env, backup)
    assert "comes from a newer version of the app" in refused
    assert "campaign.9999_from_the_future" in refused


def test_it_restores_an_older_backup_and_says_to_migrate(database):
    env, backup = database
    with sqlite3.connect(backup) as copy:
        (last,) = copy.execute(
            "SELECT name FROM django_migrations WHERE app = 'campaign' ORDER BY name DESC"
        ).fetchone()
        copy.execute("DELETE FROM django_migrations WHERE app = 'campaign' AND name = ?", [last])
    out = manage(env, "restore", "--noinput", str(backup))
    assert f"lacks this version's migrations campaign.{last}: run `manage.py migrate`" in out


def test_it_refuses_a_file_that_is_not_a_backup(database, tmp_path):
    env, _ = database
    notes = tmp_path / "notes.txt"
    notes.write_text("Not a database.\n" * 100)
    assert "file is not a database" in restore_fails(env, notes)


@pytest.mark.django_db
def test_it_refuses_a_database_that_is_not_a_sqlite_file_and_says_what_to_use(tmp_path):
    """The suite's own database: in memory on SQLite, or PostgreSQL (pg_dump, pg_restore)."""
    backup_refusal, restore_refusal = {
        "sqlite": ("The database is in memory", "The database is in memory"),
        "postgresql": ("pg_dump --format=custom", "pg_restore --clean"),
    }[connection.vendor]
    backup = tmp_path / "backup.sqlite3"
    with pytest.raises(CommandError, match=backup_refusal):
        call_command("backup", str(backup))
    with pytest.raises(CommandError, match=restore_refusal):
        call_command("restore", str(backup), interactive=False)


def test_it_refuses_to_restore_while_gunicorn_serves_without_keeping_connections(
    database, tmp_path
):
    """CONN_MAX_AGE=0: between requests no connection is open, yet the app runs."""
    env, backup = database
    env = {**env, "CONN_MAX_AGE": "0"}
    server = Server(env=env, log_path=tmp_path / "gunicorn.log", workers=1, threads=2)
    with running(server):
        assert server.player().get("/accounts/login/").status == 200
        assert "is in use: stop the app" in restore_fails(env, backup)
    assert "Restored" in manage(env, "restore", "--noinput", str(backup))


def test_it_refuses_to_restore_while_runserver_serves(database, tmp_path):
    env, backup = database
    env = {**env, "CONN_MAX_AGE": "0"}
    port = free_port()
    with open(tmp_path / "runserver.log", "wb") as log:
        process = subprocess.Popen(
            [PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_serving(f"http://127.0.0.1:{port}/accounts/login/", process)
        assert "is in use: stop the app" in restore_fails(env, backup)
    finally:
        process.terminate()
        process.wait(timeout=WAIT)
    assert "Restored" in manage(env, "restore", "--noinput", str(backup))


def test_it_moves_the_databases_generation_on_with_every_restore(database):
    """Cached pages are keyed by it (campaign.serving), so none outlives a restore."""
    env, backup = database
    stamp = serving.generation_file(Path(env["DATABASE_URL"].removeprefix("sqlite:///")))
    seen = []
    for _ in range(2):
        manage(env, "restore", "--noinput", str(backup))
        seen.append(stamp.read_text())

    assert len(set(seen)) == 2


# --------------------------------------------------------------------------- backup PATH


@pytest.fixture
def backing_up(migrated_sqlite: Path, tmp_path: Path, monkeypatch) -> Path:
    """`backup` run here, on a copy of the migrated database file, at a fixed moment."""
    shutil.copy(migrated_sqlite, tmp_path / "db.sqlite3")
    monkeypatch.setattr(backup_command, "database_file", lambda _: tmp_path / "db.sqlite3")
    moment = datetime(2026, 3, 1, 3, 0, 0, tzinfo=UTC)
    monkeypatch.setattr(backup_command.timezone, "now", lambda: moment)
    return tmp_path


def backups(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_it_creates_the_folder_it_is_told_to_back_up_into(backing_up):
    folder = backing_up / "backups"

    call_command("backup", f"{folder}/", stdout=io.StringIO())

    assert backups(folder) == ["crusade-20260301-030000.sqlite3"]
    with closing(sqlite3.connect(folder / "crusade-20260301-030000.sqlite3")) as copy:
        assert copy.execute("SELECT count(*) FROM django_migrations").fetchone()[0] > 0


def test_it_never_replaces_a_backup_made_in_the_same_second(backing_up):
    folder = backing_up / "backups"
    for _ in range(3):
        call_command("backup", f"{folder}/", stdout=io.StringIO())
    call_command("backup", str(folder), stdout=io.StringIO())  # an existing folder

    assert backups(folder) == [
        "crusade-20260301-030000-2.sqlite3",
        "crusade-20260301-030000-3.sqlite3",
        "crusade-20260301-030000-4.sqlite3",
        "crusade-20260301-030000.sqlite3",
    ]


@pytest.mark.parametrize("path", ["missing/backups/", "missing/crusade.sqlite3"])
def test_it_says_so_when_the_parent_folder_is_missing(backing_up, path):
    with pytest.raises(CommandError, match=r"missing does not exist"):
        call_command("backup", str(backing_up / path))
    assert not (backing_up / "missing").exists()


@pytest.mark.parametrize("path", ["notes.txt/backups/", "notes.txt/crusade.sqlite3"])
def test_it_says_so_when_it_cannot_write_there(backing_up, path):
    """Under a file: no folder can be made there (as root, a read-only mode would not do)."""
    (backing_up / "notes.txt").write_text("Not a folder.\n")

    with pytest.raises(CommandError, match=r"(Cannot write|Cannot make).*notes\.txt"):
        call_command("backup", str(backing_up / path))


def test_it_backs_up_through_manage_py_with_a_message_not_a_traceback(database, tmp_path):
    env, _ = database
    with pytest.raises(AssertionError, match="failed") as failed:
        manage(env, "backup", str(tmp_path / "missing" / "backups") + "/")
    assert "does not exist" in str(failed.value)
    assert "Traceback" not in str(failed.value)
