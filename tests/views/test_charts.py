"""Charts on the campaign page (wins over time) and on the Crusade card (XP over its
battles): inline SVG, with a title, a description and the numbers as a table, in the same
number of queries however many battles there are."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import charts, rules, services, wins_kept
from campaign.models import Unit
from tests.factories import (
    make_battle,
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_unit,
)

from .helpers import count_queries, fight_alone

pytestmark = pytest.mark.django_db

SEASON = datetime.date(2025, 1, 6)  # a Monday


def polylines(body: str, chart_id: str) -> list[list[str]]:
    """The points of each line of the chart ``chart_id`` on a page."""
    svg = re.search(rf'<svg [^>]*aria-labelledby="{chart_id}-title[^"]*".*?</svg>', body, re.S)
    assert svg, f"no {chart_id} on the page"
    return [points.split() for points in re.findall(r'<polyline points="([^"]+)"', svg.group())]


def battle(campaign, winner, loser, *, weeks: int = 0):
    """A battle ``winner`` wins against ``loser``, played ``weeks`` into the season."""
    date = SEASON + datetime.timedelta(weeks=weeks)
    make_recorded_battle(winner, loser, campaign=campaign, date=date)


def league(forces: int, *, units: int = 1) -> tuple:
    campaign = make_campaign()
    made = []
    for _ in range(forces):
        force = make_force(campaign=campaign)
        make_character(force, is_epic_hero=True)  # never gains XP: never waits on a promotion
        for _ in range(units - 1):
            make_unit(force, points=40)
        made.append(force)
    return campaign, made


# The campaign page


def test_it_draws_each_forces_wins_over_the_weeks(client):
    campaign, (wolves, talons) = league(2)
    battle(campaign, wolves, talons, weeks=0)
    battle(campaign, wolves, talons, weeks=1)
    battle(campaign, talons, wolves, weeks=3)
    client.force_login(wolves.player)

    body = client.get(campaign.get_absolute_url()).content.decode()

    lines = polylines(body, "standings-chart")
    # One line per force: a start at 0 and one point per week anyone won (weeks 0, 1, 3).
    assert [len(points) for points in lines] == [4, 4]
    assert '<title id="standings-chart-title">Wins over time</title>' in body
    assert 'id="standings-chart-desc"' in body
    assert "Most wins: " + wolves.name + ", 2." in body
    assert "2 wins" in body and "1 win<" in body  # the legend
    assert "Wins over time, as a table" in body


def test_it_draws_only_the_top_eight_forces_of_the_standings(client):
    campaign, forces = league(10)
    for i in range(0, 10, 2):
        battle(campaign, forces[i], forces[i + 1], weeks=i)
    client.force_login(forces[0].player)

    body = client.get(campaign.get_absolute_url()).content.decode()

    lines = polylines(body, "standings-chart")
    assert len(lines) == charts.MOST_LINES == 8
    overview = client.get(campaign.get_absolute_url()).context["overview"]
    legend = [standing.force for standing, _ in overview.standings_history.legend]
    assert legend == [standing.force for standing in overview.standings[:8]]


def test_it_counts_only_completed_battles(client):
    campaign, (wolves, talons) = league(2)
    battle(campaign, wolves, talons)
    voided = make_battle(wolves, talons, campaign=campaign)
    services.void_battle(actor=wolves.player, battle=voided, reason="practice")
    client.force_login(wolves.player)

    history = client.get(campaign.get_absolute_url()).context["overview"].standings_history

    assert [line.last for _, line in history.legend] == [1, 0]


def test_it_keeps_the_chart_when_a_force_it_doesnt_draw_changes_and_redraws_it_on_a_win(
    client,
):
    """The chart is cached under the forces it draws and their victories."""
    campaign, forces = league(charts.MOST_LINES + 2)
    battle(campaign, forces[0], forces[1])
    client.force_login(forces[0].player)
    url = campaign.get_absolute_url()
    drawn_pks = [s.force.pk for s in client.get(url).context["overview"]._leaders]
    drawn = sorted(
        (force for force in forces if force.pk in drawn_pks), key=lambda f: drawn_pks.index(f.pk)
    )
    outside = next(force for force in forces if force.pk not in drawn_pks)

    services.update_force_details(actor=outside.player, force=outside, goals="Wait")
    with CaptureQueriesContext(connection) as queries:
        kept = client.get(url).content.decode()
    looked = [q["sql"] for q in queries.captured_queries]  # before the next request
    battle(campaign, drawn[1], drawn[0], weeks=1)
    redrawn = client.get(url).content.decode()

    assert looked and not any('"battle__date"' in sql for sql in looked)
    assert polylines(kept, "standings-chart") != polylines(redrawn, "standings-chart")


def test_after_a_win_it_reads_again_only_the_winners_wins_and_after_a_void_all_of_them(client):
    """Each drawn force's wins per day are kept under its victories and the campaign's
    voids (`selectors.charts._wins_by_day`): a battle reads again the winner's alone, a
    void every force's, and the chart shows both at once."""
    campaign, (wolves, talons, ravens) = league(3)
    battle(campaign, wolves, talons)
    battle(campaign, ravens, talons)
    client.force_login(wolves.player)
    url = campaign.get_absolute_url()
    client.get(url)

    def look() -> tuple[set[int], str]:
        with CaptureQueriesContext(connection) as queries:
            body = client.get(url).content.decode()
        reads = [q["sql"] for q in queries.captured_queries if '"battle__date"' in q["sql"]]
        pks = [re.search(r'"force_id" IN \(([^)]*)\)', sql).group(1) for sql in reads]
        return {int(pk) for listed in pks for pk in listed.split(",")}, body

    battle(campaign, talons, wolves, weeks=1)
    after_win, body = look()
    services.void_battle(
        actor=wolves.player, battle=make_battle(wolves, ravens, campaign=campaign), reason="x"
    )
    after_void, _ = look()

    assert after_win == {talons.pk}
    assert after_void == {wolves.pk, talons.pk, ravens.pk}
    assert re.search(rf"{re.escape(talons.name)}</a> <span class=\"muted\">1 win<", body)


def test_a_win_completed_here_is_counted_without_reading_the_winners_wins_again(
    client, django_capture_on_commit_callbacks
):
    """Once the battle is committed, the winner's wins per day are kept under its new
    victories from those kept under the old (`campaign.wins_kept.count_win`): the next
    look reads no wins at all, and draws what a look with nothing kept draws."""
    campaign, (wolves, talons) = league(2)
    battle(campaign, wolves, talons)
    client.force_login(wolves.player)
    url = campaign.get_absolute_url()
    client.get(url)

    with django_capture_on_commit_callbacks(execute=True):
        battle(campaign, talons, wolves, weeks=1)
        battle(campaign, talons, wolves, weeks=1)
    with CaptureQueriesContext(connection) as queries:
        counted = client.get(url).content.decode()
    looked = [q["sql"] for q in queries.captured_queries]  # before the next request
    caches["default"].clear()
    caches["template_fragments"].clear()
    read = client.get(url).content.decode()

    assert looked and not any('"battle__date"' in sql for sql in looked)
    assert polylines(counted, "standings-chart") == polylines(read, "standings-chart")
    assert re.search(rf"{re.escape(talons.name)}</a> <span class=\"muted\">2 wins<", counted)


def test_wins_kept_before_a_void_are_never_used_again():
    """A count made from wins kept before a void keeps the voids of then: it is read
    again, never shown."""
    monday = SEASON
    wins_kept.keep({7: {monday: 1}}, {7: 1}, voided=0)
    wins_kept.count_win(7, 1, monday + datetime.timedelta(days=1))
    wins_kept.count_win(7, 5, monday)  # nothing kept under 5 victories: nothing made

    assert wins_kept.kept([(7, 2)], voided=0) == {
        7: {monday: 1, monday + datetime.timedelta(days=1): 1}
    }
    assert wins_kept.kept([(7, 2)], voided=1) == {}
    assert wins_kept.kept([(7, 6)], voided=0) == {}


def test_it_draws_no_chart_before_the_first_win(client):
    campaign, (wolves, _) = league(2)
    client.force_login(wolves.player)

    response = client.get(campaign.get_absolute_url())

    assert response.context["overview"].standings_history is None
    assert "<svg" not in response.content.decode()


def test_it_keeps_the_campaign_page_to_the_same_queries_with_many_more_battles(client):
    """The chart adds one query, counted by the database per force and week."""
    small, (a, b) = league(2)
    battle(small, a, b)
    large, forces = league(10, units=4)
    for n in range(15):
        winner, loser = forces[n % 10], forces[(n + 3) % 10]
        battle(large, winner, loser, weeks=n // 3)
    client.force_login(a.player)
    few = count_queries(client, small.get_absolute_url())
    client.force_login(forces[0].player)

    assert count_queries(client, large.get_absolute_url()) == few


# The Crusade card


def test_it_draws_the_units_xp_over_its_battles_with_the_ranks(client):
    force = make_force()
    captain = make_character(force, name="Captain Vorn")
    services.correct_unit(actor=force.player, unit=captain, reason="veteran", xp=4)
    for _ in range(3):
        fight_alone(force, [captain])
        for promotion in captain.promotions.filter(status="pending"):
            services.settle_with_battle_trait(
                actor=force.player, promotion=promotion, table="Character"
            )
    client.force_login(force.player)

    body = client.get(reverse("unit_detail", args=[captain.pk])).content.decode()

    (line,) = polylines(body, "xp-chart")
    assert len(line) == 4  # before the first battle, and after each of the three
    assert "Blooded (6 XP)" in body and "Battle-hardened (16 XP)" in body
    assert '<title id="xp-chart-title">XP over its battles</title>' in body
    assert "from 4 XP to 7 XP" in body
    assert "XP by battle, as a table" in body


def test_it_marks_each_battle_on_the_xp_chart_with_its_date_and_xp(client):
    force = make_force()
    captain = make_character(force, name="Captain Vorn")
    for _ in range(3):
        fight_alone(force, [captain])
    client.force_login(force.player)

    body = client.get(reverse("unit_detail", args=[captain.pk])).content.decode()

    svg = re.search(r'<svg [^>]*aria-labelledby="xp-chart-title.*?</svg>', body, re.S).group()
    titles = re.findall(r"<circle [^>]*><title>([^<]+)</title></circle>", svg)
    assert len(titles) == 3
    assert all(re.search(r"\d{4}.*: \d+ to \d+ XP$", title) for title in titles), titles


def test_it_draws_no_xp_chart_for_a_unit_that_has_not_fought(client, owner, unit):
    client.force_login(owner)
    response = client.get(reverse("unit_detail", args=[unit.pk]))
    assert response.context["card"].xp_history is None
    assert "xp-chart" not in response.content.decode()


def test_it_draws_no_xp_chart_for_a_unit_that_never_gains_xp(client):
    force = make_force()
    hero = make_character(force, name="Marneus Calgar", is_epic_hero=True)
    fight_alone(force, [hero])
    client.force_login(force.player)
    assert client.get(reverse("unit_detail", args=[hero.pk])).context["card"].xp_history is None


def test_it_draws_only_the_ranks_a_capped_unit_can_reach(client):
    force = make_force()
    captain = make_character(force)
    squad = make_unit(force, name="Squad Helix")
    services.correct_unit(actor=force.player, unit=squad, reason="veteran", xp=29)
    fight_alone(force, [captain, squad])
    client.force_login(force.player)

    history = client.get(reverse("unit_detail", args=[squad.pk])).context["card"].xp_history

    cap = rules.NON_CHARACTER_XP_CAP
    assert [rule.label for rule in history.chart.rules] == [
        f"{rank.label} ({rank.min_xp} XP)" for rank in rules.Rank if 0 < rank.min_xp <= cap
    ]


def test_it_keeps_the_card_page_to_the_same_queries_with_many_more_battles(client):
    force = make_force()
    fresh = make_character(force, name="Fresh", is_epic_hero=False)
    veteran = make_character(force, name="Veteran")
    fight_alone(force, [fresh])
    for _ in range(8):
        fight_alone(force, [veteran])
        for promotion in veteran.promotions.filter(status="pending"):
            services.settle_with_battle_trait(
                actor=force.player, promotion=promotion, table="Character"
            )
    assert Unit.objects.get(pk=veteran.pk).battles_played == 8
    client.force_login(force.player)

    assert count_queries(client, reverse("unit_detail", args=[fresh.pk])) == count_queries(
        client, reverse("unit_detail", args=[veteran.pk])
    )
