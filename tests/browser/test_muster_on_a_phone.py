"""Issue 18 item 6: mustering a force with two CHARACTERs on a 375 px phone."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests import factories
from tests.browser.helpers import log_in
from tests.browser.test_mobile_layout import artefacts

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 375, "height": 812}
SQUADS = {
    "Intercessor Squad Tiberius of the Ninth Company": "Intercessor Squad",
    "Bladeguard Veterans Cassian": "Bladeguard Veteran Squad",
    "Hellblasters of the Ninth": "Hellblaster Squad",
}
NAMES = """
    [...document.querySelectorAll('.unit-pick__name')].map(name => {
        // Each word of the name as the page lays it out: a word broken across two lines
        // has two boxes.
        const text = name.firstChild, broken = [];
        for (const match of text.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(text, match.index);
            range.setEnd(text, match.index + match[0].length);
            const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            if (lines.size > 1) broken.push(match[0]);
        }
        return [text.textContent.trim(), name.getBoundingClientRect().width, broken];
    })
"""


def _two_character_muster():
    """A force with two CHARACTERs, squads and a vehicle, in a battle it is to muster."""
    campaign = factories.make_campaign(name="The Pariah Nexus")
    force = factories.make_force(
        player=factories.make_user("octavia"), campaign=campaign, name="The Ashen Host"
    )
    factories.make_character(force, name="Brother Tharos", datasheet="Chaplain")
    factories.make_character(force, name="Lieutenant Aurelian Valerius", datasheet="Lieutenant")
    for name, datasheet in SQUADS.items():
        factories.make_unit(force, name=name, datasheet=datasheet, points=100, is_infantry=True)
    factories.make_unit(
        force, name="Redemptor Dreadnought Castor", datasheet="Redemptor", is_vehicle=True
    )
    battle = factories.make_battle(force, battle_size="Strike Force", campaign=campaign)
    return battle.participants.get(force=force)


def test_it_fits_the_muster_of_two_characters_on_a_phone_with_names_wrapped_by_words(
    page: Page, live_server
):
    side = _two_character_muster()
    log_in(page, live_server.url, "octavia")
    page.set_viewport_size(PHONE)

    page.goto(live_server.url + reverse("army_muster", args=[side.pk]))

    expect(page.locator(".unit-pick__name", has_text="Brother Tharos")).to_be_visible()
    page.screenshot(path=str(artefacts() / "muster-two-characters-375.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    names = page.evaluate(NAMES)
    assert len(names) == 6
    for name, width, broken in names:
        # Each name has the row's width, and wraps only between words.
        assert (name, broken) == (name, [])
        assert width > 250, (name, width)
    # The second Leader's rule is asked only of a unit a Leader can join.
    expect(page.get_by_text("Two Leaders for Bladeguard Veterans Cassian?")).to_be_visible()
    expect(page.get_by_text("Two Leaders for Redemptor Dreadnought Castor?")).to_have_count(0)

    page.get_by_text("Two Leaders for Hellblasters of the Ninth?").click()
    expect(
        page.get_by_label("Rule that lets Hellblasters of the Ninth take a second Leader")
    ).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
