"""Players at one table, each on a phone of their own: what one does shows on the other's
battle page (and dashboard) within seconds, without a reload, under the strict
Content-Security-Policy. The pages poll every half second here (CRUSADE_LIVE_SECONDS)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from campaign import services
from tests.blessings import blessing_pack, give_honours
from tests.browser.helpers import log_in, policy_violations
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SOON = 5_000
"""Milliseconds: what one player does shows on the other's page within this."""


@pytest.fixture(autouse=True)
def _quick_polls(settings):
    settings.CRUSADE_LIVE_SECONDS = 0.5


def _phone(browser):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    context.set_default_timeout(10_000)
    return context


def _players():
    campaign = make_campaign(organiser=make_user("organiser-live", is_staff=True))
    alice, bruno = make_user("alice"), make_user("bruno")
    wolves = make_force(player=alice, campaign=campaign, name="Iron Wolves")
    talons = make_force(player=bruno, campaign=campaign, name="Red Talons")
    armies = {
        wolves: [
            make_character(wolves, name="Captain Vorn"),
            make_unit(wolves, name="Squad Helix"),
        ],
        talons: [make_character(talons, name="Captain Rhal"), make_unit(talons, name="Squad Kade")],
    }
    return campaign, alice, bruno, wolves, talons, armies


def _mustered_battle(*, underdog: bool = False):
    """Alice's Iron Wolves against Bruno's Red Talons: accepted and mustered (with
    ``underdog``, Rhal holds 2 honours: the Wolves may pick a Crusade Blessing)."""
    campaign, alice, bruno, wolves, talons, armies = _players()
    if underdog:
        blessing_pack(campaign.memberships.get(role="organiser").user, campaign)
        give_honours(armies[talons][0], 2)
    battle = services.start_battle(
        actor=alice, force=wolves, opponents=[talons], battle_size="Incursion", campaign=campaign
    )
    services.accept_invitation(actor=bruno, participant=battle.participants.get(force=talons))
    for force, units in armies.items():
        services.muster_army(
            actor=force.player,
            participant=battle.participants.get(force=force),
            units=units,
            warlord=units[0],
            faction="Adeptus Astartes",
            detachment="Gladius",
        )
    return battle


def _polls(page: Page) -> list[int]:
    """The status of every answer to the page's polls, as the test goes."""
    seen: list[int] = []
    page.on("response", lambda r: seen.append(r.status) if "/live/" in r.url else None)
    return seen


def _side(page: Page, force: str):
    return page.locator("section.side", has=page.get_by_role("heading", name=force))


def test_it_shows_my_opponent_recording_their_side_without_a_reload(live_server, page, browser):
    base = live_server.url
    battle = _mustered_battle()
    battle_url = base + battle.get_absolute_url()
    violations = policy_violations(page)
    log_in(page, base, "alice")
    page.goto(battle_url)
    polls = _polls(page)
    expect(_side(page, "Red Talons")).to_contain_text("Not recorded yet")
    page.evaluate("window.stillTheSamePage = true")
    page.wait_for_timeout(1_500)
    assert 304 in polls, polls  # asked, and nothing had changed

    phone = _phone(browser)
    bruno = phone.new_page()
    log_in(bruno, base, "bruno")
    bruno.goto(battle_url)
    bruno.get_by_role("link", name="Record your side of the battle").click()
    bruno.get_by_label("Result for Red Talons").select_option(label="Defeat")
    bruno.get_by_role("button", name="Preview").click()
    bruno.get_by_role("button", name="Confirm and record").click()
    expect(bruno.get_by_text("Your side is recorded")).to_be_visible()

    expect(_side(page, "Red Talons")).to_contain_text("Recorded", timeout=SOON)
    expect(_side(page, "Red Talons")).not_to_contain_text("Not recorded yet")
    assert page.evaluate("window.stillTheSamePage") is True
    assert 200 in polls
    phone.close()
    assert violations == []


def test_it_shows_the_battle_over_and_stops_asking(live_server, page, browser):
    base = live_server.url
    battle = _mustered_battle()
    battle_url = base + battle.get_absolute_url()
    log_in(page, base, "alice")
    page.goto(battle_url)
    page.get_by_role("link", name="Record your side of the battle").click()
    page.get_by_label("Result for Iron Wolves").select_option(label="Victory")
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Confirm and record").click()
    expect(page.get_by_text("Your side is recorded")).to_be_visible()
    polls = _polls(page)

    phone = _phone(browser)
    bruno = phone.new_page()
    log_in(bruno, base, "bruno")
    bruno.goto(battle_url)
    bruno.get_by_role("link", name="Record your side of the battle").click()
    bruno.get_by_label("Result for Red Talons").select_option(label="Defeat")
    bruno.get_by_role("button", name="Preview").click()
    bruno.get_by_role("button", name="Confirm and record").click()
    expect(bruno.get_by_text("Battle recorded: every side agrees")).to_be_visible()

    expect(page.locator("#battle-status")).to_have_text("Completed", timeout=SOON)
    expect(page.get_by_role("link", name=re.compile("Tell the story"))).to_be_visible()
    expect(page.locator("[data-live-poll]")).to_have_count(0)
    asked = len(polls)
    page.wait_for_timeout(1_500)
    assert len(polls) == asked  # no more polls
    assert 286 in polls
    phone.close()


def test_it_holds_its_polls_back_while_the_tab_is_hidden(live_server, page):
    base = live_server.url
    battle = _mustered_battle()
    log_in(page, base, "alice")
    page.goto(base + battle.get_absolute_url())
    polls = _polls(page)
    page.wait_for_timeout(1_200)
    assert polls, "the page asks while it is shown"

    page.evaluate(
        """() => {
            Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    page.wait_for_timeout(300)
    hidden_from = len(polls)
    page.wait_for_timeout(1_500)
    assert len(polls) == hidden_from, "a hidden tab asks nothing"

    page.evaluate(
        """() => {
            Object.defineProperty(document, "hidden", {configurable: true, get: () => false});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    page.wait_for_timeout(300)
    assert len(polls) > hidden_from, "shown again, it asks at once"


def test_it_holds_its_polls_back_while_a_form_on_the_page_is_being_filled_in(live_server, page):
    base = live_server.url
    battle = _mustered_battle(underdog=True)
    log_in(page, base, "alice")
    page.goto(base + battle.get_absolute_url())
    polls = _polls(page)
    page.wait_for_timeout(1_200)
    assert polls

    page.get_by_role("checkbox", name="Second Wind").check()
    page.wait_for_timeout(300)
    filling_in = len(polls)
    page.wait_for_timeout(1_500)
    assert len(polls) == filling_in, "nothing is replaced under the player's fingers"

    page.get_by_role("button", name="Take these Blessings").click()
    expect(page.locator("#blessings-panel")).to_contain_text("Iron Wolves picked")
    page.wait_for_timeout(1_500)
    assert len(polls) > filling_in, "sent, the page asks again"
    expect(page.locator("#blessings-panel")).to_contain_text("Iron Wolves picked")


def test_it_shows_a_new_invitation_on_the_dashboard_without_a_reload(live_server, page, browser):
    base = live_server.url
    campaign, alice, bruno, wolves, talons, armies = _players()
    violations = policy_violations(page)
    log_in(page, base, "bruno")
    page.goto(base + reverse("dashboard"))
    expect(page.get_by_text("Nothing to settle")).to_be_visible()
    page.evaluate("window.stillTheSamePage = true")

    phone = _phone(browser)
    starter = phone.new_page()
    log_in(starter, base, "alice")
    starter.goto(base + reverse("battle_create"))
    starter.get_by_label("Battle size").select_option("Incursion")
    starter.get_by_role("checkbox", name=re.compile("Red Talons")).check()
    starter.get_by_role("button", name="Start the battle").click()
    expect(starter.get_by_text("Invited: no answer yet")).to_be_visible()

    expect(page.get_by_text("Red Talons is invited by alice")).to_be_visible(timeout=SOON)
    assert page.evaluate("window.stillTheSamePage") is True
    phone.close()
    assert violations == []
