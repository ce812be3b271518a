"""`make load` keeps working where it can be checked in seconds: its arguments, how it
reads locust's statistics and judges them, and how it reads wrk. (A run against a
league takes minutes: `make load` itself.)"""

import json
import os
import subprocess
import sys

import pytest

from scripts.load import __main__ as load
from scripts.load import league, report, throughput

STATS = """Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,\
Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,\
80%,90%,95%,98%,99%,99.9%,99.99%,100%
GET,order of battle,100,0,40,45,10,300,20000,3.2,0,40,45,50,55,90,140,200,250,300,300,300
POST,battle: confirm,10,0,200,210,150,500,300,0.3,0,200,210,220,230,300,420,500,500,500,500,500
GET,dashboard,50,1,30,35,10,100,9000,1.6,0.03,30,32,35,40,50,60,90,100,100,100,100
,Aggregated,160,1,40,60,10,500,15000,5.1,0.03,40,45,50,60,100,200,300,450,500,500,500
"""

WRK = """Running 3s test @ http://127.0.0.1:8000/dashboard/
  2 threads and 16 connections
  Latency Distribution
     50%   41.20ms
     75%   60.00ms
     90%  100.00ms
     99%    1.20s
  480 requests in 3.00s, 4.00MB read
  Socket errors: connect 0, read 0, write 0, timeout 2
  Non-2xx or 3xx responses: 3
Requests/sec:    159.80
"""


@pytest.mark.parametrize(
    "arguments",
    [
        ["--users", "0"],
        ["--time", "-5"],
        ["--workers", "x"],
        ["--shapes", "2by4"],
        ["--shapes", "0x4"],
        ["--connections", "4,0"],
        ["--scale", "galaxy"],
    ],
)
def test_bad_arguments_are_refused(arguments, capsys):
    with pytest.raises(SystemExit) as refused:
        load.parser().parse_args(arguments)
    assert refused.value.code == 2
    assert "error" in capsys.readouterr().err


def test_the_defaults_are_the_deployed_server_and_fifty_players():
    args = load.parser().parse_args([])
    assert (args.users, args.time, args.workers, args.threads) == (50, 60, 2, 4)
    assert args.shapes == [(2, 4), (4, 1), (4, 2), (2, 8)]
    assert args.connections == [4, 16, 64]


def test_pages_and_steps_are_judged_on_their_own_targets(tmp_path):
    (tmp_path / "run_stats.csv").write_text(STATS)
    rows = report.read(tmp_path / "run")
    by_name = {r.name: r for r in rows}
    assert [r.name for r in rows] == [
        "dashboard",
        "order of battle",
        "battle: confirm",
        "Aggregated",
    ]
    assert by_name["order of battle"].target == 150 and by_name["order of battle"].met
    # A step has 400 ms, and this one's p95 is over it.
    assert by_name["battle: confirm"].target == 400 and not by_name["battle: confirm"].met
    # Fast, but an error: not met.
    assert not by_name["dashboard"].met
    assert by_name["Aggregated"].met is None
    lines = report.table(rows)
    assert lines[2].startswith("| dashboard | 50 | 1 |") and lines[2].endswith("NOT MET |")
    assert lines[-1].startswith("| all requests | 160 | 1 | 5.1 |")


def test_wrk_output_is_read(monkeypatch):
    class Done:
        stdout = WRK

    monkeypatch.setattr(throughput.subprocess, "run", lambda *a, **k: Done)
    rps, p50, p99, errors = throughput.wrk("http://x/", connections=16, seconds=3, cookie="k")
    assert (rps, p50, p99, errors) == (159.8, 41.2, 1200.0, 5)
    sample = throughput.Sample("2x4", "dashboard", 16, rps, p50, p99, errors)
    assert throughput.table([sample], [16])[-1] == "| 2x4 | dashboard | 160 (41/1200, 5 errors) |"


def _samples(rates: dict[tuple[str, int], float]) -> list:
    return [throughput.Sample("2x4", page, c, rps, 1.0, 2.0, 0) for (page, c), rps in rates.items()]


def test_throughput_asks_half_the_login_rate_at_16_connections_and_no_fall_at_64():
    rates = {
        ("admin_login", 4): 800, ("admin_login", 16): 900, ("admin_login", 64): 880,
        ("dashboard", 4): 400, ("dashboard", 16): 450, ("dashboard", 64): 440,
        ("crusade_card", 4): 500, ("crusade_card", 16): 440, ("crusade_card", 64): 500,
        ("campaign_page", 4): 500, ("campaign_page", 16): 480, ("campaign_page", 64): 440,
    }  # fmt: skip
    verdicts = {v.page: v for v in throughput.verdicts(_samples(rates), [4, 16, 64])}
    assert verdicts["admin_login"].met and verdicts["admin_login"].share == 1.0
    assert verdicts["dashboard"].met and verdicts["dashboard"].share == 0.5
    assert not verdicts["crusade_card"].met  # 440 of 900 at 16 connections
    assert not verdicts["campaign_page"].met  # 440 at 64 connections against 500 at 4
    assert verdicts["campaign_page"].line() == (
        "2x4 campaign_page: 0.53x the login's rate, 0.88x from fewest to most connections"
    )


def test_throughput_is_not_met_where_a_number_of_connections_was_not_measured():
    rates = {("admin_login", 16): 900, ("dashboard", 16): 800}
    assert not any(v.met for v in throughput.verdicts(_samples(rates), [16]))


def test_a_page_measured_without_the_login_page_is_said_unknown_and_not_met():
    verdicts = throughput.verdicts(
        _samples({("dashboard", 4): 300, ("dashboard", 16): 320}), [4, 16]
    )
    (verdict,) = verdicts
    assert not verdict.met
    assert (
        verdict.line() == "2x4 dashboard: ? the login's rate, 1.07x from fewest to most connections"
    )


def test_throughput_judges_each_page_on_the_median_of_its_rounds():
    """A slow minute of the machine in one round does not decide a page's verdict."""
    rounds = [(900, 10, 40, 0), (300, 50, 900, 2), (860, 12, 45, 0)]
    samples = [
        throughput.Sample("2x4", "dashboard", 16, rps, p50, p99, errors)
        for rps, p50, p99, errors in rounds
    ]
    (median,) = throughput.medians(samples)
    assert (median.rps, median.p50_ms, median.p99_ms, median.errors) == (860, 12, 900, 2)


COPY_DATABASE = "crusade_test_league_copy"

SOURCE_ROWS = """
from django.contrib.auth.models import User
from campaign.tasks import send_battle_invitations
User.objects.create_user("copied")
send_battle_invitations.enqueue(0, "/")
"""


@pytest.mark.postgresql
@pytest.mark.django_db
def test_a_league_copy_reaches_postgresql_whole(tmp_path):
    """`make load DB=postgresql` serves a copy of the SQLite league: every table goes
    over, the tasks' results (keyed by uuid, no sequence) too, and each numbered table's
    sequence moves past the copied ids."""
    import psycopg

    manage = [sys.executable, "manage.py"]
    source = tmp_path / "league.sqlite3"
    # The app's own settings, as the load run has them (the tests' run tasks at once).
    app = {**os.environ, "DJANGO_SETTINGS_MODULE": "campaign.settings"}
    from_sqlite = {**app, "DATABASE_URL": f"sqlite:///{source}"}
    subprocess.run([*manage, "migrate", "-v0"], env=from_sqlite, check=True)
    subprocess.run([*manage, "shell", "-c", SOURCE_ROWS], env=from_sqlite, check=True)
    cluster = os.environ["DATABASE_URL"]
    url = league.create_postgresql(cluster, COPY_DATABASE)
    try:
        to_pg = {**app, "DATABASE_URL": url}
        subprocess.run([*manage, "migrate", "-v0"], env=to_pg, check=True)
        assert league.copy_to_postgresql(source, url) >= 2
        with psycopg.connect(url) as pg:
            users = pg.execute("SELECT id, username FROM auth_user").fetchall()
            assert [name for _, name in users] == ["copied"]
            tasks = pg.execute("SELECT count(*) FROM django_tasks_database_dbtaskresult")
            assert tasks.fetchone() == (1,)
            (after,) = pg.execute(
                "SELECT nextval(pg_get_serial_sequence('auth_user', 'id'))"
            ).fetchone()
            assert after > users[0][0]
    finally:
        league.drop_postgresql(cluster, COPY_DATABASE)


@pytest.mark.django_db(transaction=True)
def test_throughput_lists_every_page_a_player_opens_each_with_its_players_session(tmp_path, client):
    """`make throughput` times the benchmark's player pages and the muster form, each
    looked at by the player it belongs to; every one answers that player, not a login."""
    from campaign.benchmark import seed
    from scripts.load import players

    seed.seed(seed.SMALL, progress=lambda line: None)
    listed = tmp_path / "pages.json"
    players.pages(seed.SMALL.campaign, 1, listed)
    pages = json.loads(listed.read_text())
    assert [p["page"] for p in pages] == [
        "admin_login",
        "dashboard",
        "campaign_page",
        "order_of_battle_50",
        "order_of_battle_200",
        "crusade_card",
        "battle_detail",
        "record_form",
        "start_battle",
        "force_history",
        "muster_form_50",
    ]
    assert pages[0]["session"] is None
    for page in pages[1:]:
        client.cookies["sessionid"] = page["session"]
        response = client.get(page["path"])
        assert response.status_code == 200, page


def test_the_report_quotes_what_the_server_logged_for_a_failed_request(tmp_path):
    """A 500 under load is diagnosed from the report: each traceback in the server's log,
    with the line naming the request, ends at the exception."""
    log = tmp_path / "server.log"
    log.write_text(
        "[INFO] Booting worker with pid: 7\n"
        "Internal Server Error: /campaigns/1/\n"
        "Traceback (most recent call last):\n"
        '  File "views.py", line 3, in campaign_detail\n'
        "    overview.battles\n"
        "KeyError: 3\n"
        "[INFO] Handling signal: term\n"
    )

    (quoted,) = load.server_errors(log)

    assert quoted.splitlines()[0] == "Internal Server Error: /campaigns/1/"
    assert quoted.splitlines()[-1] == "KeyError: 3"
    assert load.server_errors(tmp_path / "missing.log") == []
