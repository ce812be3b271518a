"""R11.3 in two browsers: the underdog's player picks Crusade Blessings on the battle
page; the other side sees no form, and a forged POST from it is refused."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from campaign import services
from tests.blessings import blessing, blessing_pack, give_honours
from tests.browser.helpers import log_in
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user
from tests.views.helpers import muster

pytestmark = pytest.mark.django_db(transaction=True)


def _battle():
    """Alice's Iron Wolves against Bruno's Red Talons, both mustered; Rhal holds 2
    honours, so the Wolves are the underdog by 2 Crusade points: one Blessing."""
    organiser = make_user("organiser-u", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Tyrannic War")
    blessing_pack(organiser, campaign)
    alice, bruno = make_user("alice"), make_user("bruno")
    wolves = make_force(player=alice, campaign=campaign, name="Iron Wolves")
    talons = make_force(player=bruno, campaign=campaign, name="Red Talons")
    ours = [make_character(wolves, name="Captain Vorn"), make_unit(wolves, name="Squad Helix")]
    theirs = [make_character(talons, name="Captain Rhal"), make_unit(talons, name="Squad Kade")]
    give_honours(theirs[0], 2)
    battle = services.start_battle(
        actor=alice, force=wolves, opponents=[talons], battle_size="Incursion", campaign=campaign
    )
    services.accept_invitation(actor=bruno, participant=battle.participants.get(force=talons))
    mine, other = (battle.participants.get(force=f) for f in (wolves, talons))
    muster(mine, ours)
    muster(other, theirs)
    return battle, mine, other, campaign


def _csrf(page: Page) -> str:
    """The CSRF token the page gives htmx (on <body hx-headers>), for a hand-made POST."""
    return json.loads(page.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]


@pytest.mark.parametrize(
    ("width", "javascript"),
    [(1280, True), (375, True), (375, False)],
    ids=["1280", "375", "375-no-js"],
)
def test_it_lets_the_underdog_pick_blessings_and_not_the_other_side_r11_3(
    live_server, browser, width, javascript
):
    battle, mine, other, campaign = _battle()
    base = live_server.url
    battle_url = base + reverse("battle_detail", args=[battle.pk])

    alice = browser.new_context(
        viewport={"width": width, "height": 900}, java_script_enabled=javascript
    ).new_page()
    alice.set_default_timeout(10_000)
    log_in(alice, base, "alice")
    alice.goto(battle_url)
    panel = alice.locator("#blessings-panel")
    expect(panel).to_contain_text("Iron Wolves: 0 Crusade points")
    expect(panel).to_contain_text("Red Talons: 2 Crusade points")
    expect(panel).to_contain_text("Iron Wolves is the underdog and may pick 1 Crusade Blessing")
    alice.get_by_role("checkbox", name="Second Wind").check()
    alice.get_by_role("checkbox", name="Local Guides").check()
    alice.get_by_role("button", name="Take these Blessings").click()
    expect(panel).to_contain_text("Pick no more than 1 Blessing")
    alice.get_by_role("checkbox", name="Local Guides").uncheck()
    alice.get_by_role("button", name="Take these Blessings").click()
    expect(panel).to_contain_text("Iron Wolves picked, as the underdog by 2 Crusade points")
    expect(panel.get_by_role("button", name="Pick these Blessings instead")).to_be_visible()
    if javascript:  # htmx swapped the panel in: the page itself was not sent again
        expect(alice.locator(".message--success")).to_have_count(0)
    else:
        expect(alice.locator(".message--success")).to_contain_text("has its Blessings")
    fits = alice.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, f"the battle page scrolls sideways at {width} px"

    bruno = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    bruno.set_default_timeout(10_000)
    log_in(bruno, base, "bruno")
    bruno.goto(battle_url)
    expect(bruno.locator("#blessings-panel")).to_contain_text("Second Wind")
    expect(bruno.get_by_role("button", name="Take these Blessings")).to_have_count(0)
    expect(bruno.get_by_role("checkbox", name="Local Guides")).to_have_count(0)
    forged = {"blessings": str(blessing("Local Guides", campaign).pk)}
    headers = {"X-CSRFToken": _csrf(bruno), "Referer": battle_url}
    own_side = bruno.request.post(
        base + reverse("army_blessings", args=[other.pk]), form=forged, headers=headers
    )
    assert own_side.status == 400 and "not the underdog" in own_side.text()
    theirs = bruno.request.post(
        base + reverse("army_blessings", args=[mine.pk]), form=forged, headers=headers
    )
    assert theirs.status == 403
    bruno.reload()
    expect(bruno.locator("#blessings-panel")).not_to_contain_text("Local Guides")
