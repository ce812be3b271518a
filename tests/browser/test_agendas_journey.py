"""Agendas in play (R11.1), at 1280 and 375 px: a player picks Agendas at muster, marks
them when recording their side, and sees the XP and the Agenda tally on the card."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from campaign import services
from campaign.models import BattleUnit
from tests.browser.helpers import fill_muster, log_in, muster_checked
from tests.browser.test_mobile_layout import artefacts
from tests.factories import (
    make_battle,
    make_campaign,
    make_character,
    make_force,
    make_unit,
    make_user,
)
from tests.services.agendas import pack_bytes

pytestmark = pytest.mark.django_db(transaction=True)


def _battle():
    organiser = make_user("organiser-ag", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Pariah Nexus")
    services.import_pack(actor=organiser, data=pack_bytes(), campaign=campaign)
    wolves = make_force(player=make_user("alice"), campaign=campaign, name="Iron Wolves")
    talons = make_force(player=make_user("bruno"), campaign=campaign, name="Red Talons")
    captain = make_character(wolves, name="Captain Vorn")
    make_unit(wolves, name="Squad Helix")
    rhal, kade = make_character(talons, name="Captain Rhal"), make_unit(talons, name="Squad Kade")
    battle = make_battle(wolves, talons, campaign=campaign)
    theirs = battle.participants.get(force=talons)
    services.muster_army(
        actor=talons.player,
        participant=theirs,
        units=[rhal, kade],
        warlord=rhal,
        faction="Adeptus Astartes",
        detachment="Gladius",
    )
    return battle, captain, theirs


@pytest.mark.parametrize("width", [1280, 375])
def test_it_picks_agendas_at_muster_marks_them_and_shows_xp_and_tally_on_the_card(
    page: Page, live_server, width
):
    battle, captain, theirs = _battle()
    base = live_server.url
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, base, "alice")

    # Muster: two Agendas at most; a third is refused next to the field.
    page.goto(base + reverse("battle_detail", args=[battle.pk]))
    page.get_by_role("link", name="Muster your army").click()
    fill_muster(
        page,
        units=["Captain Vorn", "Squad Helix"],
        warlord="Captain Vorn",
        detachment="Gladius Task Force",
    )
    for name in ("Hold the Beacon", "Trophy Takers", "Scout the Ruins"):
        muster_checked(page, page.get_by_role("checkbox", name=name).check)
    page.get_by_role("button", name="Muster this army").click()
    expect(page.locator(".muster__agendas .field__error")).to_have_text(
        "Pick at most 2 Agendas for a battle (3 picked)."
    )
    page.screenshot(path=str(artefacts() / f"agendas-muster-{width}.png"), full_page=True)
    muster_checked(page, page.get_by_role("checkbox", name="Scout the Ruins").uncheck)
    page.get_by_role("button", name="Muster this army").click()
    expect(page.locator(".message--success")).to_contain_text("is mustered")
    expect(page.locator(".side__agendas")).to_contain_text("Trophy Takers")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # Record: the Captain took three trophies, the squad held the beacon.
    page.get_by_role("link", name="Record your side of the battle").click()
    page.get_by_label("Result for Iron Wolves").select_option(label="Victory")
    page.get_by_label("Times Captain Vorn achieved Trophy Takers").fill("3")
    page.get_by_label("Squad Helix achieved Hold the Beacon").check()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artefacts() / f"agendas-record-{width}.png"), full_page=True)
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("Trophy Takers ×3: +3XP")).to_be_visible()
    expect(page.get_by_text("Hold the Beacon: +2XP")).to_be_visible()
    page.get_by_role("button", name="Confirm and record").click()
    expect(page.get_by_text("Your side is recorded")).to_be_visible()

    # The other player records a Defeat: the battle completes.
    services.record_side(actor=theirs.force.player, participant=theirs, result="loss", outcomes={})
    assert BattleUnit.objects.get(unit=captain).xp_after == 1 + 3
    assert BattleUnit.objects.get(unit__name="Squad Helix").xp_after == 1 + 2

    page.goto(base + reverse("unit_detail", args=[captain.pk]))
    expect(page.locator(".stat__value").first).to_contain_text("4")
    agendas = page.locator(".stat--agendas")
    expect(agendas).to_contain_text("Agendas achieved")
    expect(agendas.locator(".stat__value")).to_have_text("3")
    expect(agendas).to_contain_text("Trophy Takers: 3")
    page.screenshot(path=str(artefacts() / f"agendas-card-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
