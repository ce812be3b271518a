"""A narrative campaign on its page: the phases, standings per phase and per alliance, the
chart; organisers start the next phase; Start a battle suggests the phase's size."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import once, services
from campaign.models import Alliance, Battle, Campaign, HistoryEntry
from tests.factories import (
    fight_to_the_end,
    make_battle,
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_user,
)

pytestmark = pytest.mark.django_db

COLOURS = ["#1f5f99", "#7a1f1f", "#2f6b3a", "#b35c00"]


def _narrative(*, phases=2, alliances=2, forces=4, battles_per_phase=1, started=True):
    """A campaign of ``phases`` phases (Incursion each), its forces shared out among the
    alliances, each pair of forces fighting ``battles_per_phase`` battles in each phase."""
    organiser = make_user(is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Vigilus")
    for n in range(1, phases + 1):
        services.define_phase(
            actor=organiser,
            campaign=campaign,
            name=f"Chapter {n}",
            narrative=f"The story of chapter {n}.",
            battle_size="Incursion",
        )
    sides = [
        Alliance.objects.create(campaign=campaign, name=f"Alliance {n}", colour=COLOURS[n % 4])
        for n in range(alliances)
    ]
    made = []
    for n in range(forces):
        force = make_force(campaign=campaign, name=f"Force {n}")
        make_character(force)
        if sides:
            force.alliance = sides[n % len(sides)]
            force.save(update_fields=["alliance"])
        made.append(force)
    if started:
        for _ in range(phases):
            services.advance_phase(actor=organiser, campaign=campaign)
            campaign.refresh_from_db()
            for _ in range(battles_per_phase):
                for a, b in zip(made[::2], made[1::2], strict=False):
                    make_recorded_battle(a, b, campaign=campaign)
    campaign.refresh_from_db()
    return campaign, organiser, made


def page(client, campaign, **params):
    return client.get(reverse("campaign_detail", args=[campaign.pk]), params)


def test_it_shows_the_current_phase_and_each_phase_done_or_to_come(client):
    campaign, organiser, _ = _narrative(phases=3, started=False)
    services.advance_phase(actor=organiser, campaign=campaign)
    services.advance_phase(actor=organiser, campaign=campaign)
    client.force_login(organiser)

    html = page(client, campaign).content.decode()

    assert "Now: phase 2, Chapter 2" in html
    assert "The story of chapter 2." in html
    assert "This phase is played at Incursion." in html
    phases = html[html.index('class="phase-list"') :]
    assert phases.index("Chapter 1") < phases.index("Done") < phases.index("Chapter 2")
    assert phases.index("Now") < phases.index("Chapter 3") < phases.index("To come")


def test_it_adds_campaign_points_to_the_standings(client):
    campaign, _, forces = _narrative(phases=1, forces=2)
    client.force_login(forces[0].player)

    response = page(client, campaign)

    html = response.content.decode()
    standings = html[html.index('id="standings-heading"') :]
    assert '<th scope="col">Campaign Points</th>' in standings
    assert '<td data-label="Campaign Points">3</td>' in standings  # a win, by default


def test_it_shows_the_standings_of_one_phase(client):
    campaign, organiser, forces = _narrative(phases=2, forces=2)
    # In phase 2 the second force wins once more.
    make_recorded_battle(forces[1], forces[0], campaign=Campaign.objects.get(pk=campaign.pk))
    client.force_login(forces[0].player)

    first = page(client, campaign, phase=1).context["overview"].phases
    second = page(client, campaign, phase=2).context["overview"].phases

    assert [
        (r["force__name"], r["battles"], r["wins"], r["points"]) for r in first.force_standings
    ] == [
        ("Force 0", 1, 1, 3),
        ("Force 1", 1, 0, 0),
    ]
    rows = [
        (r["force__name"], r["battles"], r["wins"], r["points"]) for r in second.force_standings
    ]
    assert rows == [("Force 0", 2, 1, 3), ("Force 1", 2, 1, 3)]
    html = page(client, campaign, phase=2).content.decode()
    assert "Standings in phase 2: Chapter 2" in html
    assert 'href="?phase=1"' in html and ">Overall</a>" in html


def test_a_phase_that_is_not_one_shows_the_overall_standings(client):
    campaign, _, forces = _narrative(phases=1, forces=2)
    client.force_login(forces[0].player)

    for wanted in ("9", "x", "10" * 30, "-1"):
        response = page(client, campaign, phase=wanted)
        assert response.status_code == 200
        assert response.context["overview"].phases.chosen is None


def test_it_shows_each_alliance_overall_and_per_phase_including_those_yet_to_fight(client):
    campaign, _, forces = _narrative(phases=2, alliances=2, forces=2)
    Alliance.objects.create(campaign=campaign, name="Latecomers", colour="#6a3d9a")
    client.force_login(forces[0].player)

    overall = page(client, campaign).context["overview"].phases.alliance_standings
    in_one = page(client, campaign, phase=1).context["overview"].phases.alliance_standings

    by_name = {s.alliance.name: (s.battles, s.wins, s.campaign_points) for s in overall}
    assert by_name == {"Alliance 0": (2, 2, 6), "Alliance 1": (2, 0, 0), "Latecomers": (0, 0, 0)}
    assert overall[0].alliance.name == "Alliance 0" and overall[0].position == 1
    by_name = {s.alliance.name: (s.battles, s.wins, s.campaign_points) for s in in_one}
    assert by_name == {"Alliance 0": (1, 1, 3), "Alliance 1": (1, 0, 0), "Latecomers": (0, 0, 0)}


def test_it_draws_each_alliances_points_over_the_phases_in_its_colour(client):
    campaign, _, forces = _narrative(phases=2, alliances=2, forces=2)
    client.force_login(forces[0].player)

    response = page(client, campaign)

    drawn = response.context["overview"].phases.chart
    assert [line.last for _, line in drawn.legend] == [6, 0]
    assert [line.colour for _, line in drawn.legend] == [COLOURS[0], COLOURS[1]]
    html = response.content.decode()
    assert f'stroke="{COLOURS[0]}"' in html
    assert "Campaign Points over the phases, as a table" in html
    assert drawn.table.rows[0] == ("Alliance 0", [("Chapter 1", 3), ("Chapter 2", 6)])


def test_a_campaign_without_phases_or_alliances_shows_none_of_it(client):
    campaign = make_campaign()
    force = make_force(campaign=campaign)
    client.force_login(force.player)

    response = page(client, campaign)

    assert response.context["overview"].phases is None
    assert 'id="phases-heading"' not in response.content.decode()


def _alliance_totals(client, campaign, **params) -> dict:
    overview = page(client, campaign, **params).context["overview"]
    return {
        s.alliance.name: (s.battles, s.wins, s.campaign_points)
        for s in overview.phases.alliance_standings
    }


def _aggregates(queries) -> int:
    """How many times a look added up the sides of completed battles."""
    return sum("COUNT(DISTINCT" in query["sql"] for query in queries.captured_queries)


def test_the_page_reads_the_alliances_totals_kept_as_battles_end_and_adds_up_no_sides(client):
    campaign, _, forces = _narrative(phases=2, alliances=2, forces=2)
    client.force_login(forces[0].player)
    page(client, campaign)

    make_recorded_battle(forces[1], forces[0], campaign=campaign)
    with CaptureQueriesContext(connection) as queries:
        overall = _alliance_totals(client, campaign)

    assert _aggregates(queries) == 0
    assert overall == {"Alliance 0": (3, 2, 6), "Alliance 1": (3, 1, 3)}


def test_a_battle_begun_in_a_phase_now_over_counts_in_that_phase_when_it_ends(client):
    campaign, organiser, forces = _narrative(phases=2, alliances=2, forces=2, started=False)
    services.advance_phase(actor=organiser, campaign=campaign)
    battle = make_battle(forces[0], forces[1], campaign=campaign)
    services.advance_phase(actor=organiser, campaign=campaign)
    client.force_login(forces[0].player)
    assert _alliance_totals(client, campaign) == {"Alliance 0": (0, 0, 0), "Alliance 1": (0, 0, 0)}

    fight_to_the_end(battle, forces[0])

    assert Battle.objects.get(pk=battle.pk).phase.position == 1
    assert _alliance_totals(client, campaign) == {"Alliance 0": (1, 1, 3), "Alliance 1": (1, 0, 0)}
    in_one = _alliance_totals(client, campaign, phase=1)
    assert in_one == {"Alliance 0": (1, 1, 3), "Alliance 1": (1, 0, 0)}


def _count(client, campaign, **params) -> int:
    client.force_login(campaign.forces.order_by("pk").first().player)
    with CaptureQueriesContext(connection) as queries:
        assert page(client, campaign, **params).status_code == 200
    return len(queries)


@pytest.mark.parametrize("params", [{}, {"phase": 1}])
def test_the_page_costs_the_same_queries_whatever_the_phases_alliances_forces_battles(
    client, params
):
    small, _, _ = _narrative(phases=1, alliances=1, forces=2, battles_per_phase=1)
    large, _, _ = _narrative(phases=3, alliances=3, forces=6, battles_per_phase=2)

    assert _count(client, small, **params) == _count(client, large, **params)


def test_a_new_phase_shows_on_the_cached_page_at_once(client):
    campaign, organiser, forces = _narrative(phases=1, forces=2)
    client.force_login(forces[0].player)
    assert "Chapter 9" not in page(client, campaign).content.decode()

    services.define_phase(actor=organiser, campaign=campaign, name="Chapter 9")

    assert "Chapter 9" in page(client, campaign).content.decode()


# --------------------------------------------------------------------- starting a phase


def test_it_shows_the_button_that_starts_the_next_phase_to_organisers_only(client):
    campaign, organiser, forces = _narrative(phases=2, forces=2, started=False)
    url = reverse("campaign_phase_advance", args=[campaign.pk])

    client.force_login(organiser)
    assert f'action="{url}"' in page(client, campaign).content.decode()
    client.force_login(forces[0].player)
    assert f'action="{url}"' not in page(client, campaign).content.decode()


def _advance(client, campaign, **data):
    return client.post(reverse("campaign_phase_advance", args=[campaign.pk]), data)


def test_an_organiser_starts_the_first_phase_then_the_next(client):
    campaign, organiser, _ = _narrative(phases=2, forces=2, started=False)
    client.force_login(organiser)

    response = _advance(client, campaign, from_phase="")

    assert response.status_code == 302
    assert response["Location"] == campaign.get_absolute_url()
    campaign.refresh_from_db()
    assert campaign.current_phase.name == "Chapter 1"
    assert "Phase 1, Chapter 1, has begun." in [str(m) for m in get_messages(response.wsgi_request)]

    _advance(client, campaign, from_phase=campaign.current_phase_id)

    assert Campaign.objects.get(pk=campaign.pk).current_phase.name == "Chapter 2"


def test_it_refuses_to_advance_past_the_last_phase_with_a_message(client):
    campaign, organiser, _ = _narrative(phases=1, forces=2)
    client.force_login(organiser)
    history = HistoryEntry.objects.count()

    response = _advance(client, campaign, from_phase=campaign.current_phase_id)

    assert response.status_code == 302
    assert "Chapter 1 is the last phase" in " ".join(
        str(m) for m in get_messages(response.wsgi_request)
    )
    assert HistoryEntry.objects.count() == history


def test_it_refuses_a_form_shown_before_the_phase_moved_on(client):
    """Two organisers looking at the same page: the second click does not skip a phase."""
    campaign, organiser, _ = _narrative(phases=3, forces=2, started=False)
    client.force_login(organiser)

    _advance(client, campaign, from_phase="")
    _advance(client, campaign, from_phase="")

    assert Campaign.objects.get(pk=campaign.pk).current_phase.name == "Chapter 1"


@pytest.mark.parametrize("seen", ["x", str(10**30), "-1"])
def test_it_refuses_a_phase_no_id_can_name(client, seen):
    campaign, organiser, _ = _narrative(phases=2, forces=2, started=False)
    client.force_login(organiser)

    response = _advance(client, campaign, from_phase=seen)

    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).current_phase is None


def test_the_form_sent_twice_advances_once(client):
    campaign, organiser, _ = _narrative(phases=3, forces=2, started=False)
    client.force_login(organiser)
    html = page(client, campaign).content.decode()
    token = html.split(f'name="{once.FIELD}" value="')[1].split('"')[0]

    for _ in range(2):
        _advance(client, campaign, **{once.FIELD: token})

    assert Campaign.objects.get(pk=campaign.pk).current_phase.name == "Chapter 1"
    assert HistoryEntry.objects.filter(action="phase_advanced").count() == 1


def test_it_takes_only_post(client):
    campaign, organiser, _ = _narrative(phases=1, forces=2, started=False)
    client.force_login(organiser)

    assert client.get(reverse("campaign_phase_advance", args=[campaign.pk])).status_code == 405


# ---------------------------------------------------------------- starting a battle


def test_start_a_battle_suggests_the_size_of_the_phase(client):
    campaign, organiser, forces = _narrative(phases=1, forces=2, started=False)
    services.advance_phase(actor=organiser, campaign=campaign)
    client.force_login(forces[0].player)

    response = client.get(reverse("battle_create"), {"force": forces[0].pk})

    form = response.context["form"]
    assert form["battle_size"].value() == "Incursion"
    assert "This phase (Chapter 1) is played at Incursion." in response.content.decode()


def test_a_phase_with_only_a_points_limit_suggests_the_smallest_size_that_covers_it(client):
    organiser = make_user(is_staff=True)
    campaign = make_campaign(organiser=organiser)
    services.define_phase(actor=organiser, campaign=campaign, name="Skirmish", points_limit=1500)
    services.advance_phase(actor=organiser, campaign=campaign)
    force = make_force(campaign=campaign)
    client.force_login(force.player)

    form = client.get(reverse("battle_create"), {"force": force.pk}).context["form"]

    assert form["battle_size"].value() == "Strike Force"


def test_another_size_is_allowed_with_a_warning_and_a_note(client):
    campaign, _, forces = _narrative(phases=1, forces=2, started=False)
    organiser = campaign.memberships.get(role="organiser").user
    services.advance_phase(actor=organiser, campaign=campaign)
    client.force_login(forces[0].player)

    response = client.post(
        reverse("battle_create"),
        {"force": forces[0].pk, "battle_size": "Onslaught", "date": "2026-01-01"},
        follow=True,
    )

    battle = Battle.objects.get()
    assert battle.battle_size == "Onslaught" and battle.phase.name == "Chapter 1"
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    assert warnings == [
        "This battle is played at Onslaught, but Chapter 1 is played at Incursion: "
        "agree on it with your opponent."
    ]
    assert "though Chapter 1 is played at Incursion" in response.content.decode()


def test_the_phases_size_gives_no_warning(client):
    campaign, _, forces = _narrative(phases=1, forces=2, started=False)
    organiser = campaign.memberships.get(role="organiser").user
    services.advance_phase(actor=organiser, campaign=campaign)
    client.force_login(forces[0].player)

    response = client.post(
        reverse("battle_create"),
        {"force": forces[0].pk, "battle_size": "Incursion", "date": "2026-01-01"},
        follow=True,
    )

    assert not [m for m in response.context["messages"] if m.level_tag == "warning"]
    assert "though Chapter 1" not in response.content.decode()


def test_the_battle_page_says_what_each_side_scored(client):
    campaign, _, forces = _narrative(phases=1, forces=2)
    battle = Battle.objects.get()
    client.force_login(forces[0].player)

    html = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()

    assert "3 Campaign Points" in html and "0 Campaign Points" in html
    assert "<dt>Phase</dt><dd>1. Chapter 1</dd>" in html
