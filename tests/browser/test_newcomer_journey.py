"""A newcomer's first evening, at a desk (1280 px) and on a phone (375 px): sign up, join
the campaign with its code, raise a force in it, add units, start a battle against
another player's force, muster, record, and see the result. Every step is reached by a
link or button on the page before: no dead end, no typed address.

The opponent (Bruno) is another player at the table: he accepts, musters and records
his side through the services, as his own browser would, while the newcomer waits."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from campaign import services
from campaign.models import Battle, BattleParticipant
from tests.browser.helpers import fill_muster
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db(transaction=True)

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def field(label: str) -> re.Pattern:
    """A field's label exactly (required fields add an asterisk)."""
    return re.compile(rf"^{re.escape(label)}\W*$")


def _campaign_with_an_opponent():
    """The campaign the organiser runs, with Bruno's Red Talons ready to fight."""
    campaign = make_campaign(name="The Pariah Nexus")
    talons = make_force(player=make_user("bruno"), campaign=campaign, name="Red Talons")
    make_character(talons, name="Captain Rhal")
    make_unit(talons, name="Squad Kade")
    return campaign, talons


def _bruno_accepts_and_musters(talons) -> BattleParticipant:
    side = BattleParticipant.objects.get(force=talons)
    services.accept_invitation(actor=talons.player, participant=side)
    units = list(talons.units.order_by("-is_character"))
    services.muster_army(
        actor=talons.player,
        participant=side,
        units=units,
        warlord=units[0],
        faction="Adeptus Astartes",
        detachment="Gladius",
    )
    return side


def _bruno_records_a_defeat(side: BattleParticipant) -> None:
    outcomes = {entry.pk: services.UnitOutcome() for entry in side.army.all()}
    services.record_side(
        actor=side.force.player, participant=side, result="loss", outcomes=outcomes
    )


def _fits(page: Page) -> None:
    assert page.evaluate(NO_SIDEWAYS_SCROLL), page.url


def _add_unit(page: Page, name: str, datasheet: str, points: int, *keywords: str) -> None:
    page.get_by_role("link", name="Add a unit").first.click()
    page.get_by_label(field("Name")).fill(name)
    page.get_by_label(field("Datasheet")).fill(datasheet)
    page.get_by_label(field("Points")).fill(str(points))
    for keyword in keywords:
        page.get_by_label(keyword, exact=True).check()
    page.get_by_role("button", name="Add unit", exact=True).click()
    expect(page.locator(".oob-table").get_by_role("link", name=name)).to_be_visible()


@pytest.mark.parametrize("width", [1280, 375])
def test_it_takes_a_newcomer_from_sign_up_to_a_recorded_battle(page: Page, live_server, width):
    campaign, talons = _campaign_with_an_opponent()
    page.set_viewport_size({"width": width, "height": 900})

    # Sign up from the home page: the app says to join the campaign first.
    page.goto(live_server.url)
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label(field("Username")).fill("octavia")
    page.get_by_label(field("Password")).fill("Vigil-at-the-Gate-42")
    page.get_by_label(field("Password confirmation")).fill("Vigil-at-the-Gate-42")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".message--success")).to_contain_text("First join your campaign")
    _fits(page)

    # Join with the code the organiser shared: straight on to a force for that campaign.
    page.get_by_role("link", name="Join a campaign").last.click()
    page.get_by_label(field("Invitation code")).fill(campaign.invite_code)
    page.get_by_role("button", name="Join campaign").click()
    expect(page.locator(".message--success")).to_contain_text("You joined The Pariah Nexus")
    expect(page.get_by_label(field("Campaign"))).to_have_value(str(campaign.pk))
    _fits(page)
    page.get_by_label(field("Name")).fill("The Ashen Host")
    page.get_by_label(field("Faction")).fill("Adeptus Astartes")
    page.get_by_role("button", name="Create force").click()
    expect(page.get_by_role("heading", name="The Ashen Host", level=1)).to_be_visible()
    expect(page.locator("#force-summary")).to_contain_text("The Pariah Nexus")

    _add_unit(page, "Captain Octavia", "Captain", 80, "CHARACTER", "INFANTRY")
    _add_unit(page, "Squad Lorn", "Intercessor Squad", 80, "INFANTRY")
    _fits(page)

    # Start a battle from the campaign page: Bruno's force is there to invite.
    page.locator("#force-summary").get_by_role("link", name="The Pariah Nexus").click()
    page.get_by_role("link", name="Start a battle").first.click()
    page.get_by_label("Battle size").select_option("Incursion")
    page.get_by_role("checkbox", name=re.compile("Red Talons")).check()
    _fits(page)
    page.get_by_role("button", name="Start the battle").click()
    expect(page.get_by_text("Invited: no answer yet")).to_be_visible()

    # Bruno accepts and musters at his end; the newcomer musters.
    theirs = _bruno_accepts_and_musters(talons)
    page.get_by_role("link", name="Muster your army").click()
    fill_muster(
        page,
        units=["Captain Octavia", "Squad Lorn"],
        warlord="Captain Octavia",
        detachment="Gladius Task Force",
    )
    expect(page.locator("#muster-summary")).to_contain_text("ready to fight")
    _fits(page)
    page.get_by_role("button", name="Muster this army").click()
    expect(page.locator(".message--success")).to_contain_text("is mustered")

    # Bruno records his Defeat; the newcomer records a Victory with a kill.
    _bruno_records_a_defeat(theirs)
    page.get_by_role("link", name="Record your side of the battle").click()
    page.get_by_label("Result for The Ashen Host").select_option(label="Victory")
    page.get_by_label("Kills by Squad Lorn").fill("1")
    _fits(page)
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Confirm and record").click()

    # The result: both sides agree, the battle is complete, and it shows who won.
    expect(page.get_by_text("Battle recorded: every side agrees")).to_be_visible()
    expect(page.locator("#battle-status")).to_have_text("Completed")
    ashen = page.locator("section.side", has_text="The Ashen Host")
    expect(ashen.locator(".badge--win")).to_have_text("Victory")
    expect(ashen.locator(".army__unit", has_text="Squad Lorn")).to_contain_text(
        "1 enemy unit destroyed"
    )
    expect(
        page.locator("section.side", has_text="Red Talons").locator(".badge--loss")
    ).to_be_visible()
    _fits(page)
    assert Battle.objects.get().status == Battle.Status.COMPLETED
