"""Settings read from the environment, as each deployment sets it: each case imports
`campaign.settings` afresh in a subprocess, with nothing of this run's environment."""

from __future__ import annotations

import json
import re
import secrets
import subprocess
from pathlib import Path

import pytest

from tests.concurrency.live import COMMAND_TIMEOUT, PYTHON, REPO, app_environment, manage

SHOW = (
    "import json; from campaign import settings as s; print(json.dumps({"
    "'storages': s.STORAGES, 'database': s.DATABASES['default'], "
    "'sessions': s.SESSION_ENGINE, 'messages': s.MESSAGE_STORAGE, "
    "'email': [s.EMAIL_ENABLED, s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, "
    "s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL]}, default=str))"
)
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "crusade.example.org",
    "DATABASE_URL": "postgres://crusade:secret@db.example.org:5432/crusade",
}
BUCKET = {
    "AWS_STORAGE_BUCKET_NAME": "crusade-media",
    "AWS_S3_ENDPOINT_URL": "https://s3.example.org",
    "AWS_S3_REGION_NAME": "eu-west-1",
}


def settings_with(**env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "-c", SHOW],
        cwd=REPO,
        env=app_environment(**env),
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
        check=False,
    )


def settings(**env: str) -> dict:
    done = settings_with(**env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_it_sends_no_email_without_email_settings():
    sends, backend, *_ = settings(**PRODUCTION)["email"]

    assert (sends, backend) == (False, "django.core.mail.backends.dummy.EmailBackend")


def test_it_sends_email_through_the_mail_server_it_is_given():
    email = settings(
        **PRODUCTION,
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="2525",
        DEFAULT_FROM_EMAIL="Crusade <crusade@example.org>",
    )["email"]

    assert email == [
        True,
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        2525,
        True,
        "Crusade <crusade@example.org>",
    ]


def test_it_keeps_pictures_on_this_machines_disk_by_default():
    media = settings()["storages"]["default"]
    assert media == {"BACKEND": "django.core.files.storage.FileSystemStorage"}


def test_it_keeps_pictures_in_the_bucket_it_is_given():
    media = settings(**PRODUCTION, **BUCKET)["storages"]["default"]
    assert media["BACKEND"] == "storages.backends.s3.S3Storage"
    options = media["OPTIONS"]
    assert options["bucket_name"] == "crusade-media"
    assert options["endpoint_url"] == "https://s3.example.org"
    assert options["region_name"] == "eu-west-1"
    assert options["querystring_auth"] is True  # a private bucket: signed, expiring URLs
    assert options["file_overwrite"] is False
    assert "access_key" not in options and "secret_key" not in options  # boto3 reads them


def test_it_serves_pictures_from_a_public_domain_when_told_to():
    options = settings(
        **BUCKET, AWS_S3_CUSTOM_DOMAIN="media.example.org", AWS_QUERYSTRING_AUTH="0"
    )["storages"]["default"]["OPTIONS"]
    assert (options["custom_domain"], options["querystring_auth"]) == ("media.example.org", False)


def test_it_refuses_s3_without_a_bucket():
    done = settings_with(MEDIA_STORAGE="s3")
    assert done.returncode != 0
    assert "ImproperlyConfigured: MEDIA_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME." in done.stderr


def test_it_refuses_a_media_storage_it_does_not_know():
    done = settings_with(MEDIA_STORAGE="ftp")
    assert "MEDIA_STORAGE is 'ftp': use 'local' or 's3'." in done.stderr


def test_it_makes_sqlite_wait_for_the_write_lock_instead_of_failing():
    """The SQLite file of `make run`: IMMEDIATE transactions, a busy timeout, WAL."""
    database = settings()["database"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database["OPTIONS"]["timeout"] >= 5
    init = [c.strip() for c in database["OPTIONS"]["init_command"].split(";")]
    assert init == ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"]


def test_it_gives_postgresql_none_of_the_sqlite_options():
    database = settings(**PRODUCTION)["database"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["OPTIONS"] == {
        "server_side_binding": True,
        "prepare_threshold": 5,
        "options": "-c random_page_cost=1.1 -c plan_cache_mode=force_generic_plan",
    }


def test_it_lets_a_pooler_in_transaction_mode_turn_prepared_statements_off():
    """PgBouncer in transaction mode can't keep a connection's prepared statements."""
    database = settings(**PRODUCTION, DATABASE_SERVER_SIDE_BINDING="0")["database"]
    assert database["OPTIONS"] == {"options": "-c random_page_cost=1.1"}


def test_it_lets_a_deployment_choose_the_planners_cost_of_a_random_read():
    """A database on spinning disks, larger than its memory, would say 4 (PostgreSQL's
    default)."""
    database = settings(**PRODUCTION, DATABASE_RANDOM_PAGE_COST="4")["database"]
    assert database["OPTIONS"]["options"].startswith("-c random_page_cost=4 ")


def test_it_keeps_no_state_in_one_process():
    """Sessions in the database and messages in a cookie: any app process can serve anyone."""
    shown = settings(**PRODUCTION)
    assert shown["sessions"] == "campaign.sessions"  # Django's database store, read faster
    assert shown["messages"] == "django.contrib.messages.storage.fallback.FallbackStorage"


CONTENT_ADDRESSED = ["campaign/selectors/card_image.py"]
"""Modules that keep in the cache only what is keyed by a hash of its own content (a card's
picture under its fingerprint): one process's cache can never serve those stale."""
VERSIONED = [
    "campaign/admin/scope.py",
    "campaign/selectors/battles.py",
    "campaign/selectors/counters.py",
    "campaign/selectors/phases.py",
    "campaign/selectors/versions.py",
    "campaign/views/_common.py",
    "campaign/wins_kept.py",
]
"""Modules that keep in the cache only what is keyed by a version read from the database
with the page's own rows (the force's pack section under the force's and its campaign's
revisions, `selectors.versions`; the muster form's cards under the force's revision and
its Agendas under the campaign's; the organisers' list counts under their campaigns' and
forces' revisions; a drawn force's wins per day under its victories, with its campaign's
voids then, used only while they are the voids now, and made from the entry of one
victory fewer only by a win this process committed; a campaign's phases and alliances
under its revision; the battle page's region, the muster and record forms' boxes and the
dashboard's news under the versions `selectors.live.battle_region_key`,
`selectors.side_form_key` and `since.news_key` name), like the templates' fragments: never
stale either."""


KEEPS = re.compile(
    r"^from (\.|campaign\.selectors\.)versions import .*\bkept\b|\bversions\.kept\(", re.M
)
"""A module that keeps values through `selectors.versions.kept` uses the cache as surely as
one that imports it."""


def test_it_uses_no_cache_that_processes_would_have_to_share():
    """Django's cache is each process's own memory: the app must not rely on it being
    shared. Only content-addressed or versioned entries, which need no sharing, may use it."""
    sources = [p for p in (REPO / "campaign").rglob("*.py") if "migrations" not in p.parts]
    using = [
        str(p.relative_to(REPO))
        for p in sources
        if re.search(r"^\s*(from|import) django\.core\.cache|cache_page", p.read_text(), re.M)
        or KEEPS.search(p.read_text())
    ]
    assert sorted(using) == sorted(CONTENT_ADDRESSED + VERSIONED)


def test_it_caches_page_fragments_only_under_a_version_of_what_they_show():
    """A `{% cache %}` fragment is keyed by a version of what it shows, read from the
    database (`selectors.versions`), so no process can serve one stale either."""
    templates = list((REPO / "templates").rglob("*.html"))
    tags = [
        (str(p.relative_to(REPO)), tag)
        for p in templates
        for tag in re.findall(r"{%\s*cache\b[^%]*%}", p.read_text())
    ]
    assert tags, "no cached fragment found: is this test still needed?"
    # A version (`card.version`, `overview.map_version`), a revision, or a key made of the
    # very values the fragment shows (`overview.standings_key`), or a digest of the rows it
    # is built from, read with it (`oob.cards_digest`).
    keyed = re.compile(r"\.\w*(version|revision|_key|_digest)\b")
    assert [(path, tag) for path, tag in tags if not keyed.search(tag)] == []


def test_it_passes_the_deploy_checks_with_pictures_in_a_bucket(workdir: Path):
    out = manage(
        app_environment(**{**PRODUCTION, **BUCKET, "DATABASE_URL": f"sqlite:///{workdir}/x.db"}),
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert "System check identified no issues" in out


def test_it_warns_at_deploy_about_a_proxy_count_without_behind_proxy(workdir: Path):
    """Login throttling would count every player against the proxy's address."""
    env = app_environment(
        **{**PRODUCTION, "DATABASE_URL": f"sqlite:///{workdir}/x.db", "TRUSTED_PROXY_COUNT": "2"}
    )
    with pytest.raises(AssertionError, match="campaign.W001") as failed:
        manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert "BEHIND_PROXY is off" in str(failed.value)

    behind = manage({**env, "BEHIND_PROXY": "1"}, "check", "--deploy", "--fail-level", "WARNING")
    assert "System check identified no issues" in behind


@pytest.mark.parametrize(
    ("count", "refusal"), [("two", "must be a whole number"), ("0", "1 or more")]
)
def test_it_refuses_a_proxy_count_that_is_not_a_count(count, refusal):
    done = settings_with(BEHIND_PROXY="1", TRUSTED_PROXY_COUNT=count)
    assert done.returncode != 0
    assert refusal in done.stderr


def test_what_the_database_url_says_wins_over_the_connection_defaults():
    database = settings(
        **{**PRODUCTION, "DATABASE_URL": PRODUCTION["DATABASE_URL"] + "?prepare_threshold=0"}
    )["database"]
    assert str(database["OPTIONS"]["prepare_threshold"]) == "0"
    assert database["OPTIONS"]["options"].endswith("-c plan_cache_mode=force_generic_plan")
