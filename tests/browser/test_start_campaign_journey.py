"""Journey 6: on a phone, a player starts a campaign and runs it in the admin."""

import re

import pytest
from playwright.sync_api import Page, expect

from campaign.models import Campaign
from tests.browser.helpers import log_in
from tests.browser.test_mobile_layout import NO_SIDEWAYS_SCROLL
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_takes_a_player_from_the_dashboard_to_their_campaign_in_the_admin(
    page: Page, live_server
):
    make_campaign(name="Octarius")  # someone else's
    make_user("yarrick")
    page.set_viewport_size({"width": 375, "height": 812})
    log_in(page, live_server.url, "yarrick")
    page.goto(f"{live_server.url}/dashboard/")
    expect(page.get_by_role("link", name="Admin")).to_have_count(0)

    page.get_by_role("link", name="Start a campaign").click()
    name = page.get_by_label(re.compile(r"^Name\W*$"))
    expect(name).to_be_visible()  # the new page has loaded: measure it, not the last one
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    name.fill("Armageddon")
    page.get_by_label("Description").fill("The third war for the hive world.")
    page.get_by_label(re.compile(r"^Supply Limit increase\W*$")).fill("250")
    page.get_by_role("button", name="Start the campaign").click()

    campaign = Campaign.objects.get(name="Armageddon")
    expect(page.get_by_role("heading", name="Armageddon", level=1)).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text(campaign.invite_code)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.get_by_role("link", name="Manage the campaign in the admin").click()
    expect(page.locator("#id_supply_limit_increase")).to_have_value("250")
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    expect(page.get_by_role("link", name="Armageddon")).to_be_visible()
    expect(page.get_by_text("Octarius")).to_have_count(0)
