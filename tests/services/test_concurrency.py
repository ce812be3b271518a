"""Acceptance: services that spend from a force hold its row lock, so racing players
never overspend RP or overfill the Supply Limit (R1.3, R1.5, R6).

PostgreSQL only: SQLite has no row locks. Each thread opens its own connection and
closes it when done; `transaction=True` lets the threads see the committed set-up.
"""

import threading
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections

from campaign import services
from campaign.models import Battle, BattleParticipant, HistoryEntry, RequisitionPurchase
from tests.factories import reload
from tests.services.cards import (
    commissar,
    krieg_force,
    krieg_squad,
    lord_of_contagion,
    plague_force,
)
from tests.services.fights import go_to_battle

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def all_at_once(calls: list[Callable[[], object]]) -> tuple[list[object], list[BaseException]]:
    """Run every call in its own thread, released together; return results and exceptions."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=30)
            outcome = call()
        except BaseException as error:  # collected and checked by the test
            with lock:
                errors.append(error)
        else:
            with lock:
                results.append(outcome)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread never finished"
    return results, errors


def test_it_sells_exactly_5_supply_increases_to_20_players_racing_for_5rp():
    """R6.1 / R1.5: 20 simultaneous purchases, 5RP: 5 succeed, 15 are refused."""
    assert connection.vendor == "postgresql"
    force = krieg_force()
    assert (force.rp, force.supply_limit) == (5, 1000)

    results, errors = all_at_once(
        [lambda: services.increase_supply_limit(actor=force.player, force=force)] * 20
    )

    assert len(results) == 5
    assert [type(e) for e in errors] == [ValidationError] * 15
    assert {m for e in errors for m in e.messages} == {"That needs 1RP; you have 0RP."}
    force = reload(force)
    assert (force.rp, force.supply_limit) == (0, 1000 + 5 * 200)
    assert RequisitionPurchase.objects.filter(force=force).count() == 5


def test_it_never_overfills_the_supply_limit_with_racing_units_and_recruits():
    """R1.3: add_unit and Fresh Recruits racing near the Supply Limit never pass it."""
    assert connection.vendor == "postgresql"
    force = krieg_force()
    commissar(force, points=580)
    squads = [krieg_squad(force, f"Line Company {n}", points=60) for n in range(1, 6)]
    assert reload(force).supply_used == 880  # 120 points free

    def add(n: int):
        return lambda: krieg_squad(force, f"Reinforcements {n}", points=50)

    def recruit(squad):
        return lambda: services.fresh_recruits(
            actor=force.player, unit=squad, models_added=5, points=110
        )

    calls = [add(n) for n in range(1, 6)] + [recruit(squad) for squad in squads]
    results, errors = all_at_once(calls)

    assert {type(e) for e in errors} <= {ValidationError}
    assert len(results) + len(errors) == 10
    assert len(results) == 2  # 50 points each, 120 free
    force = reload(force)
    assert force.supply_used == 880 + 50 * len(results) <= force.supply_limit == 1000
    recruited = RequisitionPurchase.objects.filter(force=force).count()
    assert force.rp == 5 - recruited


def test_it_starts_only_one_battle_for_a_force_clicked_ten_times_at_once():
    """R8 / R6: a force is in at most one battle at a time, even under a race."""
    assert connection.vendor == "postgresql"
    force = krieg_force()

    results, errors = all_at_once(
        [lambda: services.start_battle(actor=force.player, force=force, battle_size="Incursion")]
        * 10
    )

    assert len(results) == 1
    assert [type(e) for e in errors] == [ValidationError] * 9
    assert {m for e in errors for m in e.messages} == {
        "13th Siege Regiment is already in a battle that has not been recorded."
    }
    assert Battle.objects.count() == 1


def test_it_completes_a_battle_once_when_both_players_record_their_sides_together():
    """R9: each player records their own side at the same moment: both reports are kept,
    and the battle's end is applied once (+1 battle tally and +1RP for each force)."""
    assert connection.vendor == "postgresql"
    krieg, plague = krieg_force(), plague_force()
    battle = go_to_battle([commissar(krieg)], [lord_of_contagion(plague)])

    results, errors = all_at_once(
        [lambda: battle.record_side(krieg), lambda: battle.record_side(plague)]
    )

    assert errors == []
    assert len(results) == 2
    assert reload(battle.battle).status == Battle.Status.COMPLETED
    assert (reload(krieg).battle_tally, reload(krieg).rp) == (1, 6)
    assert (reload(plague).battle_tally, reload(plague).rp) == (1, 6)
    assert HistoryEntry.objects.filter(action="battle_recorded").count() == 2


def test_it_commits_a_force_to_one_battle_when_it_accepts_two_invitations_at_once():
    """R6: a force fights one battle at a time: of two invitations accepted together, one
    is refused."""
    assert connection.vendor == "postgresql"
    krieg = krieg_force()
    invitations = []
    for n in range(2):
        rival = plague_force(name=f"Plague Company {n}")
        started = services.start_battle(
            actor=rival.player, force=rival, opponents=[krieg], battle_size="Incursion"
        )
        invitations.append(started.participants.get(force=krieg))

    results, errors = all_at_once(
        [
            lambda side=side: services.accept_invitation(actor=krieg.player, participant=side)
            for side in invitations
        ]
    )

    assert len(results) == 1
    assert [type(e) for e in errors] == [ValidationError]
    assert "already in a battle" in errors[0].messages[0]
    assert BattleParticipant.objects.filter(force=krieg, invitation="accepted").count() == 1
