"""The campaign page: members only, standings and battles in constant queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import services
from campaign.models import CrusadeForce
from tests.factories import (
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_unit,
    make_user,
)

pytestmark = pytest.mark.django_db


def _campaign_with(forces: int, units: int, battles: int):
    campaign = make_campaign()
    all_forces = []
    for _ in range(forces):
        force = make_force(campaign=campaign)
        make_character(force)
        for _ in range(units - 1):
            make_unit(force, points=40)
        all_forces.append(force)
    for _ in range(battles):
        make_recorded_battle(all_forces[0], all_forces[1], campaign=campaign)
    return campaign


def test_it_shows_standings_with_wins_and_crusade_points(client):
    campaign = _campaign_with(forces=2, units=2, battles=1)
    winner = campaign.forces.order_by("pk").first()
    client.force_login(winner.player)

    response = client.get(reverse("campaign_detail", args=[campaign.pk]))

    standings = response.context["overview"].standings
    assert standings[0].force.pk == winner.pk
    assert winner.name in response.content.decode()


def test_it_ranks_standings_as_the_rules_order_them(client):
    """Standings: most victories first, then most Crusade points, then by name."""
    from campaign import rules

    campaign = make_campaign()
    forces = {name: make_force(campaign=campaign, name=name) for name in "ABCD"}
    for name, victories, points in [("A", 1, 5), ("B", 1, 5), ("C", 2, 0), ("D", 1, 9)]:
        CrusadeForce.objects.filter(pk=forces[name].pk).update(
            battle_tally=2, victories=victories, crusade_points=points
        )
    client.force_login(forces["A"].player)

    standings = client.get(reverse("campaign_detail", args=[campaign.pk])).context["overview"]

    assert rules.STANDINGS_ORDER == ("-victories", "-crusade_points", "name")
    assert [s.force.name for s in standings.standings] == ["C", "D", "A", "B"]


def test_it_lists_the_battles_a_page_at_a_time(client):
    campaign = make_campaign()
    heroes = [make_force(campaign=campaign) for _ in range(2)]
    for force in heroes:
        make_character(force, is_epic_hero=True)  # never gains XP, so never waits on a promotion
    for _ in range(12):
        make_recorded_battle(*heroes, campaign=campaign)
    client.force_login(heroes[0].player)
    url = reverse("campaign_detail", args=[campaign.pk])

    first = client.get(url)
    second = client.get(url, {"page": 2})

    assert len(first.context["overview"].recent_battles) == 10
    assert 'href="?page=2"' in first.content.decode()
    assert len(second.context["overview"].recent_battles) == 2


def test_it_shows_the_invitation_only_to_organisers(client):
    organiser = make_user(is_staff=True)
    campaign = make_campaign(organiser=organiser)
    player_force = make_force(campaign=campaign)

    client.force_login(organiser)
    assert campaign.invite_code in client.get(campaign.get_absolute_url()).content.decode()
    client.force_login(player_force.player)
    assert campaign.invite_code not in client.get(campaign.get_absolute_url()).content.decode()


def _queries(client, campaign) -> int:
    client.force_login(campaign.forces.first().player)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 200
    return len(queries)


def test_it_loads_the_campaign_overview_in_constant_queries(client):
    """Acceptance: the same number of queries for 5 units as for 100."""
    small = _campaign_with(forces=2, units=3, battles=1)  # 6 units
    large = _campaign_with(forces=5, units=20, battles=4)  # 100 units

    assert _queries(client, small) == _queries(client, large)


def test_it_puts_start_a_battle_at_the_top_of_the_campaign_page(client):
    """Issue 13 item 6: a prominent button before the standings, with my force chosen."""
    campaign = _campaign_with(forces=2, units=1, battles=0)
    mine = campaign.forces.order_by("pk").first()
    client.force_login(mine.player)

    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()

    button = f'class="button button--big" href="{reverse("battle_create")}?force={mine.pk}"'
    assert button in page
    assert page.index(button) < page.index('id="standings-heading"')


def test_it_offers_a_member_without_a_force_to_raise_one_at_the_top(client):
    campaign = _campaign_with(forces=2, units=1, battles=0)
    member = make_user()
    services.join_campaign(actor=member, user=member, campaign=campaign)
    client.force_login(member)

    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()

    create = f'href="{reverse("force_create")}?campaign={campaign.pk}"'
    assert page.index(create) < page.index('id="standings-heading"')
    assert reverse("battle_create") not in page


def test_it_shows_the_standings_twenty_forces_at_a_time_with_places_and_mine_marked(client):
    """A league of 25: the page shows the first 20 ranked by the rules, the next page the
    rest (places 21 to 25); the battle list keeps its own page in the links."""
    campaign = make_campaign()
    forces = [make_force(campaign=campaign, name=f"Force {n:02}") for n in range(25)]
    mine = forces[22]
    client.force_login(mine.player)
    url = reverse("campaign_detail", args=[campaign.pk])

    first = client.get(url)
    second = client.get(url, {"standings": 2, "page": 3})

    assert [s.position for s in first.context["overview"].standings] == list(range(1, 21))
    later = second.context["overview"].standings
    assert [(s.position, s.force.pk) for s in later] == [
        (place, force.pk) for place, force in enumerate(forces[20:], start=21)
    ]
    assert 'href="?standings=2"' in first.content.decode()
    assert 'href="?standings=1&amp;page=3"' in second.content.decode()
    assert second.content.decode().count('class="table__row--mine"') == 1
    assert "table__row--mine" not in first.content.decode()
    assert first.context["my_forces"] == [mine]  # the Start a battle button still finds it


def test_it_lists_organisers_and_members_still_without_a_force(client):
    """Players with forces are in the standings; the members list names the others."""
    organiser = make_user("marshal", is_staff=True)
    campaign = make_campaign(organiser=organiser)
    make_force(campaign=campaign, player=make_user("ready"))
    waiting = make_user("waiting")
    services.join_campaign(actor=waiting, user=waiting, campaign=campaign)
    client.force_login(waiting)

    response = client.get(reverse("campaign_detail", args=[campaign.pk]))

    members = [m.user.username for m in response.context["overview"].members]
    assert members == ["marshal", "waiting"]
    assert "3 members." in response.content.decode()


def test_it_reads_a_later_page_of_standings_in_constant_queries(client):
    """Past page 1 the chart's leaders are one more query, whatever the league's size."""
    small, large = make_campaign(), make_campaign()
    for campaign, size in ((small, 21), (large, 60)):
        for _ in range(size):
            make_force(campaign=campaign)
    counts = []
    for campaign in (small, large):
        client.force_login(campaign.forces.first().player)
        with CaptureQueriesContext(connection) as queries:
            url = reverse("campaign_detail", args=[campaign.pk])
            assert client.get(url, {"standings": 2}).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]
