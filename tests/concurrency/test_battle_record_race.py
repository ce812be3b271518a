"""Acceptance: both players of a battle press "Confirm and record" for their own sides at the
same moment, over HTTP against gunicorn on this leg's database. Both sides are kept and the
battle's end is applied once; neither player ever sees an error page (R9).
"""

from __future__ import annotations

from functools import partial

from tests.concurrency.live import Server, all_at_once, logged_in, scenario
from tests.concurrency.moves import (
    RECORDED,
    SIDE_RECORDED,
    confirm_record,
    my_army,
    preview_record,
)


def test_it_completes_a_battle_once_when_both_players_confirm_together(
    app_env: dict, server: Server
):
    """R9: the end of a battle is applied once: +1 battle tally and +1RP for each force."""
    table = scenario(app_env, "battle_to_record")
    battle, sides = table["battle"], table["sides"]
    players = logged_in(server, [side["username"] for side in sides])
    armies = [my_army(player, battle) for player in players]
    confirmations = [
        preview_record(player, army, result)
        for player, army, result in zip(players, armies, ("win", "loss"), strict=True)
    ]

    outcomes = all_at_once(
        [
            partial(confirm_record, player, army, confirmation)
            for player, army, confirmation in zip(players, armies, confirmations, strict=True)
        ]
    )

    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert not errors, errors
    told = sorted(
        "completed" if RECORDED in page else "kept" if SIDE_RECORDED in page else page
        for page in outcomes
    )
    assert told == ["completed", "kept"]
    report = scenario(app_env, "report", forces=[side["force"] for side in sides])
    assert report["battles"]["completed"] == 1
    numbers = [(f["battle_tally"], f["victories"], f["rp"]) for f in report["forces"]]
    assert numbers == [(1, 1, 6), (1, 0, 6)]
