"""Acceptance: a gaming group's evening, squeezed into SOAK_SECONDS. Eight writers at once
over HTTP against gunicorn on this leg's database (on SQLite, a file):

- four *tables*, each a pair of players fighting battle after battle: one starts it and
  invites the other, who accepts (R8), both muster (R8), each previews and confirms their
  own side of the end (R9), then each buys Increase Supply Limit with the RP just earned
  (R6.1);
- four *quartermasters*, each logged in as both players of one table, buying Increase
  Supply Limit for their forces as fast as they can (R6.1), mostly refused because the
  force is at war (R6) or out of RP (R1.5).

No writer ever gets an error page; every refusal is a rule's. Afterwards every number
adds up: each force's battle tally is the battles it completed (R9), its RP is what it
started with, plus what its battles gave (R1.5), minus what it spent (R6.1), never above
the cap, and its Supply Limit grew by 200 per purchase (R6.1).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from tests.concurrency.live import Player, Server, logged_in, scenario
from tests.concurrency.moves import buy_supply, play_battle

SOAK_SECONDS = 12
TABLES = 4  # and as many quartermasters: 8 writers
# A sane floor, far below what a busy 2-core machine does (8 to 15 battles a table).
MIN_BATTLES_PER_TABLE = 3


@dataclass
class Tally:
    battles: int = 0
    bought: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)


def fight(tally: Tally, deadline: float, players: list[Player], sides: list[dict]) -> None:
    """One table: battles until the deadline; a battle under way is always finished."""
    while time.monotonic() < deadline:
        # Who records first changes from battle to battle.
        play_battle(players, sides, first_wins=bool(tally.battles % 2))
        tally.battles += 1
        # Between battles, each player spends the RP just earned (R6.1).
        for player, side in zip(players, sides, strict=True):
            if buy_supply(player, side["force"]):
                tally.bought += 1
            else:
                tally.refused += 1


def requisition(tally: Tally, deadline: float, players: list[Player], sides: list[dict]) -> None:
    """One quartermaster: Increase Supply Limit for either force, over and over."""
    while time.monotonic() < deadline:
        for player, side in zip(players, sides, strict=True):
            if buy_supply(player, side["force"]):
                tally.bought += 1
            else:
                tally.refused += 1


def writer(work, tally: Tally, deadline: float, players, sides) -> threading.Thread:
    def run() -> None:
        try:
            work(tally, deadline, players, sides)
        except BaseException as error:  # the test reports it
            tally.errors.append(f"{type(error).__name__}: {error}")

    return threading.Thread(target=run, name=work.__name__)


def test_it_keeps_every_number_true_with_eight_writers_for_twelve_seconds(
    app_env: dict, server: Server
):
    """R1.5, R6, R6.1, R8, R9 under load: no errors, every battle and purchase accounted."""
    pairs = scenario(app_env, "soak", pairs=TABLES)["pairs"]
    players = {
        (kind, n): logged_in(server, [side["username"] for side in pair])
        for n, pair in enumerate(pairs)
        for kind in ("table", "quartermaster")
    }
    tallies = {key: Tally() for key in players}
    started = time.monotonic()
    deadline = started + SOAK_SECONDS
    threads = [
        writer(fight if kind == "table" else requisition, tallies[kind, n], deadline, who, pairs[n])
        for (kind, n), who in players.items()
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SOAK_SECONDS + 120)
    elapsed = time.monotonic() - started

    assert not any(thread.is_alive() for thread in threads), "a writer never finished"
    tables = [tallies["table", n] for n in range(TABLES)]
    battles = sum(t.battles for t in tables)
    bought = sum(t.bought for t in tallies.values())
    print(
        f"{battles} battles recorded, {bought} Supply Limit increases bought, "
        f"{sum(t.refused for t in tallies.values())} refused, "
        f"{sum(p.requests for who in players.values() for p in who)} requests in {elapsed:.1f}s; "
        f"{sum(bool(t.errors) for t in tallies.values())} writers stopped by an error"
    )
    errors = [e for tally in tallies.values() for e in tally.errors]
    assert not errors, f"{len(errors)} writers failed; the first: {errors[0][:400]}"
    assert min(t.battles for t in tables) >= MIN_BATTLES_PER_TABLE, [t.battles for t in tables]

    forces = {side["force"]: side for pair in pairs for side in pair}
    report = scenario(app_env, "report", forces=list(forces))
    assert report["battles"] == {
        "in_progress": 0,
        "disputed": 0,
        "completed": battles,
        "voided": 0,
        "cancelled": 0,
    }
    assert sum(f["purchases"] for f in report["forces"]) == bought
    for f in report["forces"]:
        start = forces[f["force"]]
        assert f["battle_tally"] == f["battles_completed"], f
        assert f["victories"] == f["wins"], f
        assert f["rp"] == start["rp"] + f["rp_from_battles"] - f["rp_spent"], f
        assert 0 <= f["rp"] <= f["rp_cap"], f
        assert f["supply_limit"] == (
            start["supply_limit"] + f["supply_increases"] * f["supply_limit_increase"]
        ), f
