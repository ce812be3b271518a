"""Recording a battle's end costs the same number of queries whatever the armies' size: one
side's record, and the last one, which completes the battle."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import services
from campaign.models import HistoryEntry, OutOfActionTest, Promotion
from campaign.services import UnitOutcome
from tests.factories import make_character, make_unit
from tests.services.cards import krieg_force, plague_force
from tests.services.earned import set_rp
from tests.services.fights import go_to_battle

pytestmark = pytest.mark.django_db

MOST_QUERIES = 60
"""The budget for recording the side that completes a battle of two armies, however large."""


def army(force, size: int) -> list:
    """A CHARACTER and ``size - 1`` squads of different datasheets, within the Supply Limit."""
    services.correct_force(
        actor=force.player, force=force, reason="A big army", supply_limit=100 * size
    )
    units = [make_character(force, name="Warlord", faction_keywords=force.faction)]
    units += [
        make_unit(
            force,
            name=f"Squad {i}",
            datasheet=f"Squad type {i}",
            points=60,
            faction_keywords=force.faction,
        )
        for i in range(1, size)
    ]
    return units


def queries_to_record(size: int) -> tuple[int, int]:
    """The queries to record the first side, and the second (which completes the battle)."""
    krieg, plague = krieg_force(), plague_force()
    set_rp(krieg, 10)
    first, second = army(krieg, size), army(plague, size)
    outcomes = {u: UnitOutcome(destroyed=True, enemy_units_destroyed=3) for u in first[1::2]}
    outcomes[first[0]] = UnitOutcome(
        marked_for_greatness=True, bonus_xp=3, bonus_xp_reason="Agenda"
    )
    battle = go_to_battle(first, second, size="Onslaught", outcomes=outcomes)
    with CaptureQueriesContext(connection) as one_side:
        battle.record_side(krieg)
    with CaptureQueriesContext(connection) as completing:
        battle.record_side(plague)
    assert OutOfActionTest.objects.filter(battle_unit__participant__battle=battle.battle).count()
    assert Promotion.objects.filter(battle=battle.battle).exists()
    assert HistoryEntry.objects.filter(battle=battle.battle, unit__isnull=False).count() == 2 * size
    return len(one_side), len(completing)


def test_it_records_a_battle_of_two_armies_of_30_in_as_many_queries_as_two_of_5():
    """R9: one transaction, and a fixed number of queries for it."""
    small, large = queries_to_record(5), queries_to_record(30)

    assert small == large
    assert large[1] <= MOST_QUERIES
