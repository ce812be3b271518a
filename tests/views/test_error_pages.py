"""Error pages in the app's layout, with a way back: 400, 403 (and the CSRF refusal), 404,
and a 500 page that needs neither the database nor any context."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_user

STYLESHEET = '<link rel="stylesheet" href="/static/css/app.css">'


@pytest.fixture
def production(settings):
    settings.DEBUG = False
    return settings


@pytest.fixture
def browser() -> Client:
    """A client that gets the error page instead of the exception."""
    return Client(raise_request_exception=False)


def app_page(response, status: int, heading: str) -> str:
    page = response.content.decode()
    assert response.status_code == status
    assert STYLESHEET in page
    assert 'class="site-header__name"' in page
    assert heading in page
    assert f'href="{reverse("home")}"' in page
    return page


@pytest.mark.django_db
def test_it_shows_the_apps_404_page_with_the_way_back_to_the_dashboard(production, browser):
    browser.force_login(make_user("vell"))

    page = app_page(browser.get("/no/such/page/"), 404, "There is nothing here")

    assert f'href="{reverse("dashboard")}"' in page
    assert "Log out vell" in page


@pytest.mark.django_db
def test_it_shows_the_apps_403_page_with_the_refusal(production, browser, force, member):
    """Another member of the campaign may look at the force, not change it."""
    browser.force_login(member)

    page = app_page(
        browser.get(reverse("force_edit", args=[force.pk])), 403, "You can't do that here"
    )

    assert f'href="{reverse("dashboard")}"' in page


@pytest.mark.django_db
def test_it_shows_the_apps_400_page_for_a_request_it_cannot_accept(production, browser):
    app_page(browser.get("/", HTTP_HOST="not-allowed.example"), 400, "could not be understood")


@pytest.mark.django_db
def test_it_shows_the_apps_page_when_a_form_fails_its_csrf_check(production):
    browser = Client(enforce_csrf_checks=True, raise_request_exception=False)

    refused = browser.post(reverse("login"), {"username": "vell", "password": "x"})

    page = app_page(refused, 403, "That form could not be checked")
    assert "Nothing was changed" in page


def test_it_shows_the_apps_500_page_while_the_database_is_unreachable(production, browser):
    """No django_db mark: every query raises, as with the database down. The page asks
    for the session (a query) and fails; the 500 page itself needs no query."""
    browser.cookies["sessionid"] = "z" * 32  # a well-formed key: looked up

    page = app_page(browser.get(reverse("dashboard")), 500, "Something went wrong")

    assert f'href="{reverse("dashboard")}"' in page
