"""Agendas in play on the pages (R11.1): picked on the muster form (at most the packs'
number, the refusal by the field), marked on the record form, XP within the caps (R3.6)
and credit for one unit of an Attached unit (R9), shown on the battle page, the card, and
the Order of Battle in a constant number of queries."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import AgendaPick, Unit
from tests.factories import make_force, make_unit, reload
from tests.services.agendas import agenda, pack_bytes

from .helpers import ARMY, count_queries, set_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    table = set_table(muster=False)
    services.import_pack(actor=table.organiser, data=pack_bytes(), campaign=table.campaign)
    return table


def muster_data(table, *agendas, **extra) -> dict:
    return {
        **ARMY,
        "units": [table.captain.pk, table.squad.pk],
        "warlord": table.captain.pk,
        "agendas": [agenda(name).pk for name in agendas],
        **extra,
    }


def muster_both(client, table, *agendas, **extra):
    client.force_login(table.owner)
    response = client.post(
        reverse("army_muster", args=[table.mine.pk]), muster_data(table, *agendas, **extra)
    )
    assert response.status_code == 302
    enemy = [table.enemy_captain, table.enemy_squad]
    services.muster_army(
        actor=table.opponent,
        participant=table.theirs,
        units=enemy,
        warlord=enemy[0],
        **ARMY,
    )


def test_it_offers_the_campaigns_agendas_on_the_muster_page(client, table):
    client.force_login(table.owner)
    html = client.get(reverse("army_muster", args=[table.mine.pk])).content.decode()

    assert "Pick up to 2 Agendas for this battle." in html
    assert "Trophy Takers (1XP each time, keeps a tally)" in html
    assert "Hold it." in html  # the Agenda's effect, to read before picking


def test_it_shows_a_change_to_the_campaigns_agendas_on_the_next_look_at_the_muster_page(
    client, table
):
    """The Agendas on offer are kept under the campaign's revision: a retired one goes, and
    a pack turned off takes its Agendas with it, at the very next look."""
    client.force_login(table.owner)
    url = reverse("army_muster", args=[table.mine.pk])
    assert "Trophy Takers" in client.get(url).content.decode()

    services.retire_custom_content(actor=table.organiser, content=agenda("Trophy Takers"))
    html = client.get(url).content.decode()
    assert "Trophy Takers" not in html
    assert "Hold the Beacon" in html

    pack = agenda("Hold the Beacon").pack
    services.disable_pack(actor=table.organiser, campaign=table.campaign, pack=pack)
    assert 'name="agendas"' not in client.get(url).content.decode()


def test_it_shows_no_agendas_where_the_campaigns_packs_hold_none(client):
    table = set_table(muster=False)
    client.force_login(table.owner)
    html = client.get(reverse("army_muster", args=[table.mine.pk])).content.decode()

    assert 'name="agendas"' not in html


def test_it_refuses_too_many_agendas_next_to_the_field_and_saves_nothing(client, table):
    """R11.1: how many is pack data (2 in the test pack)."""
    client.force_login(table.owner)
    response = client.post(
        reverse("army_muster", args=[table.mine.pk]),
        muster_data(table, "Hold the Beacon", "Trophy Takers", "Scout the Ruins"),
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "Pick at most 2 Agendas for a battle (3 picked)." in html
    assert html.index("Pick at most 2") > html.index("<legend>Agendas</legend>")
    assert not reload(table.mine).mustered
    assert not AgendaPick.objects.exists()


def test_it_shows_the_picked_agendas_on_the_battle_page(client, table):
    muster_both(client, table, "Trophy Takers")

    html = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()
    assert "Agendas:" in html and "Trophy Takers" in html


def post_record(client, table, marks: dict, confirm=True):
    entries = {e.unit_id: e.pk for e in reload(table.mine).army.all()}
    data = {"result": "win", "confirm" if confirm else "preview": "1"}
    for (unit, name), value in marks.items():
        data[f"agenda_{agenda(name).pk}_{entries[unit.pk]}"] = value
    return client.post(reverse("army_record", args=[table.mine.pk]), data)


def test_it_marks_agendas_when_recording_and_previews_their_xp(client, table):
    muster_both(client, table, "Trophy Takers", "Hold the Beacon")

    html = client.get(reverse("army_record", args=[table.mine.pk])).content.decode()
    assert f"Times {table.captain.name} achieved Trophy Takers" in html
    assert f"{table.squad.name} achieved Hold the Beacon" in html
    response = post_record(
        client,
        table,
        {(table.captain, "Trophy Takers"): "2", (table.squad, "Hold the Beacon"): "on"},
        confirm=False,
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "Trophy Takers ×2: +2XP" in html and "Hold the Beacon: +2XP" in html


def test_it_shows_what_a_side_recorded_of_its_agendas_when_it_amends(client, table):
    muster_both(client, table, "Trophy Takers", "Hold the Beacon")
    before = client.get(reverse("army_record", args=[table.mine.pk])).content.decode()
    post_record(
        client,
        table,
        {(table.captain, "Trophy Takers"): "2", (table.squad, "Hold the Beacon"): "on"},
    )

    html = client.get(reverse("army_record", args=[table.mine.pk])).content.decode()
    entries = {e.unit_id: e.pk for e in reload(table.mine).army.all()}
    tally = f'name="agenda_{agenda("Trophy Takers").pk}_{entries[table.captain.pk]}"'
    held = f'name="agenda_{agenda("Hold the Beacon").pk}_{entries[table.squad.pk]}"'
    assert tally in before and held in before and " checked" not in before
    assert f'{tally} value="2"' in html
    assert f'{held} id="id_{held[6:-1]}" checked>' in html


def test_it_applies_the_xp_and_shows_the_tally_on_the_card_and_the_order_of_battle(client, table):
    """R11.1: the card shows its Agenda tally by Agenda and in total."""
    muster_both(client, table, "Trophy Takers")
    post_record(client, table, {(table.captain, "Trophy Takers"): "3"})
    client.force_login(table.opponent)
    client.post(reverse("army_record", args=[table.theirs.pk]), {"result": "loss", "confirm": "1"})

    assert reload(table.captain).xp == 1 + 3
    client.force_login(table.owner)
    card = client.get(reverse("unit_detail", args=[table.captain.pk])).content.decode()
    assert "Agendas achieved" in card and "Trophy Takers: 3" in card
    oob = client.get(reverse("force_detail", args=[table.force.pk])).content.decode()
    assert "3 Agendas achieved" in oob
    assert "Agendas achieved by this force: <strong>3</strong>" in oob
    battle = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()
    assert "Trophy Takers ×3: +3XP" in battle


def test_it_refuses_an_attached_units_agenda_on_both_its_units_by_the_field(client, table):
    """R9: each Agenda of an Attached unit goes to its Leader or its Bodyguard, not both."""
    muster_both(client, table, "Hold the Beacon", **{f"attach_{table.captain.pk}": table.squad.pk})

    response = post_record(
        client,
        table,
        {(table.captain, "Hold the Beacon"): "on", (table.squad, "Hold the Beacon"): "on"},
    )

    assert response.status_code == 200
    assert "fought as one Attached unit" in response.content.decode()
    assert not reload(table.mine).has_recorded


def test_it_refuses_a_tally_past_the_agendas_limit_by_the_field(client, table):
    muster_both(client, table, "Scout the Ruins")

    response = post_record(
        client,
        table,
        {(table.captain, "Scout the Ruins"): "on", (table.squad, "Scout the Ruins"): "on"},
    )

    assert response.status_code == 200
    assert "at most 1 time in a battle (2 marked)" in response.content.decode()


def test_it_caps_agenda_xp_as_the_card_shows_it(client, table):
    """R3.6: a unit that is no CHARACTER stops at 30XP."""
    Unit.objects.filter(pk=table.squad.pk).update(xp=29, battles_played=9, battles_survived=9)
    muster_both(client, table, "Hold the Beacon")
    post_record(client, table, {(table.squad, "Hold the Beacon"): "on"})
    client.force_login(table.opponent)
    client.post(reverse("army_record", args=[table.theirs.pk]), {"result": "loss", "confirm": "1"})

    assert reload(table.squad).xp == 30


def test_it_reads_the_order_of_battle_in_the_same_queries_with_agendas_achieved(client):
    """Outside a battle, the page asks for the session with its user and the force only (its
    units table cached); building the table costs the same with any number of tallies."""
    force = make_force(name="Iron Crusade")
    make_unit(force, name="Recruits")
    client.force_login(force.player)
    url = reverse("force_detail", args=[force.pk])
    built = count_queries(client, url)
    before = count_queries(client, url)
    for i in range(5):
        unit = make_unit(force, name=f"Veteran {i}")
        Unit.objects.filter(pk=unit.pk).update(
            agenda_tallies={"Trophy Takers": i + 1}, battles_played=1, battles_survived=1
        )
    services.update_force_details(actor=force.player, force=force, goals="Hold the line")

    assert count_queries(client, url) == built
    html = client.get(url).content.decode()
    assert "Agendas achieved by this force: <strong>15</strong>" in html
    assert count_queries(client, url) == before == 2


def agenda_battle(size: int):
    """A battle whose first side musters a Captain and ``size`` squads with two Agendas."""
    table = set_table(muster=False)
    services.import_pack(actor=table.organiser, data=pack_bytes(), campaign=table.campaign)
    squads = [
        make_unit(table.force, name=f"Squad {i}", datasheet=f"Sheet {i}", points=5)
        for i in range(size)
    ]
    units = [table.captain, table.squad, *squads]
    services.muster_army(
        actor=table.owner,
        participant=table.mine,
        units=units,
        warlord=table.captain,
        agendas=[agenda(n, table.campaign) for n in ("Trophy Takers", "Hold the Beacon")],
        **ARMY,
    )
    return table


@pytest.mark.parametrize("name", ["army_record", "army_muster", "battle_detail"])
def test_it_reads_the_muster_record_and_battle_pages_in_the_same_queries_for_any_army(client, name):
    """Agenda boxes for every unit, their picks and achievements: constant in queries."""
    small, big = agenda_battle(1), agenda_battle(8)
    counts = []
    for table in (small, big):
        client.force_login(table.owner)
        target = table.battle if name == "battle_detail" else table.mine
        counts.append(count_queries(client, reverse(name, args=[target.pk])))

    assert counts[0] == counts[1]


def test_it_names_the_agendas_in_the_forces_history(client, table):
    muster_both(client, table, "Trophy Takers")
    post_record(client, table, {(table.captain, "Trophy Takers"): "2"})
    client.force_login(table.opponent)
    client.post(reverse("army_record", args=[table.theirs.pk]), {"result": "loss", "confirm": "1"})
    client.force_login(table.owner)

    html = client.get(reverse("force_history", args=[table.force.pk])).content.decode()

    assert "Agendas: Trophy Takers x2 +2XP" in html
    assert "Trophy Takers: 2" in html  # the card's Agenda tallies, before and after
