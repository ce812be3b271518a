"""The Content-Security-Policy blocks nothing the app itself needs: pages, htmx and the
admin run in Chromium without a single violation."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import log_in, policy_violations
from tests.factories import make_campaign, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_runs_the_pages_htmx_and_the_admin_without_a_policy_violation(page: Page, live_server):
    organiser = make_user("warmaster", is_staff=True)
    force = make_force(player=make_user("vell"), campaign=make_campaign(organiser=organiser))
    make_unit(force, name="Squad Dorn")
    seen = policy_violations(page)

    log_in(page, live_server.url, "vell")
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    page.get_by_role("button", name="Buy Increase Supply Limit").click()
    expect(page.locator("#force-summary")).to_contain_text("1200")
    page.goto(f"{live_server.url}/forces/{force.pk}/units/new/")
    page.locator("#id_points").fill("50")
    expect(page.locator("#supply-status")).to_contain_text("Fits")
    page.context.clear_cookies()
    log_in(page, live_server.url, "warmaster")
    page.goto(f"{live_server.url}/admin/campaign/unit/")
    expect(page.get_by_text("Squad Dorn")).to_be_visible()

    assert seen == []
