"""Journey 5: a player brings an army list in from the official app, on a phone.

They upload a real export, leave one unit out (the summary follows as they untick it),
confirm, and find the units on their Order of Battle.
"""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from campaign import services
from campaign.models import CrusadeForce
from tests.browser.helpers import log_in
from tests.browser.test_mobile_layout import artefacts
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SAMPLE = Path(__file__).resolve().parents[1] / (
    "rosters/samples/app-text/death-guard-plague-wall-annotated.txt"
)
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_it_imports_a_real_list_leaving_one_unit_out_onto_the_order_of_battle(
    page: Page, live_server
):
    """R1.3: the 9 units come to 980 of 1000 points; without a Rhino, 895."""
    player = make_user("typhus")
    campaign = make_campaign(name="The Pale Harvest")
    services.join_campaign(actor=player, user=player, campaign=campaign)
    page.set_viewport_size({"width": 375, "height": 812})
    log_in(page, live_server.url, "typhus")

    page.goto(f"{live_server.url}/forces/new/")
    page.get_by_role("link", name="Import an army list").click()
    page.get_by_label("Army list file").set_input_files(str(SAMPLE))
    page.get_by_role("button", name="Read the list").click()

    expect(page.get_by_role("heading", name="Check before importing")).to_be_visible()
    summary = page.locator("#import-summary")
    expect(summary.locator(".import__supply-used")).to_have_text("980")
    expect(
        page.get_by_text("The file doesn't say which CHARACTERS are EPIC HEROES.")
    ).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.screenshot(path=str(artefacts() / "import-preview-375.png"), full_page=True)

    page.get_by_label("Import Chaos Rhino 2").uncheck()
    expect(summary.locator(".import__supply-used")).to_have_text("895")
    expect(summary.locator(".import__count")).to_have_text("8")

    page.get_by_role("button", name="Create the force").click()
    expect(page.get_by_role("heading", name="Plague Wall", level=1)).to_be_visible()
    table = page.locator(".oob-table")
    expect(table.get_by_role("link", name="Chaos Rhino", exact=True)).to_be_visible()
    expect(table.get_by_role("link", name="Chaos Rhino 2")).to_have_count(0)
    expect(page.locator("#force-summary .supply-used")).to_have_text("895")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    force = CrusadeForce.objects.get(name="Plague Wall")
    assert (force.campaign, force.unit_count, force.supply_used) == (campaign, 8, 895)


WOLVES = SAMPLE.parents[0] / "space-wolves-boop.txt"


def test_it_keeps_the_bullet_of_an_import_refusal_inside_its_red_box(page: Page, live_server):
    """R1.3: a list over the Supply Limit is refused in a red box whose bullets sit in it."""
    player = make_user("ragnar")
    services.join_campaign(actor=player, user=player, campaign=make_campaign())
    log_in(page, live_server.url, "ragnar")
    page.goto(f"{live_server.url}/forces/import/")
    page.get_by_label("Army list file").set_input_files(str(WOLVES))
    page.get_by_role("button", name="Read the list").click()
    for index in (5, 6):
        page.locator(f'[name="unit-{index}-enhancement_points"]').fill("15")
    # Leaving the field sends it to the live summary, which refuses at once. Waiting for that
    # answer before confirming keeps the two requests apart: the test server shares one
    # in-memory database connection between its threads, so they must not overlap.
    page.locator('[name="unit-6-enhancement_points"]').press("Tab")
    expect(page.locator("#import-summary ul.import__refusals")).to_contain_text(
        "none of it is used yet"
    )
    with page.expect_navigation():
        page.get_by_role("button", name="Create the force").click()

    box = page.locator("ul.import__refusals")
    expect(box).to_contain_text("none of it is used yet")
    assert not CrusadeForce.objects.filter(player=player).exists()  # refused: nothing written
    item = box.locator("li").first
    room = item.evaluate(
        "li => li.getBoundingClientRect().left - li.parentElement.getBoundingClientRect().left"
    )
    assert room >= 20  # the disc and its gap (about 1.2em) fit inside the box's padding
