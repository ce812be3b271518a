"""`update_rows`: several rows of one table written in one UPDATE, each with its own
values, as Django's `bulk_update` writes them (on both databases)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import BattleParticipant, Unit
from campaign.services import bulk
from campaign.services.bulk import update_rows
from tests.factories import make_battle, make_force, make_unit

pytestmark = pytest.mark.django_db


def test_it_writes_each_row_its_own_numbers_text_and_json_in_one_query():
    force = make_force()
    first, second, untouched = (make_unit(force, name=f"Squad {n}") for n in range(3))
    first.xp, first.agenda_tallies, first.name = 7, {"cull-the-horde": 2}, "Renamed"
    second.xp, second.agenda_tallies, second.name = 31, {}, "Also renamed"
    untouched.xp = 99  # changed in memory, not passed

    with CaptureQueriesContext(connection) as queries:
        update_rows([first, second], ["xp", "agenda_tallies"])

    assert len(queries) == 1
    stored = {u.pk: u for u in Unit.objects.filter(force=force)}
    assert (stored[first.pk].xp, stored[first.pk].agenda_tallies) == (7, {"cull-the-horde": 2})
    assert (stored[second.pk].xp, stored[second.pk].agenda_tallies) == (31, {})
    assert stored[untouched.pk].xp == 0, "a row not passed keeps its values"
    assert stored[first.pk].name == "Squad 0", "a field not named keeps its value"


def test_it_writes_keys_choices_and_nothing_as_bulk_update_would():
    force, enemy = make_force(), make_force()
    battle = make_battle(force, enemy)
    won, lost = battle.participants.order_by("pk")
    won.result, won.rp_before, won.rp_after = "win", 3, 4
    lost.result, lost.rp_before, lost.rp_after = "", None, None

    update_rows([won, lost], ["result", "rp_before", "rp_after"])

    rows = dict(BattleParticipant.objects.values_list("pk", "result"))
    assert rows == {won.pk: "win", lost.pk: ""}
    kept = BattleParticipant.objects.get(pk=lost.pk)
    assert (kept.rp_before, kept.rp_after) == (None, None)
    assert BattleParticipant.objects.get(pk=won.pk).rp_after == 4


def test_it_splits_a_long_list_into_statements_the_database_accepts(monkeypatch):
    monkeypatch.setattr(bulk, "MOST_PARAMETERS", 25)  # five rows of two fields (5 each)
    force = make_force()
    units = [make_unit(force, name=f"Squad {n}") for n in range(12)]
    for n, unit in enumerate(units):
        unit.xp, unit.battles_played = n, 2 * n

    with CaptureQueriesContext(connection) as queries:
        update_rows(units, ["xp", "battles_played"])

    assert len(queries) == 3
    stored = Unit.objects.filter(force=force).order_by("pk").values_list("xp", "battles_played")
    assert list(stored) == [(n, 2 * n) for n in range(12)]


def test_it_asks_nothing_of_the_database_for_no_rows():
    with CaptureQueriesContext(connection) as queries:
        update_rows([], ["xp"])

    assert len(queries) == 0
