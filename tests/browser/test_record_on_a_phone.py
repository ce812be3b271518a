"""At the gaming table: a phone records a side of eight units in a few screens."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from campaign import services
from tests import factories
from tests.browser.helpers import log_in
from tests.browser.test_mobile_layout import artefacts

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 375, "height": 812}
NAMES = {
    "Intercessor Squad Tiberius": "Intercessor Squad",
    "Hellblasters of the Ninth": "Hellblaster Squad",
    "Redemptor Dreadnought Castor": "Redemptor Dreadnought",
    "Assault Intercessors Drusus": "Assault Intercessor Squad",
    "Eradicator Squad Varro": "Eradicator Squad",
    "Infernus Squad Maximus": "Infernus Squad",
    "Inceptor Squad Aquila": "Inceptor Squad",
}


def _eight_unit_side():
    """Octavia's eight units, mustered against a rival who accepted; her side to record."""
    campaign = factories.make_campaign(name="The Pariah Nexus")
    mine = factories.make_force(
        player=factories.make_user("octavia"), campaign=campaign, name="The Ashen Host"
    )
    rival = factories.make_force(
        player=factories.make_user("rival"), campaign=campaign, name="Red Talons"
    )
    units = [factories.make_character(mine, name="Captain Aurelian Valerius")]
    units += [factories.make_unit(mine, name=n, datasheet=d, points=100) for n, d in NAMES.items()]
    enemy = factories.make_character(rival, name="Captain Rhal")
    battle = factories.make_battle(mine, rival, campaign=campaign, battle_size="Onslaught")
    side, theirs = battle.participants.get(force=mine), battle.participants.get(force=rival)
    army = {"faction": "Adeptus Astartes", "detachment": "Gladius"}
    services.muster_army(actor=mine.player, participant=side, units=units, warlord=units[0], **army)
    services.muster_army(
        actor=rival.player, participant=theirs, units=[enemy], warlord=enemy, **army
    )
    return side


def test_it_fits_the_record_form_for_eight_units_in_a_few_phone_screens(page: Page, live_server):
    side = _eight_unit_side()
    log_in(page, live_server.url, "octavia")
    page.set_viewport_size(PHONE)

    page.goto(live_server.url + reverse("army_record", args=[side.pk]))

    height = page.locator("form.record").bounding_box()["height"]
    print(f"record form height at 375px for 8 units: {height:.0f}px")
    page.screenshot(path=str(artefacts() / "record-form-375.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert height < 2000


def test_it_asks_why_only_once_a_unit_has_bonus_xp(page: Page, live_server):
    side = _eight_unit_side()
    log_in(page, live_server.url, "octavia")
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("army_record", args=[side.pk]))
    squad = "Hellblasters of the Ninth"
    why = page.get_by_label(f"Reason for the bonus XP of {squad}")
    expect(why).to_be_hidden()

    page.get_by_label("Result for The Ashen Host").select_option(label="Victory")
    page.get_by_label(f"Kills by {squad}").fill("2")
    page.get_by_label(f"{squad} was destroyed").check()
    page.get_by_label(f"Bonus XP for {squad}").fill("2")
    expect(why).to_be_visible()
    why.fill("Agenda: Cull the Horde")
    page.get_by_label("Marked for Greatness").select_option(label="Captain Aurelian Valerius")
    page.get_by_role("button", name="Preview").click()

    expect(page.get_by_text("Nothing has been saved yet")).to_be_visible()
    gains = page.locator(".army__unit", has_text=squad)
    expect(gains).to_contain_text("XP 0 → 3")  # 1 for the battle, 2 bonus
    expect(gains).to_contain_text("Out of Action test")
    captain = page.locator(".army__unit", has_text="Captain Aurelian Valerius")
    expect(captain).to_contain_text("Marked for Greatness")
