"""Journey 4: on a phone with JavaScript off, long lists page and forms still work."""

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from campaign import rules, services
from campaign.models import CrusadeForce
from tests.browser.helpers import log_in
from tests.factories import make_campaign, make_force, make_user

pytestmark = pytest.mark.django_db(transaction=True)

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """Here every page is a phone's with JavaScript off (tests/conftest.py's is a desktop's
    with it on): the forms must work as plain HTML."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 375, "height": 800})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_it_pages_through_history_and_buys_supply_without_javascript(page: Page, live_server):
    player = make_user("varro")
    force = make_force(player=player, name="The Ashen Host")
    for i in range(60):
        services.update_force_details(actor=player, force=force, goals=f"Goal {i}")

    log_in(page, live_server.url, "varro")
    page.goto(f"{live_server.url}/forces/{force.pk}/history/")
    expect(page.get_by_text("Page 1 of 2")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    page.get_by_role("link", name="Older").click()
    expect(page.get_by_text("Page 2 of 2")).to_be_visible()
    expect(page.get_by_text("mustered with a 1000-point Supply Limit")).to_be_visible()

    label = rules.Requisition.INCREASE_SUPPLY_LIMIT.label
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    page.get_by_role("button", name=f"Buy {label}").click()
    expect(page.locator(".message--success")).to_contain_text("Supply Limit is now 1200")
    expect(page.locator("#force-summary .supply-limit")).to_have_text("1200")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)


def test_it_brings_a_force_raised_alone_into_a_campaign_without_javascript(page: Page, live_server):
    """Issue 13 item 1: a force raised before joining is not stuck outside the campaign."""
    player = make_user("varro")
    force = make_force(player=player, name="The Ashen Host")
    campaign = make_campaign(name="The Pariah Nexus")
    rival = make_force(campaign=campaign, name="Red Talons")
    services.join_campaign(actor=player, user=player, campaign=campaign)
    log_in(page, live_server.url, "varro")

    page.goto(f"{live_server.url}/battles/new/")
    expect(page.get_by_role("checkbox", name=re.compile("Red Talons"))).to_have_count(0)
    page.get_by_role("link", name="Bring it into a campaign").click()
    page.get_by_label(re.compile(r"^Campaign\W*$")).select_option(label="The Pariah Nexus")
    page.get_by_role("button", name="Bring it into the campaign").click()

    expect(page.locator(".message--success")).to_contain_text("is now in The Pariah Nexus")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.goto(f"{live_server.url}/battles/new/")
    expect(page.get_by_role("checkbox", name=re.compile(rival.name))).to_have_count(1)
    assert CrusadeForce.objects.get(pk=force.pk).campaign == campaign
