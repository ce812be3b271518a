"""`manage.py bench` keeps working: the smallest scale, end to end, in a few seconds.

The command runs as `make bench` runs it, in a process of its own: it makes its own
databases (on whichever database this leg of the suite uses), seeds them through the
services, times every page and writes the table and the JSON. Times are not asserted
(a test machine is no benchmark); the rows and their query counts are.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

# The benchmark runs in a subprocess on the configured database: both legs run it.
pytestmark = pytest.mark.any_database

EVERY_ROW = [
    "admin_login",
    "dashboard",
    "dashboard_first",
    "campaign_page",
    "campaign_page_first",
    "campaign_page_battle_first",
    "order_of_battle_50",
    "order_of_battle_50_first",
    "order_of_battle_200",
    "order_of_battle_200_first",
    "crusade_card",
    "crusade_card_first",
    "battle_detail_baseline",
    "battle_detail",
    "battle_detail_first",
    "record_form_baseline",
    "record_form",
    "record_form_first",
    "muster_form_50",
    "muster_form_50_first",
    "start_battle",
    "start_battle_first",
    "force_history_baseline",
    "force_history",
    "force_history_first",
    "muster_form_200",
    "print_50",
    "print_200",
    "export_json",
    "import_text",
    "import_ros",
    "muster_army_5",
    "muster_army_30",
    "record_side_5",
    "record_side_30",
    "complete_battle_5",
    "complete_battle_30",
    "admin_units",
    "admin_battles",
    "admin_history",
    "admin_forces",
]


@pytest.fixture(scope="session")
def bench(tmp_path_factory) -> tuple[str, dict]:
    """One run of `manage.py bench --scale small`, shared by the tests below. Session-wide:
    pytest-django runs the database test below apart from the others, and a module-wide
    fixture would be made again for it (a second minute-long run)."""
    results = tmp_path_factory.mktemp("bench") / "bench.json"
    finished = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench",
            "--scale",
            "small",
            "--repeat",
            "1",
            "--json",
            str(results),
        ],
        cwd=settings.BASE_DIR,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    return finished.stdout, json.loads(results.read_text())


def test_it_prints_a_row_for_every_page_and_step(bench):
    output, results = bench

    assert [row["key"] for row in results["rows"]] == EVERY_ROW
    for row in results["rows"]:
        assert row["page"] in output
    assert "bench: " in output and " targets met on " in output


def test_it_writes_every_measurement_and_judgement_as_json(bench):
    _, results = bench

    for row in results["rows"]:
        assert row["queries"] >= 0
        assert row["median_ms"] > 0
        assert row["met"] in (True, False, None)
    judged = [row for row in results["rows"] if row["met"] is not None]
    assert results["summary"] == {
        "met": sum(row["met"] for row in judged),
        "targets": len(judged),
    }
    assert results["rows"][0]["ratio_to_login"] == 1


def test_it_seeds_the_league_and_its_start_of_season_through_the_services(bench):
    _, results = bench

    league, start = results["seeding"]["league"], results["seeding"]["baseline"]
    assert (league["forces"], league["units"]) == (start["forces"], start["units"]) == (5, 310)
    assert league["battles"] == 27, "25 recorded, 1 to record (with Agendas), 1 to muster"
    assert start["battles"] == 22
    for seeded in (league, start):
        assert seeded["history"] > seeded["units"] + 20 * seeded["battles"]
        assert seeded["destroyed"] > 0 and seeded["out_of_action_tests"] > 0
        assert seeded["promotions"] > 0 and seeded["battle_honours"] > 0
        assert seeded["reused"] is False


@pytest.mark.django_db
def test_it_drops_the_databases_it_made(bench):
    output, _ = bench
    made = re.findall(r" in (?:SQLite (\S+)|PostgreSQL database (\S+) on )", output)

    assert len(made) == 2, "the 20-battle campaign and the league, each in its own database"
    for path, name in made:
        if path:
            assert not Path(path).exists()
        else:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
                assert cursor.fetchone() is None


def test_it_times_each_cached_page_warm_and_at_the_first_look_after_a_write(bench):
    """The cached pages are measured twice: as most looks find them (their fragments
    cached) and as the first look after a real write to their force does (the cached
    parts out of date, so the page runs the queries the cache saves)."""
    _, results = bench
    rows = {row["key"]: row for row in results["rows"]}

    for key in ("campaign_page", "order_of_battle_50", "order_of_battle_200"):
        assert rows[f"{key}_first"]["queries"] > rows[key]["queries"]
        assert rows[f"{key}_first"]["met"] in (True, False)
    # After a completed battle the campaign page builds its standings, battles and
    # results again: more than a force's goals edited made it read.
    after_battle = rows["campaign_page_battle_first"]
    assert after_battle["queries"] > rows["campaign_page_first"]["queries"]
    assert after_battle["met"] in (True, False)


def test_it_reports_the_size_of_the_pages_and_judges_the_steps_on_queries(bench):
    _, results = bench
    rows = {row["key"]: row for row in results["rows"]}

    assert rows["muster_form_200"]["kb"] > rows["muster_form_50"]["kb"] > 0
    assert "150 KB" in rows["muster_form_200"]["target"]
    assert rows["export_json"]["kb"] > 0
    for step in ("muster_army", "record_side", "complete_battle"):
        assert rows[f"{step}_5"]["queries"] > 0
        assert "queries" in rows[f"{step}_30"]["target"]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_seeded_postgresql_league_is_vacuumed_and_analysed_as_autovacuum_would():
    """Timed seconds after its bulk of writes, a league's plans were made without
    statistics, which a live database never lacks for long."""
    from django.db import connection

    from campaign.benchmark.database import BenchDatabase

    database = BenchDatabase("settle", keep=False)
    try:
        database.settle()
    finally:
        database.connection.close()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT last_vacuum IS NOT NULL, last_analyze IS NOT NULL FROM pg_stat_user_tables"
            " WHERE relname = 'campaign_historyentry'"
        )
        assert cursor.fetchone() == (True, True)
