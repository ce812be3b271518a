"""Invitations, cancelling and disputes in the pages: the battle page says where each side
stands, the dashboard and the force page say what waits for the player, and email goes
out only when the site has email settings."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from campaign import services
from campaign.models import Battle, BattleParticipant
from tests.factories import make_battle, make_character, make_force, reload
from tests.services.checks import card_snapshot

from .helpers import count_queries, set_table, texts

pytestmark = pytest.mark.django_db


def _post(client, user, name, pk):
    client.force_login(user)
    return client.post(reverse(name, args=[pk]))


# Answering an invitation


def test_it_shows_the_invited_player_accept_and_decline_and_nothing_to_muster(client, invited):
    client.force_login(invited.opponent)

    html = client.get(reverse("battle_detail", args=[invited.battle.pk])).content.decode()

    assert "Red Talons is invited to this battle" in html
    assert reverse("army_accept", args=[invited.theirs.pk]) in html
    assert reverse("army_decline", args=[invited.theirs.pk]) in html
    assert reverse("army_muster", args=[invited.theirs.pk]) not in html


def test_it_commits_the_force_when_its_player_accepts(client, invited):
    response = _post(client, invited.opponent, "army_accept", invited.theirs.pk)

    assert response.status_code == 302
    assert response.url == reverse("battle_detail", args=[invited.battle.pk])
    assert reload(invited.theirs).invitation == BattleParticipant.Invitation.ACCEPTED
    assert reload(invited.other_force).in_battle()
    assert any("joins the battle" in m for m in texts(response))


def test_it_keeps_the_force_out_when_its_player_declines(client, invited):
    response = _post(client, invited.opponent, "army_decline", invited.theirs.pk)

    assert response.status_code == 302
    assert reload(invited.theirs).invitation == BattleParticipant.Invitation.DECLINED
    assert not reload(invited.other_force).in_battle()
    page = client.get(reverse("battle_detail", args=[invited.battle.pk])).content.decode()
    assert "Declined" in page


def test_it_says_why_an_invitation_cannot_be_accepted(client, invited):
    rival = make_force(campaign=invited.campaign, name="Black Templars")
    make_battle(rival, invited.other_force, campaign=invited.campaign)

    response = _post(client, invited.opponent, "army_accept", invited.theirs.pk)

    assert response.status_code == 302
    assert any("Red Talons is already in a battle" in m for m in texts(response))
    assert reload(invited.theirs).is_invited


def test_it_lets_the_starter_withdraw_an_unanswered_invitation(client, invited):
    client.force_login(invited.owner)
    page = client.get(reverse("battle_detail", args=[invited.battle.pk])).content.decode()
    assert "Withdraw the invitation to Red Talons" in page

    response = _post(client, invited.owner, "army_withdraw", invited.theirs.pk)

    assert response.status_code == 302
    assert reload(invited.theirs).invitation == BattleParticipant.Invitation.WITHDRAWN


def test_it_lets_the_starter_cancel_before_anyone_records(client, unmustered):
    before = card_snapshot(unmustered.force, unmustered.other_force)

    response = _post(client, unmustered.owner, "battle_cancel", unmustered.battle.pk)

    assert response.status_code == 302
    assert reload(unmustered.battle).status == Battle.Status.CANCELLED
    assert card_snapshot(unmustered.force, unmustered.other_force) == before
    page = client.get(reverse("battle_detail", args=[unmustered.battle.pk])).content.decode()
    assert "Cancel this battle" not in page


def test_it_says_a_battle_with_a_recorded_side_can_no_longer_be_cancelled(client, table):
    services.record_side(actor=table.owner, participant=table.mine, result="win", outcomes={})

    response = _post(client, table.owner, "battle_cancel", table.battle.pk)

    assert any("can't be cancelled" in m for m in texts(response))
    assert reload(table.battle).status == Battle.Status.IN_PROGRESS


@pytest.mark.parametrize("name", ["army_accept", "army_decline", "army_withdraw"])
def test_it_refuses_get_on_the_urls_that_answer_an_invitation(client, invited, name):
    client.force_login(invited.opponent)

    assert client.get(reverse(name, args=[invited.theirs.pk])).status_code == 405


def test_it_refuses_a_post_without_a_csrf_token(invited):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(invited.opponent)

    response = client.post(reverse("army_accept", args=[invited.theirs.pk]))

    assert response.status_code == 403
    assert reload(invited.theirs).is_invited


# Where each side stands on the battle page


def test_it_shows_who_accepted_mustered_and_recorded(client, table):
    services.record_side(actor=table.owner, participant=table.mine, result="win", outcomes={})
    client.force_login(table.member)

    html = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()

    assert html.count("Accepted") == 2
    assert html.count("Mustered") == 2
    assert "Recorded" in html and "Not recorded yet" in html
    assert "Recorded: Victory" not in html  # a claim shows once every side has recorded


def test_it_shows_the_organisers_record_for_an_absent_player(client, table):
    services.record_side(actor=table.owner, participant=table.mine, result="win", outcomes={})
    services.settle_battle(
        actor=table.organiser,
        battle=table.battle,
        results={table.mine.pk: "win", table.theirs.pk: "loss"},
        reason="Away",
    )
    client.force_login(table.opponent)

    html = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()

    assert f"Recorded: Defeat (by {table.organiser.get_username()})" in html


def test_it_shows_the_battle_page_in_the_same_queries_whatever_the_sides_states(client):
    fresh, settled = set_table(accept=False), set_table()
    services.record_side(actor=settled.owner, participant=settled.mine, result="win", outcomes={})
    client.force_login(fresh.owner)
    few = count_queries(client, reverse("battle_detail", args=[fresh.battle.pk]))
    client.force_login(settled.owner)

    assert count_queries(client, reverse("battle_detail", args=[settled.battle.pk])) == few


# Waiting for you: the dashboard and the force page


def test_it_counts_an_invitation_to_answer_on_the_dashboard(client, invited):
    client.force_login(invited.opponent)

    response = client.get(reverse("dashboard"))

    dash = response.context["dash"]
    assert [s.pk for s in dash.invitations] == [invited.theirs.pk]
    assert dash.pending_count == 1
    assert "Red Talons is invited" in response.content.decode()


def test_it_lists_battles_to_record_and_disputes_on_the_dashboard(client, table):
    client.force_login(table.opponent)
    assert [s.pk for s in client.get(reverse("dashboard")).context["dash"].to_record] == [
        table.theirs.pk
    ]
    for side, player in ((table.mine, table.owner), (table.theirs, table.opponent)):
        services.record_side(actor=player, participant=side, result="win", outcomes={})

    dash = client.get(reverse("dashboard")).context["dash"]

    assert [s.pk for s in dash.to_record] == [table.theirs.pk]
    assert "change your side" in client.get(reverse("dashboard")).content.decode()


def test_it_lists_my_recorded_battle_as_waiting_for_the_opponent(client, table):
    services.record_side(actor=table.owner, participant=table.mine, result="win", outcomes={})
    client.force_login(table.owner)

    dash = client.get(reverse("dashboard")).context["dash"]

    assert dash.to_record == [] and dash.pending_count == 0
    assert [s.pk for s in dash.waiting] == [table.mine.pk]


def test_it_loads_the_dashboard_in_the_same_queries_however_many_battles_wait(client):
    quiet, busy = set_table(accept=False), set_table(accept=False)
    for n in range(3):
        rival = make_force(campaign=busy.campaign, name=f"Rival {n}")
        make_character(rival, name=f"Rival captain {n}")
        services.start_battle(
            actor=rival.player, force=rival, opponents=[busy.other_force], battle_size="Incursion"
        )
    client.force_login(quiet.opponent)
    few = count_queries(client, reverse("dashboard"))
    client.force_login(busy.opponent)

    assert count_queries(client, reverse("dashboard")) == few


def test_it_offers_accept_and_decline_on_the_force_page_to_its_player_only(client, invited):
    url = reverse("force_detail", args=[invited.other_force.pk])
    client.force_login(invited.opponent)
    mine = client.get(url).content.decode()
    client.force_login(invited.member)
    theirs = client.get(url).content.decode()

    accept = reverse("army_accept", args=[invited.theirs.pk])
    assert accept in mine and "Red Talons is invited" in mine
    assert accept not in theirs and "Red Talons is invited" in theirs


# Email, only with email settings


def _start_with_email(client, table):
    table.opponent.email = "talons@example.org"
    table.opponent.save()
    services.cancel_battle(actor=table.owner, battle=table.battle)
    client.force_login(table.owner)
    return client.post(
        reverse("battle_create"),
        {
            "force": table.force.pk,
            "battle_size": "Incursion",
            "date": "2025-05-01",
            "opponents": [table.other_force.pk],
        },
    )


@override_settings(EMAIL_ENABLED=True)
def test_it_emails_the_invited_player_when_the_site_has_email_settings(
    client, invited, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as queued:
        response = _start_with_email(client, invited)

    assert len(queued) == 1  # queued once the battle is saved, sent by the worker

    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["talons@example.org"]
    assert "Invitation" in message.subject
    assert "Iron Wolves invites you" in message.body
    assert f"http://testserver{response.url}" in message.body


@override_settings(EMAIL_ENABLED=False)
def test_it_sends_no_email_without_email_settings(
    client, invited, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as queued:
        response = _start_with_email(client, invited)

    assert response.status_code == 302
    assert queued == [] and mail.outbox == []


@override_settings(EMAIL_ENABLED=True)
def test_it_emails_the_opponent_its_turn_then_both_players_a_dispute(
    client, table, django_capture_on_commit_callbacks
):
    for user, address in ((table.owner, "wolves@example.org"), (table.opponent, "t@example.org")):
        user.email = address
        user.save()
    data = {"result": "win", "marked": "", "confirm": "1"}

    for side in (table.mine, table.theirs):
        client.force_login(side.force.player)
        form = dict(data)
        for entry in side.army.all():
            form |= {f"kills_{entry.pk}": 0, f"bonus_{entry.pk}": 0, f"reason_{entry.pk}": ""}
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("army_record", args=[side.pk]), form)

    turn, *dispute = mail.outbox
    assert turn.to == ["t@example.org"] and "Your turn" in turn.subject
    assert sorted(m.to[0] for m in dispute) == ["t@example.org", "wolves@example.org"]
    assert all("can't both claim a Victory" in m.body for m in dispute)


def test_it_lets_a_player_change_their_side_of_a_disputed_battle(client, table):
    for side, player in ((table.mine, table.owner), (table.theirs, table.opponent)):
        services.record_side(actor=player, participant=side, result="win", outcomes={})
    client.force_login(table.opponent)
    page = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()
    assert "Change your side of the battle" in page
    form = client.get(reverse("army_record", args=[table.theirs.pk]))
    assert form.context["form"]["result"].value() == "win"  # starts from what was recorded

    data = {"result": "loss", "marked": "", "confirm": "1"}
    for entry in table.theirs.army.all():
        data |= {f"kills_{entry.pk}": 0, f"bonus_{entry.pk}": 0, f"reason_{entry.pk}": ""}
    response = client.post(reverse("army_record", args=[table.theirs.pk]), data)

    assert response.status_code == 302
    assert reload(table.battle).status == Battle.Status.COMPLETED
    assert reload(table.force).victories == 1
