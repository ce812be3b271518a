"""Since you last looked: the dashboard tells a player what happened in their campaigns
after their marker, and only what a member of those campaigns may see."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign import players, services
from campaign.models import HistoryAction, HistoryEntry, PlayerSettings
from campaign.selectors import since
from tests.factories import make_campaign, make_character, make_force, make_recorded_battle

from .helpers import count_queries, record, set_table, texts

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("dashboard")


def looked(user, *, marker=None, at=None) -> None:
    """The player's marker (now, unless said) and their last look (now, unless said)."""
    now = timezone.now()
    PlayerSettings.objects.update_or_create(
        user=user, defaults={"seen_up_to": marker or now, "looked_at": at or now}
    )


def quiet_table(**options):
    """A battle at the table whose setting up happened hours ago; the member's marker is
    two hours ago, so what happens next is news to them."""
    table = set_table(**options)
    HistoryEntry.objects.update(created_at=timezone.now() - timedelta(hours=3))
    looked(table.member, marker=timezone.now() - timedelta(hours=2))
    return table


def news_of(client, user, **params):
    client.force_login(user)
    response = client.get(DASHBOARD, params)
    assert response.status_code == 200
    return response, response.context["news"]


def summaries(news) -> list[str]:
    return [line.entry.summary for line in news.lines]


def battles_fought(table, count: int, *, start=None) -> None:
    """``count`` of the opponent's wins written straight into the campaign's history, a
    minute apart, the newest last: a busy league without playing every battle."""
    start = start or timezone.now() - timedelta(hours=1)
    HistoryEntry.objects.bulk_create(
        HistoryEntry(
            action=HistoryAction.BATTLE_RECORDED,
            summary=f"Red Talons: win number {n}",
            campaign=table.campaign,
            force=table.other_force,
            actor=table.opponent,
            created_at=start + timedelta(minutes=n),
        )
        for n in range(count)
    )


@pytest.fixture
def watched():
    """A battle the member watches: they last looked a while ago, then it was fought."""
    table = quiet_table()
    record(table)
    return table


def test_it_tells_a_member_of_a_battle_fought_in_their_campaign(client, watched):
    response, news = news_of(client, watched.member)

    assert {line.what for line in news.lines} == {"Battle fought"}
    assert {line.entry.force_id for line in news.lines} == {
        watched.force.pk,
        watched.other_force.pk,
    }
    assert all(line.url == watched.battle.get_absolute_url() for line in news.lines)
    page = response.content.decode()
    assert "Since you last looked" in page
    assert watched.campaign.name in page
    assert f'href="{watched.battle.get_absolute_url()}"' in page


def test_it_leaves_out_what_the_player_did_themselves(client, watched):
    looked(watched.owner, marker=timezone.now() - timedelta(hours=2))

    _, news = news_of(client, watched.owner)

    assert {line.entry.force_id for line in news.lines} == {watched.other_force.pk}


def test_it_leaves_out_what_happened_before_the_marker(client):
    table = set_table()
    record(table)
    looked(table.member)

    _, news = news_of(client, table.member)

    assert news.lines == [] and news.count == 0


def test_it_leaves_out_other_campaigns(client, watched):
    elsewhere = make_campaign(name="Far Away")
    strangers = [make_force(campaign=elsewhere, name=name) for name in ("Lost", "Found")]
    for force in strangers:
        make_character(force)
    make_recorded_battle(*strangers)

    response, news = news_of(client, watched.member)

    assert {line.entry.campaign_id for line in news.lines} == {watched.campaign.pk}
    assert "Far Away" not in response.content.decode()


def test_it_shows_nothing_to_a_player_outside_the_campaign(client, watched):
    response, news = news_of(client, watched.outsider)

    assert news.count == 0
    assert "Since you last looked" not in response.content.decode()


def test_it_keeps_other_players_invitations_and_hidden_log_entries_out(client, watched):
    """Another player's invitation is theirs alone; an entry an organiser hid is for the
    organisers; a reason and an email address are never news."""
    watched.opponent.email = "talons@example.org"
    watched.opponent.save()
    services.invite_to_campaign(
        actor=watched.organiser, user=watched.outsider, campaign=watched.campaign
    )
    shown = services.write_log_entry(
        actor=watched.opponent, campaign=watched.campaign, title="Victory at dawn", text="Yes."
    )
    hidden = services.write_log_entry(
        actor=watched.opponent, campaign=watched.campaign, title="Slander", text="Lies."
    )
    services.hide_log_entry(actor=watched.organiser, entry=hidden, reason="Rude words here")
    rival = make_force(player=watched.outsider, campaign=watched.campaign, name="Newcomers")
    services.correct_force(actor=watched.organiser, force=rival, reason="Secret ruling", rp=3)

    response, news = news_of(client, watched.member)

    page = response.content.decode()
    for private in (watched.outsider.username + " invited", "Slander", "Rude words", "Secret"):
        assert private not in page
    assert "talons@example.org" not in page
    assert [(n.campaign_id, n.count) for n in news.log] == [(watched.campaign.pk, 1)]
    assert "1 new entry in the log" in page
    assert shown.title not in page  # the log itself tells its entries
    assert "New member" in {line.what for line in news.lines}
    assert "New force" in {line.what for line in news.lines}


def test_it_tells_a_player_of_a_battle_invitation_to_their_force_only(client):
    table = quiet_table(accept=False)
    looked(table.opponent, marker=timezone.now() - timedelta(hours=2))
    second = make_force(player=table.owner, campaign=table.campaign, name="Second")
    make_character(second)
    reserve = make_force(player=table.opponent, campaign=table.campaign, name="Reserve")
    services.start_battle(
        actor=table.owner, force=second, opponents=[reserve], battle_size="Incursion"
    )

    _, theirs = news_of(client, table.opponent)
    _, members = news_of(client, table.member)

    invited = [line for line in theirs.lines if line.what == "Invited to battle"]
    assert [line.entry.force_id for line in invited] == [reserve.pk]
    assert "Invited to battle" not in {line.what for line in members.lines}
    # Counted as listed: their invitation once, for them alone.
    assert [news.page.paginator.count for news in (theirs, members)] == [
        len(theirs.lines),
        len(members.lines),
    ]


def test_it_shows_a_new_invitation_to_join_a_campaign(client, watched):
    elsewhere = make_campaign(name="Cadia")
    organiser = elsewhere.memberships.get().user
    services.invite_to_campaign(actor=organiser, user=watched.member, campaign=elsewhere)

    response, news = news_of(client, watched.member)

    assert [i.campaign for i in news.invitations] == [elsewhere]
    assert "invites you to Cadia" in response.content.decode()


def test_it_says_so_when_nothing_happened(client, watched):
    looked(watched.member)

    response, news = news_of(client, watched.member)

    assert news.count == 0
    assert "All quiet in your campaigns" in response.content.decode()


# The marker: a reload keeps the news, a new sitting moves it on, the button clears it


def test_it_keeps_the_news_on_a_reload(client, watched):
    first, news = news_of(client, watched.member)
    again = client.get(DASHBOARD)

    assert summaries(news) != []
    assert again.context["news_part"] == first.context["news_part"]
    assert again.context["news_count"] == news.count


def news_reads(client) -> list[str]:
    """The SQL of a dashboard's look that reads the news (the history, the log)."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(DASHBOARD).status_code == 200
    told = ("campaign_historyentry", "campaign_logentry")
    return [q["sql"] for q in queries.captured_queries if any(t in q["sql"] for t in told)]


def test_looking_again_reads_no_news_and_a_change_shows_at_the_next_look(client, watched):
    """The news is kept under its campaigns' versions (README "Caching"): a reload reads
    none of it, and whatever is told next moves a version, so it shows at once."""
    client.force_login(watched.member)
    assert news_reads(client)
    assert news_reads(client) == []
    services.update_unit_details(actor=watched.opponent, unit=watched.enemy_squad, notes="x")
    assert news_reads(client)  # a change in the campaign: read again, though not news

    services.join_campaign(actor=watched.outsider, user=watched.outsider, campaign=watched.campaign)
    response = client.get(DASHBOARD)

    assert "New member" in response.content.decode()
    assert response.context["news"].count == 3


def test_each_player_has_their_own_news(client, watched):
    looked(watched.owner, marker=timezone.now() - timedelta(hours=2))
    _, members = news_of(client, watched.member)

    _, owners = news_of(client, watched.owner)  # read, not the member's copy

    assert len(members.lines) == 2
    assert {line.entry.force_id for line in owners.lines} == {watched.other_force.pk}


def test_it_moves_the_marker_to_the_last_look_when_a_new_sitting_begins(client):
    table = quiet_table()
    now = timezone.now()
    battles_fought(table, 2, start=now - timedelta(minutes=91))  # one before the last look
    last_look = now - timedelta(minutes=90, seconds=30)
    looked(table.member, marker=now - timedelta(hours=2), at=last_look)

    _, news = news_of(client, table.member)

    assert summaries(news) == ["Red Talons: win number 1"]
    chosen = PlayerSettings.objects.get(user=table.member)
    assert chosen.seen_up_to == last_look
    assert timezone.now() - chosen.looked_at < timedelta(minutes=1)


def test_it_marks_all_as_seen_on_a_post(client, watched):
    _, news = news_of(client, watched.member)
    assert news.count

    response = client.post(
        reverse("dashboard_seen"), {"shown_at": news.shown_at.isoformat()}, follow=True
    )

    page = response.content.decode()
    assert response.context["news"].count == 0
    assert "All caught up" in page
    assert "All quiet in your campaigns" in page


def test_it_keeps_what_came_after_the_page_was_shown(client, watched):
    _, news = news_of(client, watched.member)
    battles_fought(watched, 1, start=timezone.now())

    client.post(reverse("dashboard_seen"), {"shown_at": news.shown_at.isoformat()})

    marker = PlayerSettings.objects.get(user=watched.member).seen_up_to
    shown = since.news(watched.member, marker=marker, invitations=[])
    assert marker == news.shown_at
    assert summaries(shown) == ["Red Talons: win number 0"]


@pytest.mark.parametrize("shown_at", ["", "yesterday", "2026-13-40T99:00", "2026-01-01T10:00"])
def test_it_refuses_a_mark_as_seen_it_cannot_read(client, watched, shown_at):
    client.force_login(watched.member)

    response = client.post(reverse("dashboard_seen"), {"shown_at": shown_at})

    assert response.status_code == 302
    assert texts(response) == ["That button is out of date: here is your dashboard as it is now."]
    marker = PlayerSettings.objects.get(user=watched.member).seen_up_to
    assert marker < timezone.now() - timedelta(hours=1)


def test_it_reaches_back_no_further_than_a_month(client):
    table = quiet_table()
    # A month back, from the start of that hour (so a player's news keeps for an hour).
    start = since.news_since(None, now=timezone.now()) - timedelta(seconds=30)
    assert timezone.now() - start > since.FURTHEST
    battles_fought(table, 2, start=start)
    looked(table.member, marker=timezone.now() - timedelta(days=365))

    _, news = news_of(client, table.member)

    wins = [text for text in summaries(news) if "win number" in text]
    assert wins == ["Red Talons: win number 1"]


# Bounded: a page at a time, in the same queries however much happened


def test_it_shows_the_news_a_page_at_a_time(client):
    table = quiet_table()
    battles_fought(table, since.PER_PAGE + 3)

    response, first = news_of(client, table.member)
    _, second = news_of(client, table.member, news=2)

    assert summaries(first)[0] == f"Red Talons: win number {since.PER_PAGE + 2}"
    assert len(first.lines) == since.PER_PAGE
    assert summaries(second) == [f"Red Talons: win number {n}" for n in (2, 1, 0)]
    assert 'href="?news=2"' in response.content.decode()
    assert first.count == since.PER_PAGE + 3


def test_it_counts_a_busy_month_no_further_than_its_pages(client):
    """A month of a busy league holds thousands of lines: the count stops one past the
    pages the news shows, and says there is more."""
    table = quiet_table()
    battles_fought(table, 2 * 3 + 1)
    marker = timezone.now() - timedelta(hours=2)  # the 7 wins are all the news

    def pages(most: int):
        return since.news(table.member, marker=marker, invitations=[], per_page=2, most_pages=most)

    shown = pages(3)
    assert shown.more and shown.page.paginator.count == 6 and shown.page.paginator.num_pages == 3
    assert not pages(4).more and pages(4).page.paginator.count == 7


def test_it_reads_the_one_campaign_of_a_player_in_its_history_order(client):
    """Given the player's campaigns, the news of one campaign is read in the order of its
    history index: the same lines as without them."""
    table = quiet_table()
    battles_fought(table, 3)

    told = since.news(table.member, marker=None, invitations=[], campaigns=[table.campaign.pk])

    assert summaries(told) == summaries(since.news(table.member, marker=None, invitations=[]))
    assert summaries(told)[:3] == [f"Red Talons: win number {n}" for n in (2, 1, 0)]


def test_it_reads_the_news_in_the_same_queries_however_much_happened(
    client, django_assert_num_queries
):
    quiet, busy = quiet_table(), quiet_table()
    battles_fought(quiet, 1)
    battles_fought(busy, 3 * since.PER_PAGE)
    for table, n in ((quiet, 1), (busy, 4)):
        for i in range(n):
            services.write_log_entry(
                actor=table.opponent, campaign=table.campaign, title=f"Entry {i}", text="."
            )

    with django_assert_num_queries(3):
        since.news(quiet.member, marker=None, invitations=[])
    with django_assert_num_queries(3):
        since.news(busy.member, marker=None, invitations=[])
    client.force_login(quiet.member)
    few = count_queries(client, DASHBOARD)
    client.force_login(busy.member)
    assert count_queries(client, DASHBOARD) == few
    assert count_queries(client, DASHBOARD, news=3) == few


def test_it_notes_a_look_with_one_write_at_most_once_a_minute(watched, django_assert_num_queries):
    """Reloading the dashboard costs no write: on SQLite every write waits for the others."""
    now = timezone.now()
    looked(watched.member, marker=now - timedelta(hours=2), at=now - timedelta(minutes=5))

    with django_assert_num_queries(2):
        players.note_dashboard_visit(watched.member, now=now)
    with django_assert_num_queries(1):
        players.note_dashboard_visit(watched.member, now=now + timedelta(seconds=30))

    assert PlayerSettings.objects.get(user=watched.member).looked_at == now


def test_the_count_of_news_is_read_from_its_index_alone():
    """The count stops one past the most it shows ("150+"), but every row of the month it
    passes is a row the database reads: on SQLite, from the news index alone, not the
    table. PostgreSQL chooses from its statistics; the index is there for it too, and the
    count asks for nothing outside it (not even the row's id, which PostgreSQL's index
    does not hold)."""
    campaign = make_campaign()
    counted = since.counting(1, timezone.now() - timedelta(days=30), [campaign.pk], 150)
    parts = counted.query.combined_queries
    assert [part.values_select for part in parts] == [("action",), ("action",)]
    assert not any(part.order_by or part.default_ordering for part in parts)

    if connection.vendor == "sqlite":
        plan = counted.explain()
        assert "USING COVERING INDEX history_news" in plan, plan
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, HistoryEntry._meta.db_table)
    assert indexes["history_news"]["columns"] == [
        "campaign_id",
        "action",
        "created_at",
        "actor_id",
        "force_id",
    ]
