"""Acceptance: both players of a battle press "Confirm and record" at the same moment, over
HTTP against gunicorn on this leg's database. The battle is recorded once; the other player
is told it already was, never shown an error page (R9).
"""

from __future__ import annotations

from functools import partial

from tests.concurrency.live import Server, all_at_once, logged_in, scenario
from tests.concurrency.moves import (
    ALREADY_RECORDED,
    RECORDED,
    confirm_record,
    my_army,
    preview_record,
)


def test_it_records_a_battle_once_when_both_players_confirm_together(app_env: dict, server: Server):
    """R9: the end of a battle is recorded once: +1 battle tally and +1RP for each force."""
    table = scenario(app_env, "battle_to_record")
    battle, sides = table["battle"], table["sides"]
    players = logged_in(server, [side["username"] for side in sides])
    armies = [my_army(player, battle) for player in players]
    results = {armies[0]: "win", armies[1]: "loss"}
    confirmations = [preview_record(player, battle, results) for player in players]

    outcomes = all_at_once(
        [
            partial(confirm_record, player, battle, confirmation)
            for player, confirmation in zip(players, confirmations, strict=True)
        ]
    )

    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert not errors, errors
    told = sorted(
        "refused" if ALREADY_RECORDED in page else "recorded" if RECORDED in page else page
        for page in outcomes
    )
    assert told == ["recorded", "refused"]
    report = scenario(app_env, "report", forces=[side["force"] for side in sides])
    assert report["battles"]["completed"] == 1
    numbers = [(f["battle_tally"], f["victories"], f["rp"]) for f in report["forces"]]
    assert numbers == [(1, 1, 6), (1, 0, 6)]
