"""Shared test setup: which database a run uses, and a real Chromium for browser tests."""

import os
import shutil
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests import live_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

# Playwright's sync API runs an event loop in this thread; Django would otherwise refuse
# database access from the test body (SynchronousOnlyOperation).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

live_server.install()

# Fixtures that open the test database. A test with none of them and no django_db mark
# cannot touch the database (pytest-django refuses it), so it gives the same result on
# any database: the PostgreSQL leg leaves it to the SQLite leg, which runs everything.
# A test that reaches the configured database another way (a command in a subprocess
# inherits DATABASE_URL) is marked `any_database` and runs in both.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
    "admin_user",
    "admin_client",
    "django_user_model",
}

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_report_header(config: pytest.Config) -> str:
    from django.conf import settings
    from django.db import connection

    db = settings.DATABASES["default"]
    where = f"{db.get('HOST')}:{db.get('PORT')}" if db.get("HOST") else "local"
    return f"database: {connection.vendor} NAME={db['NAME']} HOST={where}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # tryfirst: mark before `-m` deselects, so `-m "not browser"` sees the marker.
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "page" in fixtures:
            item.add_marker(pytest.mark.browser)
        if not fixtures & DATABASE_FIXTURES and not any(
            item.get_closest_marker(mark) for mark in ("django_db", "postgresql", "any_database")
        ):
            item.add_marker(pytest.mark.database_free)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgresql"):
        from django.db import connection

        if connection.vendor != "postgresql":
            pytest.fail(
                f"marked postgresql but the database is {connection.vendor}; "
                "run it with DATABASE_URL=postgres://... (make test-postgresql)"
            )


@pytest.fixture(autouse=True)
def _empty_caches() -> Iterator[None]:
    """Each test starts with empty caches: a test database gives the next test the same
    ids (and history versions) again, so what one test cached must not show in another."""
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()
    yield


@pytest.fixture(scope="session")
def playwright() -> Iterator["Playwright"]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: "Playwright") -> Iterator["Browser"]:
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(executable, os.X_OK):
        pytest.fail(
            f"Chromium not found at {executable}: run .ci/system-deps (apt-get install chromium)"
        )
    browser = playwright.chromium.launch(
        executable_path=executable, headless=True, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


@pytest.fixture
def page(browser: "Browser") -> Iterator["Page"]:
    """A fresh browser context and page for each test (1280x900)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()
