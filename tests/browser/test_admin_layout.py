"""The organiser's admin at a laptop's width: every column of a list shows."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import log_in
from tests.factories import make_campaign, make_force, make_user

pytestmark = pytest.mark.django_db(transaction=True)

COLUMNS = """
    () => {
        const filter = document.querySelector('#changelist-filter').getBoundingClientRect();
        return [...document.querySelectorAll('#result_list thead th')].map(th => {
            const box = th.getBoundingClientRect();
            const x = Math.min(box.right - 2, window.innerWidth - 1);
            const y = box.top + box.height / 2;
            const seen = document.elementFromPoint(x, y);
            return {
                text: th.innerText.trim(),
                right: box.right,
                filterLeft: filter.left,
                width: window.innerWidth,
                onTop: th.contains(seen),
            };
        });
    }
"""


def test_it_shows_every_column_of_the_forces_list_beside_the_filter_at_1280(
    page: Page, live_server
):
    organiser = make_user("marshal", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="The Long Night of the Pariah Nexus")
    make_force(
        player=make_user("aurelian"),
        campaign=campaign,
        name="The Crimson Oath of Saint Aurelian the Unbroken",
        faction="Adeptus Astartes",
    )
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(page, live_server.url, "marshal")

    page.goto(f"{live_server.url}/admin/campaign/crusadeforce/")
    expect(page.locator("#changelist-filter")).to_be_visible()
    columns = page.evaluate(COLUMNS)

    last = columns[-1]
    assert last["text"]
    assert all(c["right"] <= min(c["filterLeft"], c["width"]) for c in columns), columns
    assert all(c["onTop"] for c in columns), columns
