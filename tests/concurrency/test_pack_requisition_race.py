"""Acceptance: 20 browsers race to buy a pack Requisition paid in RP, then 20 more race to
buy one paid in a pack counter, over HTTP against gunicorn on this leg's database (SQLite
or PostgreSQL). The force is locked like a core purchase: neither the RP nor the counter
is ever overspent, and the refused get the numbers, never an error page (R6, R11.4)."""

from __future__ import annotations

from collections import Counter
from functools import partial

from tests.concurrency.live import (
    Server,
    all_at_once,
    describe,
    failures,
    logged_in,
    page_text,
    scenario,
)

BROWSERS = 20


def test_it_never_overspends_rp_or_salvage_when_20_browsers_race(app_env: dict, server: Server):
    """5RP buy exactly 5 Scavenging Parties (10 Salvage); 10 Salvage buy exactly 3 Field
    Workshops at 3 each (1 Salvage left)."""
    side = scenario(app_env, "pack_race")
    browsers = logged_in(server, [side["username"]] * BROWSERS)
    force, (unit,) = side["force"], side["units"]
    party = f"/forces/{force}/pack-requisitions/{side['requisitions']['scavenging-party']}/"
    workshop = f"/units/{unit}/pack-requisitions/{side['requisitions']['field-workshop']}/"

    first = all_at_once([partial(browser.post, party, {}) for browser in browsers])
    second = all_at_once([partial(browser.post, workshop, {}) for browser in browsers])

    for outcomes, sold in ((first, 5), (second, 3)):
        assert not failures(outcomes), describe(outcomes)
        assert Counter(o.status for o in outcomes) == {302: sold, 400: BROWSERS - sold}, describe(
            outcomes
        )
    assert all("That needs 1RP; you have 0RP." in page_text(o) for o in first if o.status == 400)
    assert all(
        "It costs 3 Salvage; the force has 1" in page_text(o) for o in second if o.status == 400
    )
    report = scenario(app_env, "pack_report", force=force)
    assert report == {
        "rp": 0,
        "salvage": 1,
        "bought": {"scavenging-party": 5, "field-workshop": 3},
    }
