"""Journey 3: the Order of Battle and a Crusade card fit a 375px phone screen."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from campaign import services
from campaign.models import BattleHonour
from tests.browser.helpers import add_relic, add_weapon_modifications, log_in
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def artefacts() -> Path:
    path = Path(os.environ.get("CRUSADE_ARTEFACTS", ROOT / "test-artefacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def build_force(player):
    """A realistic force: honours, scars, relics, a promotion, long names, a removed unit."""
    campaign = make_campaign(name="The Pariah Nexus")
    force = make_force(
        player=player,
        campaign=campaign,
        name="The Crimson Oath of Saint Aurelian the Unbroken",
        faction="Adeptus Astartes",
        goals="Reclaim the shrine world of Vesper Secundus before the Nexus spreads.",
        background="A successor chapter sworn to a saint whose bones were never found.",
        vendettas="Warboss Grukk da Unstoppable, who burned the chapel fleet.",
    )
    captain = make_character(
        force,
        name="Captain Aurelian Valerius-Castellanus",
        wargear="Master-crafted power sword, heavy bolt pistol",
        enhancement="Artificer Armour",
        enhancement_points=10,
        points=90,
    )
    captain.honours.create(
        category=BattleHonour.Category.BATTLE_TRAIT,
        name="Deadly Combatant",
        trait_table="Character",
        effect="Melee weapons gain [SUSTAINED HITS 1].",
    )
    add_relic(captain, "Master-crafted Armour", "artificer", "+1 to its armour saving throws.")
    add_weapon_modifications(
        captain, "Captain", "Master-crafted power sword", ["Brutal", "Precise"]
    )
    captain.scars.create(name="Battle-weary", effect="-1 to Battle-shock and Out of Action tests.")
    captain.promotions.create(rank=1)
    squad = make_unit(
        force,
        name="Intercessor Squad Tiberius of the Ninth Company",
        points=180,
        model_count=10,
        is_battleline=True,
    )
    squad.honours.create(category="battle_trait", name="Obdurate Obedience", effect="+1 OC.")
    squad.honours.create(category="battle_trait", name="Resolute Veterans")
    squad.scars.create(name="Crippling Damage")
    squad.scars.create(name="Mark of Shame")
    make_unit(force, name="Redemptor Dreadnought", datasheet="Redemptor Dreadnought", points=210)
    make_unit(force, name="Hellblasters", datasheet="Hellblaster Squad", points=230)
    make_unit(
        force,
        name="Scout Squad Varro",
        datasheet="Scout Squad",
        points=70,
        faction_keywords="Adeptus Astartes",
    )
    gone = make_unit(force, name="Assault Intercessors Drusus", points=75)
    services.remove_unit(actor=player, unit=gone, reason="Destroyed at the Shrine Gate")
    return force, captain


def test_it_fits_the_order_of_battle_and_a_card_on_a_phone(page: Page, live_server):
    player = make_user("aurelian")
    force, captain = build_force(player)
    log_in(page, live_server.url, "aurelian")
    page.set_viewport_size({"width": 375, "height": 812})

    page.goto(f"{live_server.url}/forces/{force.pk}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Crimson Oath")
    expect(page.get_by_text("Obdurate Obedience")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.screenshot(path=str(artefacts() / "order-of-battle-375.png"), full_page=True)

    page.get_by_role("link", name=captain.name).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(captain.name)
    expect(page.get_by_text("Strength goes up by 1.")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.screenshot(path=str(artefacts() / "crusade-card-375.png"), full_page=True)


LABEL_LINES = """
    [...document.querySelectorAll('td[data-label]')].map(td => {
        const label = getComputedStyle(td, '::before');
        return [td.dataset.label, parseFloat(label.height) / parseFloat(label.lineHeight)];
    })
"""


def test_it_keeps_each_standings_label_on_one_line_on_a_phone(page: Page, live_server):
    """Issue 13 item 5: the "Force" label of a long force name no longer wraps to "For / ce"."""
    player = make_user("aurelian")
    force, _ = build_force(player)
    make_force(player=make_user("grukk"), campaign=force.campaign, name="Da Burnin' Waaagh")
    log_in(page, live_server.url, "aurelian")
    page.set_viewport_size({"width": 375, "height": 812})

    page.goto(f"{live_server.url}/campaigns/{force.campaign.pk}/")

    expect(page.get_by_role("link", name=force.name, exact=True)).to_be_visible()
    wrapped = [(label, lines) for label, lines in page.evaluate(LABEL_LINES) if lines > 1.5]
    assert wrapped == []
    assert page.evaluate(NO_SIDEWAYS_SCROLL)


PANELS = """
    [...document.querySelectorAll('.crusade-card section.panel')].map(panel => {
        const box = panel.getBoundingClientRect();
        return [panel.querySelector('h2').firstChild.textContent.trim(), box.left, box.top,
                box.bottom, box.width];
    })
"""


def _side_by_side(a, b) -> bool:
    return a[1] != b[1] and a[2] < b[3] and b[2] < a[3]


@pytest.mark.parametrize("width", [1280, 375])
def test_it_lays_the_crusade_card_out_in_columns_on_a_wide_screen_only(
    page: Page, live_server, width
):
    """Issue 13 item 10: two columns at 1280 px (the card is no longer one long strip), one
    on a phone."""
    player = make_user("aurelian")
    force, captain = build_force(player)
    for i in range(8):
        services.update_unit_details(actor=player, unit=captain, notes=f"Note {i}")
    log_in(page, live_server.url, "aurelian")
    page.set_viewport_size({"width": width, "height": 900})

    page.goto(f"{live_server.url}/units/{captain.pk}/")

    expect(page.get_by_role("heading", level=1)).to_have_text(captain.name)
    panels = {name: (name, *box) for name, *box in page.evaluate(PANELS)}
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"Crusade card at {width}px: {height}px tall")
    page.screenshot(path=str(artefacts() / f"crusade-card-{width}.png"), full_page=True)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    if width >= 1280:
        assert _side_by_side(panels["Card"], panels["Requisitions"])
        assert _side_by_side(panels["Battle Scars"], panels["Manage"])
        timeline = panels["Timeline"]
        assert timeline[4] > 1.5 * panels["Card"][4], "the timeline spans both columns"
        assert timeline[2] >= max(panel[3] for panel in panels.values() if panel != timeline)
    else:
        assert len({panel[1] for panel in panels.values()}) == 1


RP_ROW = """
    () => {
        const stat = document.querySelector('.rp').closest('.stat').getBoundingClientRect();
        const marks = [...document.querySelectorAll('.stat .pip, .stat .bar--rp')]
            .map(mark => mark.getBoundingClientRect());
        return {
            tops: [...new Set(marks.map(mark => Math.round(mark.top)))],
            inside: marks.every(mark => mark.left >= stat.left && mark.right <= stat.right),
            count: marks.length,
        };
    }
"""


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize(("cap", "marks"), [(12, 12), (13, 1), (100, 1)])
def test_it_keeps_the_rp_dots_on_one_row_up_to_the_highest_cap(
    page: Page, live_server, width, cap, marks
):
    """R1.5: the RP cap is the organiser's (up to 100): its dots (a bar past 12) stay on
    one row inside their box."""
    player = make_user("rowan")
    force = make_force(player=player, campaign=make_campaign(rp_cap=cap), name="Ashen Host")
    log_in(page, live_server.url, "rowan")
    page.set_viewport_size({"width": width, "height": 900})

    page.goto(f"{live_server.url}/forces/{force.pk}/")
    row = page.evaluate(RP_ROW)

    assert (row["count"], len(row["tops"]), row["inside"]) == (marks, 1, True)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
