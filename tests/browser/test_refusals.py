"""A refusal always shows: an htmx form whose request the app refuses (a stale tab, a
battle started elsewhere) shows why, next to the form, and breaks no security policy."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from campaign import rules, services
from tests.browser.helpers import log_in, policy_violations
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db(transaction=True)

IN_BATTLE = "can't be bought while a battle is being fought"


def _battle_started_elsewhere(force) -> None:
    """Meanwhile, in another tab, the player starts a battle: requisitions wait for its end."""
    services.start_battle(
        actor=force.player, force=force, battle_size="Incursion", campaign=force.campaign
    )


def test_it_shows_a_refused_supply_increase_in_the_requisitions(page: Page, live_server):
    force = make_force(player=make_user("vell"), campaign=make_campaign(), name="The Ashen Host")
    make_unit(force, name="Squad Dorn")
    seen = policy_violations(page)
    log_in(page, live_server.url, "vell")
    page.goto(live_server.url + reverse("force_detail", args=[force.pk]))
    _battle_started_elsewhere(force)

    page.get_by_role("button", name=f"Buy {rules.Requisition.INCREASE_SUPPLY_LIMIT.label}").click()

    refusal = page.locator("#force-requisitions").get_by_role("alert")
    expect(refusal).to_contain_text(IN_BATTLE)
    expect(page.locator("#force-summary .supply-limit")).to_have_text("1000")
    assert seen == []


def test_it_shows_a_refused_unit_requisition_on_its_form(page: Page, live_server):
    force = make_force(player=make_user("vell"), campaign=make_campaign(), name="The Ashen Host")
    squad = make_unit(force, name="Squad Dorn", model_count=5, max_model_count=10)
    make_character(force, name="Captain Vorn")
    seen = policy_violations(page)
    log_in(page, live_server.url, "vell")
    page.goto(live_server.url + reverse("unit_requisition", args=[squad.pk, "fresh_recruits"]))
    _battle_started_elsewhere(force)

    page.get_by_label("New points").fill("120")
    page.get_by_role("button", name="Buy Fresh Recruits").click()

    expect(page.locator("form.panel").get_by_role("alert")).to_contain_text(IN_BATTLE)
    assert seen == []
