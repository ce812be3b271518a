"""A narrative campaign from end to end, at 1280 and 375 px, each person in a browser of
their own: the organiser defines a phase, starts it, forms two alliances and imports a
map in the admin; two players each fight for an alliance; a battle over the territory
nobody holds hands it to the winner's alliance, on the map and in the standings; the
winner tells the battle's story in the campaign's log."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.helpers import log_in
from tests.browser.test_battle_journey import _context, _muster, _record_side
from tests.browser.test_mobile_layout import artefacts
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db(transaction=True)

NOBODY = "#9e9e9e"  # campaign.selectors.territories.NOBODY
IRON_PACT, RED_HOST = "#3366cc", "#cc3333"
MAP = {
    "format": "crusade-campaign-map",
    "version": 1,
    "map": {"name": "The Kharos Reach", "description": "Four worlds on the edge of the dark."},
    "territories": [
        {
            "id": "forge-ulm",
            "name": "Forge Ulm",
            "description": "",
            "column": 0,
            "row": 0,
            "neighbours": ["ash-plain"],
            "held_by": "Iron Pact",
        },
        {
            "id": "ash-plain",
            "name": "Ash Plain",
            "description": "No banner flies here yet.",
            "column": 1,
            "row": 0,
            "neighbours": ["forge-ulm", "spire-kal"],
        },
        {
            "id": "spire-kal",
            "name": "Spire Kal",
            "description": "",
            "column": 2,
            "row": 0,
            "neighbours": ["ash-plain", "the-moon"],
            "held_by": "Red Host",
        },
        {
            "id": "the-moon",
            "name": "The Moon",
            "description": "",
            "column": 3,
            "row": 0,
            "neighbours": ["spire-kal"],
            "held_by": "Red Host",
        },
    ],
}
STORY = "The Wolves came down on the plain at dawn.\n\n**Captain Vorn held the line** alone."


def _world():
    organiser = make_user("marshal-kh", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="The Kharos War")
    wolves = make_force(player=make_user("alice"), campaign=campaign, name="Iron Wolves")
    talons = make_force(player=make_user("bruno"), campaign=campaign, name="Red Talons")
    make_character(wolves, name="Captain Vorn")
    make_unit(wolves, name="Squad Helix")
    make_character(talons, name="Captain Rhal")
    make_unit(talons, name="Squad Kade")
    return campaign, wolves, talons


def _no_overflow(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _organise(admin: Page, base: str, campaign, width: int) -> None:
    """The organiser's part, in the admin: a phase, started; two alliances; the map."""
    log_in(admin, base, "marshal-kh")

    # A phase, on the campaign's change form.
    admin.goto(base + reverse("admin:campaign_campaign_change", args=[campaign.pk]))
    admin.locator("#id_phases-0-name").fill("The Landing")
    admin.locator("#id_phases-0-battle_size").select_option("Incursion")
    admin.get_by_role("button", name="Save and continue editing").click()
    expect(admin.locator(".messagelist .success")).to_be_visible()
    expect(admin.locator("#id_phases-0-name")).to_have_value("The Landing")

    # Started from the campaign's page.
    admin.goto(base + reverse("campaign_detail", args=[campaign.pk]))
    expect(admin.get_by_text("No phase has begun yet.")).to_be_visible()
    admin.get_by_role("button", name="Start the first phase").click()
    expect(admin.locator(".message--success")).to_have_text(
        re.compile("Phase 1, The Landing, has begun")
    )
    expect(admin.get_by_role("heading", name="Now: phase 1, The Landing")).to_be_visible()

    # Two alliances, each with its colour.
    for name, colour in (("Iron Pact", IRON_PACT), ("Red Host", RED_HOST)):
        admin.goto(base + reverse("admin:campaign_alliance_add"))
        admin.get_by_label("Campaign").select_option(label="The Kharos War")
        admin.get_by_label("Name").fill(name)
        admin.get_by_label("Colour").fill(colour)
        admin.get_by_role("button", name="Save", exact=True).click()
        expect(admin.locator(".messagelist .success")).to_contain_text(name)

    # The map, as a file uploaded on the import page.
    admin.goto(base + reverse("admin:campaign_territory_import"))
    admin.get_by_label("Map file").set_input_files(
        files=[
            {
                "name": "kharos.json",
                "mimeType": "application/json",
                "buffer": json.dumps(MAP).encode(),
            }
        ]
    )
    admin.get_by_label("Campaign").select_option(label="The Kharos War")
    admin.screenshot(path=str(artefacts() / f"narrative-map-import-{width}.png"), full_page=True)
    admin.get_by_role("button", name="Import the map").click()
    expect(admin.locator(".messagelist .success")).to_have_text("Imported a map of 4 territories.")


def _fight_for(page: Page, base: str, force, alliance: str) -> None:
    page.goto(base + reverse("force_detail", args=[force.pk]))
    region = page.locator("#force-alliance")
    expect(region.get_by_role("heading", name="Fight for an alliance")).to_be_visible()
    region.get_by_role("radio", name=alliance).check()
    region.get_by_role("button", name="Fight for this alliance").click()
    expect(page.locator("#force-alliance")).to_contain_text(f"{force.name} fights for {alliance}")


def _hex(page: Page, key: str):
    return page.locator(f'.map__svg a[href="#territory-{key}"] polygon')


@pytest.mark.parametrize("width", [1280, 375])
def test_it_plays_a_narrative_campaign_from_the_admin_to_the_map_and_the_log(
    page: Page, live_server, browser, width
):
    campaign, wolves, talons = _world()
    base = live_server.url
    campaign_url = base + reverse("campaign_detail", args=[campaign.pk])

    # 1. The organiser, in a browser of their own.
    organiser = _context(browser, width=width)
    _organise(organiser.new_page(), base, campaign, width)
    organiser.close()

    # 2. Each player fights for an alliance, on their force's page.
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, base, "alice")
    _fight_for(page, base, wolves, "Iron Pact")
    other = _context(browser, width=width)
    page2 = other.new_page()
    log_in(page2, base, "bruno")
    _fight_for(page2, base, talons, "Red Host")

    # The map before the battle: Ash Plain is nobody's, grey.
    page.goto(campaign_url)
    expect(page.get_by_role("heading", name="Map: The Kharos Reach")).to_be_visible()
    expect(_hex(page, "ash-plain")).to_have_attribute("fill", NOBODY)
    expect(_hex(page, "forge-ulm")).to_have_attribute("fill", IRON_PACT)
    expect(page.locator("#territory-ash-plain")).to_contain_text("nobody")
    _no_overflow(page)

    # 3. Alice starts a battle over Ash Plain (the phase's size is offered); Bruno accepts.
    page.goto(base + reverse("battle_create"))
    expect(page.get_by_label("Battle size")).to_have_value("Incursion")
    page.get_by_label("Mission").fill("Take and Hold")
    page.get_by_role("checkbox", name=re.compile("Red Talons")).check()
    page.get_by_label("Fought over").select_option(
        label="Ash Plain (held by nobody; The Kharos War)"
    )
    page.get_by_role("button", name="Start the battle").click()
    expect(page.get_by_role("heading", name="Incursion battle")).to_be_visible()
    expect(page.get_by_role("link", name="Ash Plain")).to_be_visible()
    battle_url = page.url
    _muster(page, "Captain Vorn", "Squad Helix")

    page2.goto(battle_url)
    page2.get_by_role("button", name="Accept the battle").click()
    expect(page2.locator(".message--success")).to_contain_text("Red Talons joins the battle")
    _muster(page2, "Captain Rhal", "Squad Kade")

    _record_side(page, battle_url, "Iron Wolves", "Victory")
    expect(page.get_by_text("Your side is recorded")).to_be_visible()
    _record_side(page2, battle_url, "Red Talons", "Defeat")
    expect(page2.get_by_text("Battle recorded: every side agrees")).to_be_visible()
    expect(page2.locator("#battle-status")).to_have_text("Completed")
    other.close()

    # 4. The map: Ash Plain is the Iron Pact's now, in its colour; the alliances' standings
    # show the Campaign Points (3 for the win, 1 for taking the territory).
    page.goto(campaign_url)
    expect(_hex(page, "ash-plain")).to_have_attribute("fill", IRON_PACT)
    expect(page.locator("#territory-ash-plain td[data-label='Held by']")).to_have_text("Iron Pact")
    standings = page.get_by_role("table", name=re.compile("Alliances"))
    iron = standings.get_by_role("row").filter(has_text="Iron Pact")
    expect(iron.locator("td[data-label='Campaign Points']")).to_have_text("4")
    expect(iron.locator("td[data-label='Wins']")).to_have_text("1")
    red = standings.get_by_role("row").filter(has_text="Red Host")
    expect(red.locator("td[data-label='Campaign Points']")).to_have_text("0")
    _no_overflow(page)
    page.screenshot(path=str(artefacts() / f"narrative-campaign-{width}.png"), full_page=True)

    # 5. Alice tells the story of the battle; it is in the log, its bold in bold.
    page.goto(battle_url)
    page.get_by_role("link", name="Tell the story of this battle").click()
    expect(page.get_by_label("The battle it tells of")).not_to_have_value("")
    page.get_by_label("Title").fill("Dawn over Ash Plain")
    page.get_by_label("The story").fill(STORY)
    page.get_by_role("button", name="Write it in the log").click()
    expect(page.locator(".message--success")).to_contain_text("Dawn over Ash Plain is in the log")
    expect(page.locator(".log-entry__text strong")).to_have_text("Captain Vorn held the line")

    page.goto(campaign_url)
    chronicle = page.locator("section[aria-labelledby='chronicle-heading']")
    expect(chronicle.get_by_role("link", name="Dawn over Ash Plain")).to_be_visible()
    expect(chronicle).to_contain_text("Captain Vorn held the line alone.")
    expect(chronicle).not_to_contain_text("**")
    _no_overflow(page)
    page.screenshot(path=str(artefacts() / f"narrative-campaign-log-{width}.png"), full_page=True)

    chronicle.get_by_role("link", name="Read the whole log").click()
    entry = page.locator("article.log-entry").filter(has_text="Dawn over Ash Plain")
    expect(entry.locator(".log-entry__text strong")).to_have_text("Captain Vorn held the line")
    about = entry.locator(".log-entry__about a")
    expect(about).to_have_text(re.compile("Incursion: Take and Hold"))
    expect(about).to_have_attribute("href", re.compile(re.escape(battle_url.removeprefix(base))))
    _no_overflow(page)
    page.screenshot(path=str(artefacts() / f"narrative-log-{width}.png"), full_page=True)
    about.click()
    expect(page.get_by_role("heading", name="Incursion battle")).to_be_visible()
