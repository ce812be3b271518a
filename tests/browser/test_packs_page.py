"""The campaign's content packs page on a phone (375 px) and a wide screen: each pack and
section opens by its summary, without sideways scrolling (R11)."""

import json

import pytest
from playwright.sync_api import Page, expect

from campaign import services
from tests.browser.helpers import log_in
from tests.factories import make_campaign, make_user
from tests.packs.helpers import sample

pytestmark = pytest.mark.django_db(transaction=True)

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def long_pack() -> bytes:
    data = sample()
    data["pack"]["name"] = "The Nachmund Gauntlet: Strategic Assets of the Sanctus Reach"
    data["agendas"][0]["name"] = "Hold-the-Beacon-Against-Every-Counterattack-Of-The-Foe"
    return json.dumps(data).encode()


@pytest.mark.parametrize("width", [375, 1280])
def test_it_opens_a_pack_and_its_agendas_on_a_phone_and_a_wide_screen(
    page: Page, live_server, width
):
    organiser = make_user("castellan", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Sanctus Reach")
    services.import_pack(actor=organiser, data=long_pack(), campaign=campaign)
    log_in(page, live_server.url, "castellan")
    page.set_viewport_size({"width": width, "height": 812})

    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Content packs").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("packs bring")
    agenda = page.get_by_text("2 XP each time it is achieved").first
    expect(agenda).to_be_hidden()
    page.locator("summary", has_text="Nachmund Gauntlet").click()
    page.locator("summary", has_text="Agendas (3)").click()

    expect(agenda).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
