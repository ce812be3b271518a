"""Journey 5: the Order of Battle's Crusade cards print two to a page, on A4 and on
Letter, with no menus or buttons; a Crusade card page prints as that one card."""

from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import Page, expect

from campaign.models import BattleHonour
from tests.browser.helpers import add_relic, add_weapon_modifications, log_in, policy_violations
from tests.browser.test_mobile_layout import artefacts, build_force
from tests.factories import make_character, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db(transaction=True)

MARGIN_MM = 12  # static/css/print.css: @page { margin: 12mm }
PAPER_MM = {"A4": (210, 297), "Letter": (215.9, 279.4)}
PX_PER_MM = 96 / 25.4
HALF_PAGE_PX = (min(h for _, h in PAPER_MM.values()) - 2 * MARGIN_MM) / 2 * PX_PER_MM
"""Half of the shorter printable height (Letter's): the most a card may take."""


def printable_width(paper: str) -> int:
    """The width, in CSS pixels, the browser lays a page of this paper out at."""
    return math.floor((PAPER_MM[paper][0] - 2 * MARGIN_MM) * PX_PER_MM)


def pages_in(pdf: bytes) -> int:
    """The pages of a PDF: its /Type /Page objects (not the /Pages tree above them)."""
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))


def veteran(force):
    """The fullest card the rules allow: a CHARACTER with six Battle Honours (a relic and
    Weapon Modifications among them), three Battle Scars, an Enhancement and notes."""
    unit = make_character(
        force,
        name="Chaplain Grimaldus the Unyielding, Keeper of the Seven Relics",
        datasheet="Chaplain in Terminator Armour",
        models_description="1 Chaplain in Terminator Armour",
        wargear="Crozius arcanum, storm bolter, relic shield, rosarius, "
        "master-crafted power fist with an inbuilt combi-melta",
        enhancement="Tannhauser's Bones",
        enhancement_points=25,
        selectable_keywords="Terminator, Imperium, Priest",
        crusade_rules="Oath of Moment on the enemy Warlord; the Litany of Hate before "
        "every charge.",
        notes="Carried the standard at the Shrine Gate after the Reclusiarch fell. "
        "Sworn to recover the seven relics of Helsreach before the decade is out.",
        points=140,
    )
    traits = [
        ("Deadly Combatant", "Melee weapons gain [SUSTAINED HITS 1]."),
        (
            "Indomitable",
            "Each time an attack is allocated to this unit, subtract 1 from "
            "the Damage characteristic of that attack.",
        ),
        (
            "Heroic Bearing",
            "Add 1 to the Leadership characteristic of models in this unit "
            "and re-roll Battle-shock tests taken for it.",
        ),
        ("Unstoppable Zeal", "You can re-roll Charge rolls made for this unit."),
    ]
    for name, effect in traits:
        unit.honours.create(
            category=BattleHonour.Category.BATTLE_TRAIT,
            name=name,
            trait_table="Character",
            effect=effect,
        )
    add_relic(
        unit,
        "The Ashen Crozius",
        "antiquity",
        "Add 1 to the Attacks and Damage characteristics of the bearer's crozius.",
    )
    add_weapon_modifications(unit, "Grimaldus", "Storm bolter", ["Finely Balanced", "Heirloom"])
    for name, effect in [
        ("Battle-weary", "Subtract 1 from Battle-shock and Out of Action tests."),
        ("Fatigued", "Subtract 1 from the Objective Control characteristic; no charge bonus."),
        ("Mark of Shame", "This unit cannot be affected by friendly Aura abilities."),
    ]:
        unit.scars.create(name=name, effect=effect)
    return unit


def hidden_in_print(page: Page) -> None:
    """In print, no menus, messages, buttons or forms show (one fixed list of selectors)."""
    for selector in [".site-header", "nav", ".messages", "button", "form", ".button"]:
        for element in page.locator(selector).all():
            expect(element).to_be_hidden()


@pytest.mark.parametrize("units", [1, 4, 5])
def test_it_prints_the_cards_of_an_order_of_battle_two_to_a_page(page: Page, live_server, units):
    player = make_user("grimaldus")
    force = make_force(player=player, name="The Black Templars of Helsreach")
    veteran(force)
    for i in range(units - 1):
        make_unit(force, name=f"Crusader Squad {i + 1}", points=100)
    seen = policy_violations(page)
    log_in(page, live_server.url, "grimaldus")
    page.goto(f"{live_server.url}/forces/{force.pk}/print/")
    # print.js (a file of the site, as the Content-Security-Policy wants) shows the button.
    expect(page.get_by_role("button", name="Print the cards")).to_be_visible()
    assert seen == []

    page.emulate_media(media="print")
    hidden_in_print(page)
    expect(page.get_by_role("heading", name="Crusade cards to print")).to_be_hidden()
    cards = page.locator(".paper-card")
    expect(cards).to_have_count(units)
    expect(cards.first).to_contain_text("Keeper of the Seven Relics")
    expect(cards.first).to_contain_text("The Ashen Crozius")
    for paper in PAPER_MM:
        page.set_viewport_size({"width": printable_width(paper), "height": 1000})
        for card in cards.all():
            assert card.bounding_box()["height"] <= HALF_PAGE_PX, paper

        pdf = page.pdf(format=paper)

        assert pages_in(pdf) == math.ceil(units / 2), paper
        (artefacts() / f"crusade-cards-{units}-{paper}.pdf").write_bytes(pdf)


def test_it_prints_a_crusade_card_page_as_that_one_card_on_one_page(page: Page, live_server):
    player = make_user("grimaldus")
    force = make_force(player=player, name="The Black Templars of Helsreach")
    unit = veteran(force)
    log_in(page, live_server.url, "grimaldus")
    page.goto(f"{live_server.url}/units/{unit.pk}/")
    expect(page.get_by_role("heading", name="Timeline")).to_be_visible()

    page.emulate_media(media="print")
    hidden_in_print(page)
    for heading in ["Timeline", "Requisitions", "Manage"]:
        expect(page.get_by_role("heading", name=heading)).to_be_hidden()
    card = page.locator(".crusade-card")
    expect(card).to_contain_text("Finely Balanced")
    expect(card).to_contain_text("Mark of Shame")
    expect(card).to_contain_text("Sworn to recover the seven relics")
    for paper in PAPER_MM:
        page.set_viewport_size({"width": printable_width(paper), "height": 1000})
        assert card.bounding_box()["height"] <= 2 * HALF_PAGE_PX, paper

        pdf = page.pdf(format=paper)

        assert pages_in(pdf) == 1, paper
        (artefacts() / f"crusade-card-{paper}.pdf").write_bytes(pdf)


def test_it_prints_the_order_of_battle_page_without_its_controls(page: Page, live_server):
    player = make_user("aurelian")
    force, _ = build_force(player)
    log_in(page, live_server.url, "aurelian")
    page.goto(f"{live_server.url}/forces/{force.pk}/")
    page.get_by_role("link", name="Crusade cards to print").click()
    expect(page.locator(".paper-card")).to_have_count(5)
    page.go_back()

    page.emulate_media(media="print")
    hidden_in_print(page)
    expect(page.get_by_role("heading", name="Requisitions")).to_be_hidden()
    expect(page.get_by_role("link", name="Crusade cards to print")).to_be_hidden()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Crimson Oath")
    expect(page.locator(".oob-table")).to_contain_text("Scout Squad Varro")
    page.set_viewport_size({"width": printable_width("A4"), "height": 1000})
    (artefacts() / "order-of-battle-A4.pdf").write_bytes(page.pdf(format="A4"))


def test_it_leaves_the_print_button_out_without_javascript(browser, live_server):
    player = make_user("grimaldus")
    force = make_force(player=player, name="The Black Templars of Helsreach")
    make_unit(force, name="Crusader Squad")
    context = browser.new_context(java_script_enabled=False, viewport={"width": 375, "height": 800})
    page = context.new_page()
    log_in(page, live_server.url, "grimaldus")

    page.goto(f"{live_server.url}/forces/{force.pk}/print/")

    expect(page.get_by_text("Ctrl+P")).to_be_visible()
    expect(page.get_by_role("button", name="Print the cards")).to_be_hidden()
    expect(page.locator(".paper-card")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()
