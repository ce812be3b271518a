"""Acceptance (issue 12): one rendered form sent several times at the same moment, as a
double-click, a retry and htmx queueing do, applies once. Over HTTP against gunicorn
(2 workers x 8 threads) on this leg's database: a SQLite file, or PostgreSQL. The other
sends are told it was already done, and nobody gets an error page (R6, R6.1).
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from tests.concurrency.live import (
    PageReader,
    Server,
    all_at_once,
    describe,
    failures,
    fill,
    logged_in,
    scenario,
)

SENDS = 6


def test_it_buys_fresh_recruits_once_for_one_form_sent_six_times_at_once(
    app_env: dict, server: Server
):
    """R6: +2 models and 1RP, once; the issue's probe saw 1 -> 5 models and 2RP."""
    side = scenario(app_env, "recruits")
    (browser,) = logged_in(server, [side["username"]])
    path = f"/units/{side['unit']}/requisitions/fresh_recruits/"
    form = PageReader(browser.get(path).text).post_form(path, having="models_added")
    fields = fill(form, models_added=2, points=100)

    outcomes = all_at_once([partial(browser.post, path, fields) for _ in range(SENDS)])

    assert not failures(outcomes), describe(outcomes)
    assert Counter(o.status for o in outcomes) == {302: 1, 303: SENDS - 1}, describe(outcomes)
    assert {o.location for o in outcomes} == {f"/units/{side['unit']}/"}
    assert scenario(app_env, "card", unit=side["unit"]) == {
        "model_count": 3,
        "points": 100,
        "purchases": 1,
    }
    (force,) = scenario(app_env, "report", forces=[side["force"]])["forces"]
    assert force["rp"] == 4


def test_it_increases_the_supply_limit_once_for_an_htmx_button_sent_six_times(
    app_env: dict, server: Server
):
    """The Order of Battle's htmx button: one purchase (R6.1), and each repeat is sent to the
    page as it is now (HX-Redirect)."""
    side = scenario(app_env, "supply_race")
    (browser,) = logged_in(server, [side["username"]])
    page = f"/forces/{side['force']}/"
    buy = f"{page}requisitions/increase_supply_limit/"
    fields = PageReader(browser.get(page).text).post_form(buy)

    outcomes = all_at_once([partial(browser.post, buy, fields, htmx=True) for _ in range(SENDS)])

    assert not failures(outcomes), describe(outcomes)
    bought = [o for o in outcomes if "hx-redirect" not in o.headers]
    repeats = [o for o in outcomes if o.headers.get("hx-redirect") == page]
    assert len(bought) == 1 and len(repeats) == SENDS - 1, describe(outcomes)
    assert bought[0].status == 200 and "Bought Increase Supply Limit" in bought[0].text
    (force,) = scenario(app_env, "report", forces=[side["force"]])["forces"]
    assert (force["rp"], force["supply_limit"], force["purchases"]) == (4, 1200, 1)
