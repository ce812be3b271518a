"""R11.2/R11.3 on the pages: the muster page's Crusade points, the battle page's underdog
panel, and the underdog's pick of Crusade Blessings (`army_blessings`)."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import BlessingPick, HistoryEntry
from tests.blessings import blessing, blessing_pack, give_honours
from tests.factories import make_unit

from .helpers import ARMY, count_queries, record, set_table, texts

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(underdog):
    """The owner's side is the underdog by 2 Crusade points: one Blessing by the pack's
    thresholds (the ``underdog`` fixture)."""
    return underdog


def pick_url(side) -> str:
    return reverse("army_blessings", args=[side.pk])


def picked(table, *names) -> dict:
    return {"blessings": [blessing(name, table.campaign).pk for name in names]}


def battle_html(client, table, user) -> str:
    client.force_login(user)
    return client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()


# The muster page


def test_it_totals_the_crusade_points_of_the_army_on_the_muster_page_r11_2(client, table):
    give_honours(table.captain, 3)
    give_honours(make_unit(table.force, name="Left at home"), 5)
    client.force_login(table.owner)

    html = client.get(reverse("army_muster", args=[table.mine.pk])).content.decode()

    assert "<strong>3</strong> Crusade points in this army" in html


def test_it_totals_the_ticked_units_in_the_live_check_r11_2(client, table):
    give_honours(table.captain, 1)
    give_honours(table.squad, 2)
    client.force_login(table.owner)
    data = {**ARMY, "units": [table.squad.pk], "warlord": ""}

    response = client.post(reverse("army_muster_check", args=[table.mine.pk]), data, **HX)

    assert "<strong>2</strong> Crusade points in this army" in response.content.decode()


def test_it_totals_the_ticked_units_when_a_refused_muster_comes_back_without_js_r11_2(
    client, table
):
    give_honours(table.squad, 2)
    client.force_login(table.owner)
    data = {**ARMY, "units": [table.squad.pk], "warlord": ""}

    response = client.post(reverse("army_muster", args=[table.mine.pk]), data)

    assert response.status_code == 200
    assert "<strong>2</strong> Crusade points in this army" in response.content.decode()


def test_it_shows_the_muster_page_in_the_same_queries_however_many_units_hold_honours(client):
    small = set_table()
    client.force_login(small.owner)
    few = count_queries(client, reverse("army_muster", args=[small.mine.pk]))
    big = set_table()
    for n in range(6):
        give_honours(make_unit(big.force, name=f"Squad {n}", datasheet=f"Sheet {n}"), 2)
    client.force_login(big.owner)

    assert count_queries(client, reverse("army_muster", args=[big.mine.pk])) == few


# The battle page


def test_it_says_the_battle_waits_for_the_other_side_before_every_army_has_mustered_r11_3(
    client,
):
    table = set_table(muster=False)
    blessing_pack(table.organiser, table.campaign)

    html = battle_html(client, table, table.owner)

    assert "Waiting for the other side" in html
    assert "Gap:" not in html


def test_it_shows_each_armys_crusade_points_the_gap_and_the_underdog_r11_3(client, table):
    html = battle_html(client, table, table.member)

    assert "<strong>Iron Wolves</strong>: 0 Crusade points" in html
    assert "<strong>Red Talons</strong>: 2 Crusade points" in html
    assert (
        "Gap: 2 Crusade points. Iron Wolves is the underdog and may pick 1 Crusade Blessing."
        in (html)
    )


def test_it_says_nobody_is_the_underdog_when_the_armies_are_equal_r11_3(client, table):
    give_honours(table.squad, 2)

    html = battle_html(client, table, table.owner)

    assert "nobody is the underdog" in html
    assert pick_url(table.mine) not in html


def test_it_offers_the_blessings_form_to_the_underdogs_player_only_r11_3(client, table):
    assert pick_url(table.mine) in battle_html(client, table, table.owner)
    for user in (table.opponent, table.member, table.organiser):
        html = battle_html(client, table, user)
        assert pick_url(table.mine) not in html and pick_url(table.theirs) not in html


def test_it_shows_the_battle_page_in_the_same_queries_with_blessings_picked(client, table):
    client.force_login(table.owner)
    client.post(pick_url(table.mine), picked(table, "Second Wind"))
    few = count_queries(client, reverse("battle_detail", args=[table.battle.pk]))
    big = set_table(muster=False)
    blessing_pack(big.organiser, big.campaign)
    extra = [make_unit(big.force, name=f"Squad {n}", datasheet=f"Sheet {n}") for n in range(6)]
    for unit in extra:
        give_honours(unit, 1)
    big.muster_both(*extra)
    give_honours(big.enemy_captain, 12)
    services.pick_blessings(
        actor=big.owner,
        participant=big.mine,
        blessings=[blessing("Second Wind", big.campaign), blessing("Local Guides", big.campaign)],
    )
    client.force_login(big.owner)

    assert count_queries(client, reverse("battle_detail", args=[big.battle.pk])) == few


# Picking Blessings


def test_it_lets_the_underdog_pick_and_shows_the_picks_on_the_page_and_in_history_r11_3(
    client, table
):
    client.force_login(table.owner)

    response = client.post(pick_url(table.mine), picked(table, "Second Wind"))

    assert response.status_code == 302
    assert BlessingPick.objects.get().blessing.name == "Second Wind"
    html = battle_html(client, table, table.opponent)
    assert "Iron Wolves picked, as the underdog by 2 Crusade points" in html
    assert "<strong>Second Wind</strong>" in html
    history = client.get(reverse("force_history", args=[table.force.pk])).content.decode()
    assert "Crusade Blessing: Second Wind" in history


def test_it_swaps_in_the_blessings_panel_after_an_htmx_pick(client, table):
    client.force_login(table.owner)

    response = client.post(pick_url(table.mine), picked(table, "Second Wind"), **HX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="panel blessings" id="blessings-panel"')
    assert "<strong>Second Wind</strong>" in html and "Pick these Blessings instead" in html


def test_it_refuses_more_blessings_than_the_gap_gives_beside_the_choices_r11_3(client, table):
    client.force_login(table.owner)

    response = client.post(pick_url(table.mine), picked(table, "Second Wind", "Local Guides"))

    assert response.status_code == 400
    assert "Pick no more than 1 Blessing: 2 were ticked." in response.content.decode()
    assert not BlessingPick.objects.exists()


def test_it_refuses_too_many_in_the_htmx_panel_with_a_400(client, table):
    client.force_login(table.owner)

    response = client.post(pick_url(table.mine), picked(table, "Second Wind", "Local Guides"), **HX)

    assert response.status_code == 400
    assert 'id="blessings-panel"' in response.content.decode()
    assert "<html" not in response.content.decode()


def test_it_refuses_a_forged_pick_from_the_side_that_is_not_the_underdog_r11_3(client, table):
    client.force_login(table.opponent)

    response = client.post(pick_url(table.theirs), picked(table, "Second Wind"))

    assert response.status_code == 400
    assert "not the underdog" in response.content.decode()
    assert not BlessingPick.objects.exists()
    assert not HistoryEntry.objects.filter(action="blessings_picked").exists()


def test_it_refuses_to_pick_for_another_players_side(client, table):
    for user, status in ((table.opponent, 403), (table.member, 403), (table.organiser, 403)):
        client.force_login(user)
        assert client.post(pick_url(table.mine), picked(table, "Second Wind")).status_code == (
            status
        )
    client.force_login(table.outsider)
    assert client.post(pick_url(table.mine), picked(table, "Second Wind")).status_code == 404
    assert not BlessingPick.objects.exists()


def test_it_refuses_blessings_once_the_side_has_recorded_r11_3(client, table):
    services.record_side(actor=table.owner, participant=table.mine, result="loss", outcomes={})
    client.force_login(table.owner)

    assert pick_url(table.mine) not in battle_html(client, table, table.owner)
    response = client.post(pick_url(table.mine), picked(table, "Second Wind"))

    assert response.status_code == 400
    assert "can no longer change" in response.content.decode()


def test_it_refuses_blessings_before_the_other_side_has_mustered_r11_3(client):
    table = set_table(muster=False)
    blessing_pack(table.organiser, table.campaign)
    client.force_login(table.owner)

    response = client.post(pick_url(table.mine), picked(table, "Second Wind"))

    assert response.status_code == 400
    assert "waiting for" in response.content.decode()


def test_it_refuses_a_get_of_the_pick(client, table):
    client.force_login(table.owner)

    assert client.get(pick_url(table.mine)).status_code == 405


def test_it_keeps_the_picks_on_the_page_of_a_battle_that_is_over(client, table):
    client.force_login(table.owner)
    client.post(pick_url(table.mine), picked(table, "Second Wind"))
    record(table)

    html = battle_html(client, table, table.member)

    assert "Iron Wolves picked, as the underdog by 2 Crusade points" in html
    assert pick_url(table.mine) not in html


def test_it_tells_the_underdog_its_picks_are_taken(client, table):
    client.force_login(table.owner)

    response = client.post(pick_url(table.mine), picked(table, "Second Wind"))

    assert any("has its Blessings" in m for m in texts(response))


def test_it_warns_when_the_armies_change_after_the_underdog_picked_r11_3(client, table):
    client.force_login(table.owner)
    client.post(pick_url(table.mine), picked(table, "Second Wind"))
    give_honours(table.squad, 2)

    html = battle_html(client, table, table.opponent)

    assert "The armies have changed since: Iron Wolves is no longer the underdog." in html
