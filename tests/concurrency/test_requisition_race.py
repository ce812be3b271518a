"""Acceptance: 20 browsers race to buy Increase Supply Limit for a force with 5RP, over HTTP,
against gunicorn (2 workers x 8 threads) on this leg's database; on SQLite that is a file,
as `make run` gives a gaming group. Exactly 5 buys go through; the other 15 are refused
with the rule's message, and nobody gets an error page (R6.1, R1.5).
"""

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
OUT_OF_RP = "That needs 1RP; you have 0RP."


def test_it_sells_exactly_5_supply_increases_to_20_browsers_racing_for_5rp(
    app_env: dict, server: Server
):
    """R6.1: 1RP each; R1.5: RP never goes below 0. Each browser has its own session."""
    side = scenario(app_env, "supply_race")
    assert (side["rp"], side["supply_limit"]) == (5, 1000)
    browsers = logged_in(server, [side["username"]] * BROWSERS)
    buy = f"/forces/{side['force']}/requisitions/increase_supply_limit/"

    outcomes = all_at_once([partial(browser.post, buy, {}, htmx=True) for browser in browsers])

    assert not failures(outcomes), describe(outcomes)
    assert Counter(o.status for o in outcomes) == {200: 5, 400: 15}, describe(outcomes)
    sold = [o for o in outcomes if o.status == 200]
    refused = [o for o in outcomes if o.status == 400]
    assert all("Bought Increase Supply Limit for 1RP" in page_text(o) for o in sold)
    assert all(OUT_OF_RP in page_text(o) for o in refused)
    (force,) = scenario(app_env, "report", forces=[side["force"]])["forces"]
    assert (force["rp"], force["supply_limit"]) == (0, 1000 + 5 * 200)
    assert (force["purchases"], force["supply_increases"], force["rp_spent"]) == (5, 5, 5)
