"""Battle pages: start, battle page, muster (with the live check) and recording a side's end.
Invitations, cancelling and disputes are in test_invitations.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import rules, services
from campaign.models import Battle, BattleUnit, HistoryEntry, OutOfActionTest
from tests.factories import (
    make_campaign,
    make_character,
    make_force,
    make_unit,
    make_user,
    reload,
)

from .helpers import count_queries, past_battles, record, set_table, texts

pytestmark = pytest.mark.django_db


# Start a battle


def test_it_sends_anonymous_users_to_the_login_page(client):
    response = client.get(reverse("battle_create"))
    assert response.status_code == 302
    assert reverse("login") in response.url


def _start(client, user, force, **extra):
    client.force_login(user)
    data = {"force": force.pk, "battle_size": "Incursion", "date": "2025-05-01", **extra}
    return client.post(reverse("battle_create"), data)


def test_it_starts_a_battle_against_a_force_of_the_same_campaign(client, unmustered):
    table = unmustered
    # The first battle is still open; void it to free the forces.
    Battle.objects.filter(pk=table.battle.pk).update(status=Battle.Status.VOIDED)
    client.force_login(table.owner)
    page = client.get(reverse("battle_create"))
    assert page.status_code == 200
    assert "Red Talons" in page.content.decode()

    response = _start(
        client,
        table.owner,
        table.force,
        battle_size="Strike Force",
        mission="Purge the Foe",
        opponents=[table.other_force.pk],
    )

    battle = Battle.objects.exclude(pk=table.battle.pk).get()
    assert response.status_code == 302
    assert response.url == reverse("battle_detail", args=[battle.pk])
    sides = dict(battle.participants.values_list("force__name", "invitation"))
    assert sides == {"Iron Wolves": "accepted", "Red Talons": "invited"}
    assert battle.battle_size == "Strike Force"
    assert any("invited" in m for m in texts(response))


def test_it_refuses_a_force_already_in_a_battle_with_a_message_on_the_form(client, unmustered):
    response = _start(client, unmustered.owner, unmustered.force)

    assert response.status_code == 200
    assert "already in a battle" in response.content.decode()
    assert Battle.objects.count() == 1


def test_it_does_not_offer_another_players_force_as_yours(client, unmustered):
    response = _start(client, unmustered.owner, unmustered.other_force)

    assert response.status_code == 200
    assert response.context["form"].errors["force"]


# The battle page


def test_it_offers_the_muster_link_to_the_forces_player_only(client, unmustered):
    table = unmustered
    client.force_login(table.owner)

    html = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()

    assert reverse("army_muster", args=[table.mine.pk]) in html
    assert reverse("army_muster", args=[table.theirs.pk]) not in html
    assert "Not mustered yet" in html
    assert reverse("army_record", args=[table.mine.pk]) not in html


def test_it_offers_each_player_to_record_their_own_side_once_mustered(client, table):
    client.force_login(table.opponent)

    html = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()

    assert reverse("army_record", args=[table.theirs.pk]) in html
    assert reverse("army_record", args=[table.mine.pk]) not in html
    assert "Captain Vorn" in html and "160" in html


def test_it_lists_what_each_unit_gained_and_links_my_pending_tests(client, table):
    record(table, destroyed=[table.squad])
    test = OutOfActionTest.objects.get(unit=table.squad)
    client.force_login(table.owner)

    html = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()

    assert "XP 0 → 1" in html
    assert reverse("out_of_action", args=[test.pk]) in html
    assert "Victory" in html


def test_it_shows_the_battle_page_in_the_same_number_of_queries_for_any_army_size(client):
    small = set_table()
    record(small, destroyed=[small.squad])
    client.force_login(small.owner)
    few = count_queries(client, reverse("battle_detail", args=[small.battle.pk]))

    big = set_table(muster=False)
    extra = [
        make_unit(big.force, name=f"Squad {n}", datasheet=f"Sheet {n}", points=10) for n in range(8)
    ]
    big.muster_both(*extra)
    record(big, destroyed=[big.squad, *extra[:4]])
    client.force_login(big.owner)

    assert count_queries(client, reverse("battle_detail", args=[big.battle.pk])) == few


@pytest.mark.parametrize(
    ("name", "target"),
    [("battle_detail", lambda t: t.battle), ("army_record", lambda t: t.mine)],
)
def test_it_reads_a_battle_in_the_same_queries_however_many_battles_the_campaign_has(
    client, name, target
):
    quiet, busy = set_table(), set_table()
    past_battles(make_force(player=busy.member, campaign=busy.campaign), 30)
    client.force_login(quiet.owner)
    few = count_queries(client, reverse(name, args=[target(quiet).pk]))
    client.force_login(busy.owner)

    assert count_queries(client, reverse(name, args=[target(busy).pk])) == few


# Muster


def test_it_musters_an_army_and_warns_about_an_empty_transport(client, unmustered):
    table = unmustered
    rhino = make_unit(table.force, name="Rhino One", datasheet="Rhino", is_dedicated_transport=True)
    client.force_login(table.owner)

    response = client.post(
        reverse("army_muster", args=[table.mine.pk]),
        {
            "faction": "Adeptus Astartes",
            "detachment": "Gladius",
            "units": [table.captain.pk, table.squad.pk, rhino.pk],
            "warlord": table.captain.pk,
            f"attach_{table.captain.pk}": table.squad.pk,
        },
    )

    assert response.status_code == 302
    mine = reload(table.mine)
    assert mine.mustered and mine.warlord == table.captain
    leader = BattleUnit.objects.get(participant=mine, unit=table.captain)
    assert leader.attached_to.unit == table.squad
    notes = texts(response)
    assert any("mustered" in n for n in notes)
    assert any("Rhino One starts empty" in n for n in notes)


def test_it_shows_muster_errors_next_to_the_units_and_saves_nothing(client, unmustered):
    table = unmustered
    client.force_login(table.owner)

    response = client.post(
        reverse("army_muster", args=[table.mine.pk]),
        {"faction": "Adeptus Astartes", "detachment": "Gladius", "units": [table.squad.pk]},
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "needs at least one CHARACTER" in html
    assert not reload(table.mine).mustered
    assert not BattleUnit.objects.filter(participant=table.mine).exists()


def test_it_marks_a_unit_with_a_pending_promotion_and_links_to_settle_it(client, table):
    services.correct_unit(actor=table.owner, unit=table.captain, reason="setup", xp=5)
    record(table)
    promotion = table.captain.promotions.get()
    battle = services.start_battle(
        actor=table.owner, force=table.force, battle_size="Incursion", campaign=table.campaign
    )
    client.force_login(table.owner)

    html = client.get(reverse("army_muster", args=[battle.participants.get().pk])).content.decode()

    assert reverse("promotion_settle", args=[promotion.pk]) in html
    assert f'id="muster-unit-{table.captain.pk}" disabled' in html


def test_it_marks_a_unit_with_an_open_out_of_action_test_here_and_on_the_order_of_battle(
    client, table
):
    record(table, destroyed=[table.squad])
    test = OutOfActionTest.objects.get(unit=table.squad)
    battle = services.start_battle(
        actor=table.owner, force=table.force, battle_size="Incursion", campaign=table.campaign
    )
    client.force_login(table.owner)

    html = client.get(reverse("army_muster", args=[battle.participants.get().pk])).content.decode()
    page = client.get(reverse("force_detail", args=[table.force.pk])).content.decode()

    assert reverse("out_of_action", args=[test.pk]) in html
    assert f'id="muster-unit-{table.squad.pk}" disabled' in html
    assert f'id="muster-unit-{table.captain.pk}" disabled' not in html
    assert f'href="{reverse("out_of_action", args=[test.pk])}">Out of Action test' in page


def test_it_refuses_get_on_the_live_muster_check(client, unmustered):
    table = unmustered
    client.force_login(table.owner)

    response = client.get(reverse("army_muster_check", args=[table.mine.pk]))

    assert response.status_code == 405


def test_it_returns_only_the_summary_for_the_live_check_and_saves_nothing(client, unmustered):
    table = unmustered
    big = make_unit(
        table.force,
        name="Land Raider",
        datasheet="Land Raider",
        points=990,
        counts_towards_supply=False,
    )
    client.force_login(table.owner)

    response = client.post(
        reverse("army_muster_check", args=[table.mine.pk]),
        {
            "faction": "Adeptus Astartes",
            "units": [table.captain.pk, big.pk],
            "warlord": table.captain.pk,
        },
        HTTP_HX_REQUEST="true",
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "1070" in html and "70 over" in html
    assert not reload(table.mine).mustered


def test_it_keeps_other_players_out_of_the_live_check(client, unmustered):
    table = unmustered
    client.force_login(table.opponent)

    response = client.post(reverse("army_muster_check", args=[table.mine.pk]), {})

    assert response.status_code == 403


# Record my side of the end


def _record_data(side, **extra) -> dict:
    """One side's record form, every field filled in (a win, nothing happened), then ``extra``."""
    data = {"result": "win", "marked": ""}
    for entry in side.army.all():
        data |= {f"kills_{entry.pk}": 0, f"bonus_{entry.pk}": 0, f"reason_{entry.pk}": ""}
    return data | extra


def _post_record(client, table, side=None, **extra):
    """A player posts the record form of their side (the owner's, unless ``side``)."""
    side = side or table.mine
    client.force_login(side.force.player)
    return client.post(reverse("army_record", args=[side.pk]), _record_data(side, **extra))


def _confirm_destroyed(client, table, entry, **facts):
    """The owner confirms their side (a win) with the army ``entry`` destroyed and ``facts``
    (``kills``, ``bonus``) about it; ``entry`` may be another side's, as a forged form's."""
    fields = {f"{name}_{entry.pk}": value for name, value in facts.items()}
    return _post_record(client, table, confirm="1", **{f"destroyed_{entry.pk}": "True", **fields})


def test_it_shows_only_my_sides_units_on_the_record_form(client, table):
    client.force_login(table.owner)

    html = client.get(reverse("army_record", args=[table.mine.pk])).content.decode()

    assert '<span class="visually-hidden">Squad Helix was </span>' in html
    assert "Captain Rhal" not in html and "Squad Kade" not in html
    assert "Result for Iron Wolves" in html and "Result for Red Talons" not in html


def test_it_previews_the_gains_without_writing_anything(client, table):
    squad_entry = table.mine.army.get(unit=table.squad)
    captain_entry = table.mine.army.get(unit=table.captain)
    history = HistoryEntry.objects.count()
    response = _post_record(
        client,
        table,
        preview="1",
        **{f"destroyed_{squad_entry.pk}": "on", "marked": captain_entry.pk},
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "Confirm and record" in html
    assert f"Iron Wolves:\n      {rules.BattleResult.WIN.label}" in html
    assert "XP 0 → 4" in html  # Captain: 1 for the battle + 3 Marked for Greatness
    assert "Out of Action" in html
    assert "RP 5 → 6" in html
    assert reload(table.battle).status == Battle.Status.IN_PROGRESS
    assert reload(table.captain).xp == 0
    assert HistoryEntry.objects.count() == history


def test_it_keeps_my_side_until_the_opponent_records_theirs(client, table):
    squad_entry = table.mine.army.get(unit=table.squad)
    response = _confirm_destroyed(client, table, squad_entry, kills=3)

    assert response.status_code == 302
    assert reload(table.battle).status == Battle.Status.IN_PROGRESS
    mine = reload(table.mine)
    assert (mine.claimed_result, mine.recorded_by) == ("win", table.owner)
    entry = reload(squad_entry)
    assert (entry.destroyed, entry.enemy_units_destroyed, entry.xp_after) == (True, 3, None)
    assert reload(table.force).battle_tally == 0
    assert reload(table.squad).xp == 0
    assert any("ends when every side has recorded" in m for m in texts(response))


def test_it_completes_the_battle_when_the_opponent_records_an_agreeing_result(client, table):
    squad_entry = table.mine.army.get(unit=table.squad)
    _confirm_destroyed(client, table, squad_entry, kills=3)

    response = _post_record(client, table, table.theirs, confirm="1", result="loss")

    assert response.status_code == 302
    assert reload(table.battle).status == Battle.Status.COMPLETED
    force = reload(table.force)
    assert (force.battle_tally, force.victories, force.rp) == (1, 1, 6)
    assert reload(table.other_force).battle_tally == 1
    squad = reload(table.squad)
    assert (squad.xp, squad.units_destroyed, squad.battles_survived) == (2, 3, 0)
    assert OutOfActionTest.objects.filter(unit=table.squad).exists()
    assert any("Battle recorded" in m for m in texts(response))


def test_it_ignores_any_unit_of_another_side_posted_on_my_record_form(client, table):
    """Nobody records another player's units: their fields on my form are not read."""
    enemy = table.theirs.army.get(unit=table.enemy_squad)
    _confirm_destroyed(client, table, enemy, kills=9, bonus=5)
    _post_record(client, table, table.theirs, confirm="1", result="loss")

    enemy = reload(enemy)
    assert (enemy.destroyed, enemy.enemy_units_destroyed, enemy.bonus_xp) == (False, 0, 0)
    assert reload(table.enemy_squad).xp == 1


def test_it_shows_service_refusals_on_the_record_form_and_writes_nothing(client, table):
    response = _post_record(client, table, preview="1", result="")

    assert response.status_code == 200
    assert response.context["form"].errors
    assert reload(table.battle).status == Battle.Status.IN_PROGRESS


def test_it_asks_for_a_reason_for_bonus_xp(client, table):
    entry = table.mine.army.get(unit=table.squad)
    response = _post_record(client, table, preview="1", **{f"bonus_{entry.pk}": 2})

    assert response.status_code == 200
    assert "Say why" in response.content.decode()


def test_it_sends_players_back_to_the_battle_until_their_army_is_mustered(client, unmustered):
    table = unmustered
    client.force_login(table.owner)

    response = client.get(reverse("army_record", args=[table.mine.pk]))

    assert response.status_code == 302
    assert any("has not mustered" in m for m in texts(response))


def test_it_refuses_to_change_an_army_once_its_side_is_recorded(client, table):
    _post_record(client, table, confirm="1")
    client.force_login(table.owner)

    response = client.get(reverse("army_muster", args=[table.mine.pk]))

    assert response.status_code == 302
    assert any("can no longer change" in m for m in texts(response))


def test_it_records_a_battle_against_an_untracked_opponent_in_one_step(client, table):
    """R9: with no opponent force, my side alone completes the battle, as before."""
    services.cancel_battle(actor=table.owner, battle=table.battle)
    client.force_login(table.owner)
    _start(client, table.owner, table.force)
    solo = Battle.objects.get(status=Battle.Status.IN_PROGRESS)
    side = solo.participants.get()
    client.post(
        reverse("army_muster", args=[side.pk]),
        {
            "faction": table.force.faction,
            "detachment": "Gladius",
            "units": [table.captain.pk],
            "warlord": table.captain.pk,
        },
    )

    response = _post_record(client, table, side, confirm="1", result="loss")

    assert reload(solo).status == Battle.Status.COMPLETED
    assert (reload(table.force).battle_tally, reload(table.force).victories) == (1, 0)
    assert any("Battle recorded" in m for m in texts(response))


def test_it_gives_an_attached_units_kills_to_one_of_its_two_units_on_the_form(client, unmustered):
    """R9: kills of an Attached unit go to the Leader or the Bodyguard, not both."""
    table = unmustered
    services.muster_army(
        actor=table.owner,
        participant=table.mine,
        faction=table.force.faction,
        detachment="Gladius",
        units=[table.captain, table.squad],
        warlord=table.captain,
        attachments={table.captain.pk: table.squad.pk},
    )
    services.muster_army(
        actor=table.opponent,
        participant=table.theirs,
        faction=table.other_force.faction,
        detachment="Gladius",
        units=[table.enemy_captain],
        warlord=table.enemy_captain,
    )
    leader, bodyguard = (table.mine.army.get(unit=u) for u in (table.captain, table.squad))
    client.force_login(table.owner)
    assert (
        "Leads Squad Helix"
        in client.get(reverse("army_record", args=[table.mine.pk])).content.decode()
    )

    both = _post_record(
        client, table, preview="1", **{f"kills_{leader.pk}": 1, f"kills_{bodyguard.pk}": 1}
    )
    one = _post_record(client, table, confirm="1", **{f"kills_{bodyguard.pk}": 2})

    assert "fought as one Attached unit" in both.content.decode()
    assert both.context["form"].errors == {
        f"kills_{bodyguard.pk}": both.context["form"].errors[f"kills_{bodyguard.pk}"]
    }
    assert one.status_code == 302
    assert reload(bodyguard).enemy_units_destroyed == 2


def test_it_refuses_the_same_kills_on_both_leaders_of_one_bodyguard_next_to_the_field(
    client, unmustered
):
    """R9 (decision): with two Leaders (R8.7), the battle's kills go to one unit of the
    Attached unit; the second Leader's kills box says which unit already has them."""
    table = unmustered
    lieutenant = make_character(table.force, name="Lieutenant Aro", datasheet="Lieutenant")
    services.muster_army(
        actor=table.owner,
        participant=table.mine,
        faction=table.force.faction,
        detachment="Gladius",
        units=[table.captain, lieutenant, table.squad],
        warlord=table.captain,
        attachments={table.captain.pk: table.squad.pk, lieutenant.pk: table.squad.pk},
        second_leader_rules={table.squad.pk: "Leader: two CHARACTERs may join"},
    )
    services.muster_army(
        actor=table.opponent,
        participant=table.theirs,
        faction=table.other_force.faction,
        detachment="Gladius",
        units=[table.enemy_captain],
        warlord=table.enemy_captain,
    )
    captain, second = (table.mine.army.get(unit=u) for u in (table.captain, lieutenant))
    both = {f"kills_{captain.pk}": 2, f"kills_{second.pk}": 2}

    preview = _post_record(client, table, preview="1", **both)
    confirm = _post_record(client, table, confirm="1", **both)

    errors = preview.context["form"].errors
    assert list(errors) == [f"kills_{second.pk}"]
    assert (
        "Lieutenant Aro fought as one Attached unit with Captain" in errors[f"kills_{second.pk}"][0]
    )
    assert "already has them" in preview.content.decode()
    assert confirm.status_code == 200
    assert reload(table.mine).claimed_result == ""
    assert reload(second).enemy_units_destroyed == 0


def test_it_starts_a_battle_with_the_force_a_campaign_page_names(client):
    player = make_user()
    make_force(player=player, campaign=make_campaign(), name="A First Force")
    second = make_force(player=player, campaign=make_campaign(), name="B Second Force")
    client.force_login(player)

    named = client.get(reverse("battle_create"), {"force": second.pk})

    assert named.context["form"]["force"].value() == second.pk
    assert f'<option value="{second.pk}" selected>' in named.content.decode()


def test_it_shows_a_force_outside_any_campaign_the_way_to_opponents(client):
    """Issue 13 item 1: no dead end when a newcomer's force has no campaign yet."""
    player = make_user()
    alone = make_force(player=player, name="The Ashen Host")
    client.force_login(player)

    page = client.get(reverse("battle_create")).content.decode()

    assert "No other forces in your campaigns yet" not in page
    assert f'href="{reverse("force_campaign", args=[alone.pk])}"' in page


def test_it_shows_each_units_kills_and_each_result_on_the_battle_page(client, table):
    """Issue 13 item 7: what each unit destroyed, and a badge per result."""
    outcomes = {
        entry.pk: services.UnitOutcome(enemy_units_destroyed=2 if entry.unit == table.squad else 1)
        for entry in table.mine.army.all()
    }
    services.record_battle_end(
        battle=table.battle,
        results={table.mine.pk: "win", table.theirs.pk: "loss"},
        outcomes=outcomes,
    )
    client.force_login(table.member)

    page = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()

    assert page.count('<span class="army__kills">2 enemy units destroyed</span>') == 1
    assert page.count('<span class="army__kills">1 enemy unit destroyed</span>') == 1
    assert page.count('<span class="army__kills">0 enemy units destroyed</span>') == 2
    assert '<span class="badge badge--result badge--win">Victory</span>' in page
    assert '<span class="badge badge--result badge--loss">Defeat</span>' in page


def test_it_counts_empty_boxes_of_the_record_form_as_nothing_happened(client, table):
    """Issue 13 item 8: on a phone only what happened is typed; a reason without bonus XP
    (its box hidden) is dropped rather than kept."""
    client.force_login(table.owner)
    data = {"result": "win", "marked": "", "preview": "1"}
    for entry in table.mine.army.all():
        data |= {f"kills_{entry.pk}": "", f"bonus_{entry.pk}": "", f"reason_{entry.pk}": "Typo"}

    response = client.post(reverse("army_record", args=[table.mine.pk]), data)

    assert response.status_code == 200
    outcomes = response.context["form"].service_kwargs()["outcomes"].values()
    assert {(o.enemy_units_destroyed, o.bonus_xp, o.bonus_xp_reason) for o in outcomes} == {
        (0, 0, "")
    }
    assert "Confirm and record" in response.content.decode()


def test_it_asks_why_next_to_the_bonus_xp_of_a_unit(client, table):
    squad = table.mine.army.get(unit=table.squad)

    response = _post_record(client, table, preview="1", **{f"bonus_{squad.pk}": 2})

    html = response.content.decode()
    assert "Say why it earned bonus XP." in html
    assert f'aria-describedby="id_reason_{squad.pk}_error"' in html
