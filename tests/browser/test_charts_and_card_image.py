"""The charts and the card picture in real Chromium, with JavaScript off: both pages fit
a 375px phone, the Content-Security-Policy refuses nothing, and the picture is a PNG."""

import re

import pytest
from playwright.sync_api import Browser, expect

from campaign import services
from tests.browser.helpers import log_in, policy_violations
from tests.factories import (
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_user,
)

# Not through the `page` fixture (JavaScript is off here), so marked by hand.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def a_campaign_with_battles():
    campaign = make_campaign(name="The Pariah Nexus")
    wolves = make_force(
        player=make_user("vell"), campaign=campaign, name="The Crimson Oath of Saint Aurelian"
    )
    talons = make_force(player=make_user("rhal"), campaign=campaign, name="Red Talons")
    captain = make_character(wolves, name="Captain Aurelian Valerius-Castellanus")
    make_character(talons, name="Captain Rhal")
    for _ in range(3):
        make_recorded_battle(wolves, talons, campaign=campaign)
        for promotion in captain.promotions.filter(status="pending"):
            services.settle_with_battle_trait(
                actor=wolves.player, promotion=promotion, table="Character"
            )
    return campaign, captain


def test_it_shows_the_charts_and_the_card_picture_on_a_phone(browser: Browser, live_server):
    campaign, captain = a_campaign_with_battles()
    context = browser.new_context(java_script_enabled=False, viewport={"width": 375, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    refused = policy_violations(page)
    log_in(page, live_server.url, "vell")

    page.goto(f"{live_server.url}{campaign.get_absolute_url()}")
    chart = page.get_by_role("img", name="Wins over time")
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] <= 375
    page.get_by_text("Wins over time, as a table").click()  # <details> opens without a script
    expect(page.locator(".chart__numbers td.num").first).to_have_text("3")  # the leader: 3 wins
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    page.goto(f"{live_server.url}{captain.get_absolute_url()}")
    expect(page.get_by_role("img", name="XP over its battles")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    with page.expect_response(re.compile(r"/card\.png$")) as picture:
        page.get_by_role("link", name="Share as image").click()
    assert picture.value.status == 200
    assert picture.value.headers["content-type"] == "image/png"
    assert refused == []
    context.close()
