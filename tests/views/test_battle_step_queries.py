"""The steps where players wait at the table cost the same queries whatever the army's size:
mustering an army, recording a side, and the last side's record that completes the battle
(XP, ranks, Out of Action tests, Agendas). Counted through the real forms."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import services
from campaign.models import Battle, BattleUnit, HistoryAction, HistoryEntry, OutOfActionTest
from tests.factories import make_character, make_unit, reload
from tests.services.agendas import agenda, pack_bytes

from .helpers import set_table

pytestmark = pytest.mark.django_db

MUSTER_BUDGET = 25
SIDE_BUDGET = 25
COMPLETING_BUDGET = 40


def _army(table, force, captain, squad, size: int) -> list:
    """``size`` units of ``force``: its captain and squad, a second CHARACTER, a transport
    and squads of other datasheets, within its Supply Limit."""
    services.correct_force(
        actor=force.player, force=force, reason="A big army", supply_limit=50 * size
    )
    units = [captain, squad, make_character(force, name=f"Chaplain of {force.name}")]
    units.append(
        make_unit(
            force,
            name=f"Rhino of {force.name}",
            datasheet="Rhino",
            points=5,
            is_vehicle=True,
            is_dedicated_transport=True,
        )
    )
    units += [
        make_unit(force, name=f"Squad {i}", datasheet=f"Sheet {i}", points=5)
        for i in range(size - len(units))
    ]
    return units


def _muster_data(table, units: list, agendas: list) -> dict:
    captain, squad, chaplain, rhino, *rest = units
    return {
        "faction": "Adeptus Astartes",
        "detachment": "Gladius",
        "units": [u.pk for u in units],
        "warlord": captain.pk,
        f"attach_{captain.pk}": squad.pk,
        f"attach_{chaplain.pk}": rest[0].pk,
        f"embark_{squad.pk}": rhino.pk,
        "agendas": [a.pk for a in agendas],
    }


def _battle(client, size: int) -> tuple:
    """A battle of two armies of ``size`` with Agendas; the counted muster of mine."""
    table = set_table(muster=False)
    services.import_pack(actor=table.organiser, data=pack_bytes(), campaign=table.campaign)
    agendas = [agenda(n, table.campaign) for n in ("Trophy Takers", "Hold the Beacon")]
    mine = _army(table, table.force, table.captain, table.squad, size)
    theirs = _army(table, table.other_force, table.enemy_captain, table.enemy_squad, size)
    client.force_login(table.opponent)
    response = client.post(
        reverse("army_muster", args=[table.theirs.pk]), _muster_data(table, theirs, agendas)
    )
    assert response.status_code == 302
    client.force_login(table.owner)
    url = reverse("army_muster", args=[table.mine.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as mustering:
        response = client.post(url, _muster_data(table, mine, agendas))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert BattleUnit.objects.filter(participant=table.mine).count() == size
    leader = BattleUnit.objects.get(participant=table.mine, unit=table.captain)
    assert leader.attached_to.unit == table.squad
    assert (
        BattleUnit.objects.get(participant=table.mine, unit=table.squad).embarked_in.unit == mine[3]
    )
    return table, agendas, len(mustering)


def _record_data(table, side, result: str, agendas: list) -> dict:
    army = list(BattleUnit.objects.filter(participant=side).select_related("unit").order_by("pk"))
    data = {"result": result, "confirm": "1", "marked": army[-1].pk}
    for i, entry in enumerate(army[4:]):
        if i % 2 == 0:
            data[f"destroyed_{entry.pk}"] = "on"
        else:
            data[f"kills_{entry.pk}"] = "1"
            data[f"bonus_{entry.pk}"] = "1"
            data[f"reason_{entry.pk}"] = "Heroic"
    hold = agendas[1]
    data[f"agenda_{hold.pk}_{army[-1].pk}"] = "on"
    return data


def _steps(client, size: int) -> tuple[int, int, int]:
    """The queries of a muster, a side's record and the completing record."""
    table, agendas, mustering = _battle(client, size)
    counts = [mustering]
    for player, side, result in (
        (table.owner, table.mine, "win"),
        (table.opponent, table.theirs, "loss"),
    ):
        client.force_login(player)
        url = reverse("army_record", args=[side.pk])
        client.get(url)
        data = _record_data(table, side, result, agendas)
        with CaptureQueriesContext(connection) as recording:
            response = client.post(url, data)
        assert response.status_code == 302, response.content.decode()[:3000]
        counts.append(len(recording))
    battle = reload(table.battle)
    assert battle.status == Battle.Status.COMPLETED
    assert OutOfActionTest.objects.filter(battle_unit__participant__battle=battle).exists()
    assert HistoryEntry.objects.filter(battle=battle, unit__isnull=False).count() == 2 * size
    return tuple(counts)


def test_it_musters_and_records_armies_of_30_in_the_queries_of_armies_of_5(client):
    small, big = _steps(client, 5), _steps(client, 30)

    assert small == big
    muster, side, completing = big
    assert muster <= MUSTER_BUDGET
    assert side <= SIDE_BUDGET
    assert completing <= COMPLETING_BUDGET


def _mustered_again(client, size: int) -> int:
    """The queries of mustering again an army of ``size`` already mustered."""
    table, agendas, _ = _battle(client, size)
    units = list(table.force.units.active().order_by("-is_character", "name", "pk"))
    captain, squad = table.captain, table.squad
    chaplain = next(u for u in units if u.name.startswith("Chaplain"))
    rhino = next(u for u in units if u.name.startswith("Rhino"))
    rest = [u for u in units if u not in (captain, squad, chaplain, rhino)]
    data = _muster_data(table, [captain, squad, chaplain, rhino, *rest], agendas[:1])
    url = reverse("army_muster", args=[table.mine.pk])
    with CaptureQueriesContext(connection) as mustering:
        response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert BattleUnit.objects.filter(participant=table.mine).count() == size
    leader = BattleUnit.objects.get(participant=table.mine, unit=captain)
    assert leader.attached_to.unit == squad
    musters = HistoryEntry.objects.filter(
        battle=table.battle, force=table.force, action=HistoryAction.ARMY_MUSTERED
    )
    assert musters.count() == 2  # the first muster's row is kept
    return len(mustering)


def test_it_musters_an_army_again_in_the_same_queries_whatever_its_size(client):
    small, big = _mustered_again(client, 5), _mustered_again(client, 30)

    assert small == big
    assert big <= MUSTER_BUDGET


def test_it_shows_a_change_to_the_order_of_battle_on_the_muster_form_at_once(client):
    table = set_table(muster=False)
    client.force_login(table.owner)
    url = reverse("army_muster", args=[table.mine.pk])
    assert "Late Arrivals" not in client.get(url).content.decode()  # the list is cached

    late = make_unit(table.force, name="Late Arrivals", points=40)
    page = client.get(url).content.decode()
    assert f'value="{late.pk}"' in page and "Late Arrivals" in page
    services.correct_unit(actor=table.owner, unit=late, reason="Bigger squad", points=55)
    assert "55 pts" in client.get(url).content.decode()
