"""A battle's page and a player's dashboard follow the battle as it is played: each asks
every few seconds (htmx), with the ETag of what it shows, whether anything changed. While
nothing did the answer is a 304 after one query; after a change, the region as it is now.
Polls are reads: no history row, no form token used, nothing written to the session."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import HistoryEntry, SignedInSession, UsedFormToken
from tests.factories import make_force

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
POLL = "data-live-poll"
ONE_QUERY = 2
"""A poll answered 304: the session with its user (every signed-in request), and the
version with the access check."""


def _live(battle) -> str:
    return reverse("battle_live", args=[battle.pk])


def _page_etag(response) -> str:
    """The ETag the page's poll sends back (its hx-headers)."""
    content = response.content.decode()
    found = re.search(
        r'hx-headers="\{&quot;If-None-Match&quot;: &quot;\\&quot;(.+?)\\&quot;&quot;\}"', content
    )
    assert found, "the page has no poll"
    return f'"{found.group(1)}"'


def _record(table, participant, result: str) -> None:
    services.record_side(
        actor=participant.force.player, participant=participant, result=result, outcomes={}
    )


def test_its_poll_is_answered_304_after_one_query_while_nothing_changed(
    client, table, django_assert_num_queries
):
    client.force_login(table.owner)
    etag = _page_etag(client.get(table.battle.get_absolute_url()))

    with django_assert_num_queries(ONE_QUERY):
        response = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag


def test_its_poll_shows_a_side_recorded_since_with_a_new_etag(client, table):
    client.force_login(table.owner)
    etag = _page_etag(client.get(table.battle.get_absolute_url()))
    _record(table, table.theirs, "loss")

    response = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 200
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="battle-live"')
    assert "<html" not in content
    assert "Recorded" in content
    assert response["ETag"] != etag
    assert _page_etag(response) == response["ETag"]
    again = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=response["ETag"], **HTMX)
    assert again.status_code == 304


@pytest.mark.parametrize(
    "change",
    ["accept", "decline", "withdraw", "cancel"],
)
def test_its_poll_follows_every_answer_to_an_invitation(client, invited, change):
    table = invited
    client.force_login(table.owner)
    etag = _page_etag(client.get(table.battle.get_absolute_url()))
    if change == "cancel":
        services.cancel_battle(actor=table.owner, battle=table.battle)
    else:
        service = getattr(services, f"{change}_invitation")
        actor = table.owner if change == "withdraw" else table.opponent
        service(actor=actor, participant=table.theirs)

    response = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code in (200, 286)
    assert response["ETag"] != etag


def test_its_poll_follows_a_muster(client, unmustered):
    table = unmustered
    client.force_login(table.owner)
    etag = _page_etag(client.get(table.battle.get_absolute_url()))
    services.muster_army(
        actor=table.opponent,
        participant=table.theirs,
        units=[table.enemy_captain, table.enemy_squad],
        warlord=table.enemy_captain,
        faction="Adeptus Astartes",
        detachment="Gladius",
    )

    response = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 200
    assert table.enemy_squad.name in response.content.decode()


def test_its_poll_shows_a_dispute(client, table):
    client.force_login(table.owner)
    etag = _page_etag(client.get(table.battle.get_absolute_url()))
    _record(table, table.mine, "win")
    _record(table, table.theirs, "win")

    response = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 200
    assert "The results disagree" in response.content.decode()
    assert POLL in response.content.decode()


def test_its_poll_stops_once_the_battle_is_over(client, table):
    client.force_login(table.opponent)
    etag = _page_etag(client.get(table.battle.get_absolute_url()))
    _record(table, table.mine, "win")
    _record(table, table.theirs, "loss")

    response = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 286  # htmx stops polling
    content = response.content.decode()
    assert 'id="battle-status">Completed' in content
    assert POLL not in content
    assert POLL not in client.get(table.battle.get_absolute_url()).content.decode()
    # Without htmx, the same region with a plain 200.
    assert client.get(_live(table.battle)).status_code == 200


def test_its_poll_is_a_read_that_writes_nothing(client, table):
    client.force_login(table.owner)
    etag = _page_etag(client.get(table.battle.get_absolute_url()))
    _record(table, table.theirs, "loss")
    session = SignedInSession.objects.get()
    history, tokens = HistoryEntry.objects.count(), UsedFormToken.objects.count()

    changed = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=etag, **HTMX)
    same = client.get(_live(table.battle), HTTP_IF_NONE_MATCH=changed["ETag"], **HTMX)

    assert (changed.status_code, same.status_code) == (200, 304)
    assert HistoryEntry.objects.count() == history
    assert UsedFormToken.objects.count() == tokens
    after = SignedInSession.objects.get()
    assert (after.session_data, after.expire_date) == (session.session_data, session.expire_date)
    assert "sessionid" not in changed.cookies and "sessionid" not in same.cookies
    assert "private" in same["Cache-Control"] and "no-cache" in same["Cache-Control"]


def test_its_poll_is_turned_away_like_the_battle(client, table):
    url = _live(table.battle)
    assert client.get(url)["Location"].startswith(reverse("login"))
    client.force_login(table.outsider)
    assert client.get(url, **HTMX).status_code == 404
    assert client.get(reverse("battle_live", args=[10**6]), **HTMX).status_code == 404
    for who in (table.member, table.organiser, table.opponent):
        client.force_login(who)
        assert client.get(url, **HTMX).status_code == 200
    assert client.post(url, **HTMX).status_code == 405


def test_an_etag_is_made_for_one_user(client, table):
    client.force_login(table.owner)
    etag = _page_etag(client.get(table.battle.get_absolute_url()))
    client.force_login(table.opponent)

    assert client.get(_live(table.battle), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 200


def _waiting() -> str:
    return reverse("dashboard_live")


def test_the_dashboard_poll_is_answered_304_after_one_query_while_nothing_waits_anew(
    client, invited, django_assert_num_queries
):
    table = invited
    client.force_login(table.opponent)
    page = client.get(reverse("dashboard"))
    etag = _page_etag(page)
    assert "is invited by" in page.content.decode()
    assert "<title>Dashboard · Crusade Tracker</title>" in page.content.decode()
    assert page.content.decode().count("js/live.js") == 1

    with django_assert_num_queries(ONE_QUERY):
        response = client.get(_waiting(), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 304
    assert response["ETag"] == etag


def test_the_dashboard_poll_shows_a_new_invitation(client, table):
    client.force_login(table.opponent)
    etag = _page_etag(client.get(reverse("dashboard")))
    challenger = make_force(player=table.member, campaign=table.campaign, name="Grey Ravens")
    reserve = make_force(player=table.opponent, campaign=table.campaign, name="Talon Reserve")
    services.start_battle(
        actor=table.member,
        force=challenger,
        opponents=[reserve],
        battle_size="Incursion",
        campaign=table.campaign,
    )

    response = client.get(_waiting(), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 200
    content = response.content.decode()
    assert content.lstrip().startswith('<section aria-labelledby="pending-heading"')
    assert "Talon Reserve is invited by" in content
    assert POLL in content
    assert response["ETag"] != etag


def test_the_dashboard_poll_follows_an_opponent_recording(client, table):
    """The opponent's side is recorded: mine is now waiting on nobody but me."""
    client.force_login(table.owner)
    etag = _page_etag(client.get(reverse("dashboard")))
    _record(table, table.theirs, "loss")

    response = client.get(_waiting(), HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 200


def test_the_dashboard_poll_writes_nothing_and_wants_a_player(client, table):
    assert client.get(_waiting())["Location"].startswith(reverse("login"))
    client.force_login(table.owner)
    history, tokens = HistoryEntry.objects.count(), UsedFormToken.objects.count()
    first = client.get(_waiting(), **HTMX)
    assert first.status_code == 200
    assert client.get(_waiting(), HTTP_IF_NONE_MATCH=first["ETag"], **HTMX).status_code == 304
    assert (HistoryEntry.objects.count(), UsedFormToken.objects.count()) == (history, tokens)
    assert client.post(_waiting(), **HTMX).status_code == 405
