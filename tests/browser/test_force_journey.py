"""Journey 1: a new player signs up, raises a force, hits the Supply Limit, buys more supply."""

import re

import pytest
from playwright.sync_api import Page, expect

from campaign.models import CrusadeForce

pytestmark = pytest.mark.django_db(transaction=True)


def field(label: str) -> re.Pattern:
    """A field's label exactly (required fields add an asterisk)."""
    return re.compile(rf"^{re.escape(label)}\W*$")


def add_unit(page: Page, name: str, points: int) -> None:
    page.get_by_label(field("Name")).fill(name)
    page.get_by_label(field("Datasheet")).fill("Intercessor Squad")
    page.get_by_label(field("Points")).fill(str(points))
    page.get_by_role("button", name="Add unit", exact=True).click()


def test_it_takes_a_new_player_from_sign_up_to_a_bigger_order_of_battle(page: Page, live_server):
    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_label(field("Username")).fill("kharn")
    page.get_by_label(field("Password")).fill("Blood-for-the-Throne-42")
    page.get_by_label(field("Password confirmation")).fill("Blood-for-the-Throne-42")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("button", name=re.compile("Log out"))).to_be_visible()

    page.goto(f"{live_server.url}/forces/new/")
    page.get_by_label(field("Name")).fill("The Crimson Oath")
    page.get_by_label(field("Faction")).fill("Adeptus Astartes")
    page.get_by_role("button", name="Create force").click()
    expect(page.get_by_role("heading", name="The Crimson Oath", level=1)).to_be_visible()
    force_url = page.url

    page.get_by_role("link", name="Add a unit").click()
    expect(page.get_by_label(field("Faction keywords"))).to_have_value("Adeptus Astartes")
    add_unit(page, "Squad Aurelius", 600)
    page.get_by_role("link", name="Add a unit").click()
    add_unit(page, "Squad Brutus", 400)

    # The Supply Limit is full: the live check and the form both refuse the next unit.
    page.get_by_role("link", name="Add a unit").click()
    page.get_by_label(field("Name")).fill("Redemptor Dreadnought")
    page.get_by_label(field("Datasheet")).fill("Redemptor Dreadnought")
    page.get_by_label(field("Points")).fill("150")
    expect(page.locator("#supply-status")).to_contain_text("Too many: 150 over")
    page.get_by_role("button", name="Add unit", exact=True).click()
    error = page.locator("#id_points_error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("your 1000-point Supply Limit is used up")

    # Buy Increase Supply Limit in another tab (htmx updates the numbers in place).
    other = page.context.new_page()
    other.goto(force_url)
    other.get_by_role("button", name="Buy Increase Supply Limit").click()
    expect(other.locator("#force-summary")).to_contain_text("1200")
    expect(other.locator("#force-summary .rp")).to_have_text("4")
    expect(
        other.get_by_role("status").filter(has_text="Bought Increase Supply Limit")
    ).to_be_visible()
    other.close()

    # The refused unit now fits: submit the same form again.
    expect(page.get_by_label(field("Points"))).to_have_value("150")
    page.get_by_role("button", name="Add unit", exact=True).click()
    table = page.locator(".oob-table")
    expect(table.get_by_role("link", name="Redemptor Dreadnought")).to_be_visible()
    expect(page.locator("#force-summary .supply-used")).to_have_text("1150")

    force = CrusadeForce.objects.get(name="The Crimson Oath")
    assert (force.supply_limit, force.rp, force.supply_used) == (1200, 4, 1150)
