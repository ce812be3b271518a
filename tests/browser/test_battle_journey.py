"""Acceptance journey 2: two players, each in a browser of their own, fight a battle: one
invites, the other accepts, both muster, each records their own side. Then a disputed
battle that the organiser settles in the admin, in a third browser."""

from __future__ import annotations

import re

from django.urls import reverse
from playwright.sync_api import Page, expect

from campaign import services
from tests.browser.helpers import PASSWORD, fill_muster, log_in
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user


def _muster(page: Page, captain: str, squad: str) -> None:
    page.get_by_role("link", name="Muster your army").click()
    fill_muster(page, units=[captain, squad], warlord=captain, detachment="Gladius Task Force")
    expect(page.locator("#muster-summary")).to_contain_text("ready to fight")
    page.get_by_role("button", name="Muster this army").click()
    expect(page.locator(".message--success")).to_contain_text("is mustered")


def _context(browser, *, width: int = 1280, height: int = 900):
    """A browser of its own for one more person at the table."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(10_000)
    return context


def _record_side(page: Page, battle_url: str, force: str, result: str, **facts) -> None:
    """On my side's record form: my result, and (``destroyed``) which of my units fell."""
    page.goto(battle_url)
    page.get_by_role("link", name="Record your side of the battle").click()
    expect(page.get_by_label(re.compile("Result for"))).to_have_count(1)
    page.get_by_label(f"Result for {force}").select_option(label=result)
    for unit in facts.get("destroyed", ()):
        page.get_by_label(f"{unit} was destroyed").check()
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("Nothing has been saved yet")).to_be_visible()
    page.get_by_role("button", name="Confirm and record").click()


def _start_against(page: Page, base: str, opponent: str) -> str:
    page.goto(base + reverse("battle_create"))
    page.get_by_label("Battle size").select_option("Incursion")
    page.get_by_label("Mission").fill("Take and Hold")
    page.get_by_role("checkbox", name=re.compile(opponent)).check()
    page.get_by_role("button", name="Start the battle").click()
    expect(page.get_by_role("heading", name="Incursion battle")).to_be_visible()
    expect(page.get_by_text("Invited: no answer yet")).to_be_visible()
    return page.url


def _two_players(base_setup=None):
    organiser = make_user("organiser-j2", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Tyrannic War")
    alice, bruno = make_user("alice"), make_user("bruno")
    wolves = make_force(player=alice, campaign=campaign, name="Iron Wolves")
    talons = make_force(player=bruno, campaign=campaign, name="Red Talons")
    captain = make_character(wolves, name="Captain Vorn")
    make_unit(wolves, name="Squad Helix")
    make_character(talons, name="Captain Rhal")
    make_unit(talons, name="Squad Kade")
    return organiser, wolves, talons, captain


def _invited_and_mustered(page: Page, browser, base: str):
    """Alice invites Bruno, who accepts in a browser of his own (a phone); both muster."""
    log_in(page, base, "alice")
    battle_url = _start_against(page, base, "Red Talons")
    _muster(page, "Captain Vorn", "Squad Helix")

    other = _context(browser, width=375, height=800)
    page2 = other.new_page()
    log_in(page2, base, "bruno")
    page2.goto(base + reverse("dashboard"))
    expect(page2.get_by_text("Red Talons is invited by alice")).to_be_visible()
    page2.goto(battle_url)
    page2.get_by_role("button", name="Accept the battle").click()
    expect(page2.locator(".message--success")).to_contain_text("Red Talons joins the battle")
    _muster(page2, "Captain Rhal", "Squad Kade")
    assert page2.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    return battle_url, other, page2


def test_it_plays_a_battle_with_both_players_consent_from_invitation_to_promotion(
    live_server, page, browser
):
    base = live_server.url
    organiser, wolves, talons, captain = _two_players()
    services.correct_unit(actor=organiser, unit=captain, reason="setup", xp=5)
    battle_url, other, page2 = _invited_and_mustered(page, browser, base)

    # Alice records her side: Squad Helix was destroyed. Her opponent's units aren't hers.
    page.goto(battle_url)
    page.get_by_role("link", name="Record your side of the battle").click()
    expect(page.get_by_label("Squad Kade was destroyed")).to_have_count(0)
    _record_side(page, battle_url, "Iron Wolves", "Victory", destroyed=["Squad Helix"])
    expect(page.get_by_text("Your side is recorded")).to_be_visible()
    expect(page.locator("#battle-status")).to_have_text("In progress")

    # Bruno records his: a Defeat. The results agree, and the battle is complete.
    _record_side(page2, battle_url, "Red Talons", "Defeat")
    expect(page2.get_by_text("Battle recorded: every side agrees")).to_be_visible()
    expect(page2.locator("#battle-status")).to_have_text("Completed")

    # Out of Action: a 1 fails, and Squad Helix takes a scar chosen from the table.
    page.goto(battle_url)
    expect(page.locator("#battle-status")).to_have_text("Completed")
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


def test_it_has_an_organiser_settle_a_disputed_battle_in_the_admin(live_server, page, browser):
    base = live_server.url
    _organiser, wolves, talons, _captain = _two_players()
    battle_url, other, page2 = _invited_and_mustered(page, browser, base)

    # Both players claim a Victory: the battle is disputed, and both see why.
    _record_side(page, battle_url, "Iron Wolves", "Victory")
    _record_side(page2, battle_url, "Red Talons", "Victory")
    expect(page2.locator(".message--warning")).to_contain_text("the results disagree")
    for player in (page, page2):
        player.goto(battle_url)
        expect(player.locator("#battle-status")).to_have_text("Disputed")
        expect(player.get_by_role("heading", name="The results disagree")).to_be_visible()
        expect(player.get_by_text("can't both claim a Victory")).to_be_visible()

    # The organiser, in a third browser, settles it in the admin: Bruno's Talons won.
    third = _context(browser)
    admin = third.new_page()
    admin.goto(base + reverse("admin:login"))
    admin.get_by_label("Username").fill("organiser-j2")
    admin.get_by_label("Password").fill(PASSWORD)
    admin.get_by_role("button", name="Log in").click()
    battle_pk = int(re.findall(r"\d+", battle_url)[-1])
    admin.goto(base + reverse("admin:campaign_battle_change", args=[battle_pk]))
    admin.get_by_role("link", name=re.compile("Settle the battle")).click()
    expect(admin.get_by_text("can't both claim a Victory")).to_be_visible()
    admin.get_by_label("Result for Iron Wolves").select_option(label="Defeat")
    admin.get_by_label("Result for Red Talons").select_option(label="Victory")
    admin.get_by_label("Reason").fill("Scoresheet photo: the Talons held more objectives")
    admin.get_by_role("button", name="Settle the battle").click()
    expect(admin.get_by_text("Battle settled")).to_be_visible()
    admin.goto(base + reverse("admin:campaign_historyentry_changelist") + "?action=battle_settled")
    expect(admin.get_by_text("settled by an organiser").first).to_be_visible()
    third.close()

    # Both players see the settled result, and their tallies.
    page.goto(battle_url)
    expect(page.locator("#battle-status")).to_have_text("Completed")
    page.goto(base + reverse("force_detail", args=[wolves.pk]))
    expect(page.locator(".stat__note").filter(has_text="victor")).to_contain_text("0 victories")
    page2.goto(base + reverse("force_detail", args=[talons.pk]))
    expect(page2.locator(".stat__note").filter(has_text="victor")).to_contain_text("1 victory")
    other.close()
