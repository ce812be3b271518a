"""Acceptance journey 2: two players fight a battle from start to promotions, in Chromium."""

from __future__ import annotations

import re

from django.urls import reverse
from playwright.sync_api import Page, expect

from campaign import services
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

PASSWORD = "test-pass-123"


def _log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out {username}")).to_be_visible()


def _muster(page: Page, captain: str, squad: str) -> None:
    page.get_by_role("link", name="Muster your army").click()
    page.get_by_label("Detachment").fill("Gladius Task Force")
    page.get_by_role("checkbox", name=captain).check()
    page.get_by_role("checkbox", name=squad).check()
    page.get_by_label("Warlord").select_option(label=captain)
    expect(page.locator("#muster-summary")).to_contain_text("ready to fight")
    page.get_by_role("button", name="Muster this army").click()
    expect(page.locator(".message--success")).to_contain_text("is mustered")


def test_it_plays_a_battle_from_start_to_promotion(live_server, page, browser):
    base = live_server.url
    organiser = make_user("organiser-j2")
    campaign = make_campaign(organiser=organiser, name="Tyrannic War")
    alice, bruno = make_user("alice"), make_user("bruno")
    wolves = make_force(player=alice, campaign=campaign, name="Iron Wolves")
    talons = make_force(player=bruno, campaign=campaign, name="Red Talons")
    captain = make_character(wolves, name="Captain Vorn")
    make_unit(wolves, name="Squad Helix")
    make_character(talons, name="Captain Rhal")
    make_unit(talons, name="Squad Kade")
    services.correct_unit(actor=organiser, unit=captain, reason="setup", xp=5)

    # Player 1 starts the battle and musters.
    _log_in(page, base, "alice")
    page.goto(base + reverse("battle_create"))
    page.get_by_label("Battle size").select_option("Incursion")
    page.get_by_label("Mission").fill("Take and Hold")
    page.get_by_role("checkbox", name=re.compile("Red Talons")).check()
    page.get_by_role("button", name="Start the battle").click()
    expect(page.get_by_role("heading", name="Incursion battle")).to_be_visible()
    battle_url = page.url
    _muster(page, "Captain Vorn", "Squad Helix")

    # Player 2, in a browser of their own, musters too.
    other = browser.new_context(viewport={"width": 375, "height": 800})
    other.set_default_timeout(10_000)
    page2 = other.new_page()
    _log_in(page2, base, "bruno")
    page2.goto(battle_url)
    _muster(page2, "Captain Rhal", "Squad Kade")
    assert page2.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # Player 1 records the end: Squad Helix was destroyed.
    page.goto(battle_url)
    page.get_by_role("link", name="Record the result").click()
    page.get_by_label("Result for Iron Wolves").select_option(label="Victory")
    page.get_by_label("Result for Red Talons").select_option(label="Defeat")
    page.get_by_label("Squad Helix was destroyed").check()
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("Nothing has been saved yet")).to_be_visible()
    expect(page.get_by_text("Now Blooded")).to_be_visible()
    page.get_by_role("button", name="Confirm and record").click()
    expect(page.get_by_text("Battle recorded")).to_be_visible()

    # Out of Action: a 1 fails, and Squad Helix takes a scar chosen from the table.
    page.get_by_role("link", name="Out of Action test: Squad Helix").click()
    page.get_by_label("Your D6 roll").fill("1")
    page.get_by_role("button", name="Enter roll").click()
    expect(page.get_by_text("Failed on a 1")).to_be_visible()
    page.get_by_role("radio", name=re.compile("Fatigued")).check()
    page.get_by_role("button", name="Take the Battle Scar").click()
    expect(page.get_by_text("Gained Battle Scar: Fatigued")).to_be_visible()

    # The Captain, now Blooded, settles its promotion with a Battle Trait.
    page.goto(battle_url)
    page.get_by_role("link", name=re.compile("Promotion: Captain Vorn is now Blooded")).click()
    page.get_by_label("Trait", exact=True).select_option("Character::Natural Leader")
    page.get_by_role("button", name="Take the chosen trait").click()
    expect(page.get_by_text("Captain Vorn gained Battle Trait: Natural Leader")).to_be_visible()

    # Both Orders of Battle show the new numbers.
    page.goto(base + reverse("force_detail", args=[wolves.pk]))
    expect(page.locator(".stat__value").filter(has_text="played")).to_contain_text("1")
    expect(page.locator(".badge--scar", has_text="Fatigued")).to_be_visible()
    expect(page.locator(".badge--honour", has_text="Natural Leader")).to_be_visible()
    page2.goto(base + reverse("force_detail", args=[talons.pk]))
    expect(page2.locator(".stat__value").filter(has_text="played")).to_contain_text("1")
    other.close()
