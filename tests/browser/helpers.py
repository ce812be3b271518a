"""What many browser journeys do the same way: sign in, watch for refusals under the
Content-Security-Policy, and give a card the honours that make it long."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.urls import reverse
from playwright.sync_api import Page, expect

from campaign.models import BattleHonour

PASSWORD = "test-pass-123"  # tests.factories.make_user


def log_in(page: Page, base: str, username: str) -> None:
    """Sign in through the login page, as a player would, and wait until the site greets
    them: the next step must not race the redirect."""
    page.goto(base + reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out {username}")).to_be_visible()


def muster_checked(page: Page, act: Callable[[], object]) -> None:
    """Change the muster form and wait until its live check is swapped in. The check's
    summary sits above the units and grows or shrinks with what it says: a click sent
    while an answer is on its way can land where a checkbox was a moment before."""
    with page.expect_response(lambda response: response.url.endswith("/muster/check/")):
        act()
    expect(page.locator("form.muster")).not_to_have_class(re.compile(r"\bhtmx-request\b"))


def fill_muster(page: Page, *, units: list[str], warlord: str, detachment: str) -> None:
    """The muster form filled in as a player does, a change at a time."""
    page.get_by_label("Detachment").fill(detachment)
    muster_checked(page, page.get_by_label("Detachment").blur)
    for unit in units:
        muster_checked(page, page.get_by_role("checkbox", name=unit).check)
    muster_checked(page, lambda: page.get_by_label("Warlord").select_option(label=warlord))


def policy_violations(page: Page) -> list[str]:
    """Collect what the browser reports refusing under the policy, as the test goes."""
    seen: list[str] = []
    page.on(
        "console",
        lambda message: (
            seen.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return seen


def add_relic(unit, name: str, relic_category: str, effect: str) -> None:
    """A Crusade Relic, written directly (as if a past promotion had given it)."""
    unit.honours.create(
        category=BattleHonour.Category.CRUSADE_RELIC,
        name=name,
        relic_category=relic_category,
        effect=effect,
    )


def add_weapon_modifications(unit, model_name: str, weapon: str, modifications: list[str]) -> None:
    """Weapon Modifications on one model's weapon, written directly like `add_relic`."""
    unit.honours.create(
        category=BattleHonour.Category.WEAPON_MODIFICATION,
        name="Weapon Modifications",
        model_name=model_name,
        weapon=weapon,
        modifications=modifications,
    )
