"""The campaign page's map: an SVG of hexes in their holders' colours, each a link to its
row of the table that says the same in words, as it stands now or at the end of a phase,
in the same number of queries however big the map and however many battles."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign import services
from campaign.models import Alliance, Battle, Campaign, CrusadeForce, Phase, Territory
from campaign.selectors.territories import NOBODY, _label, campaign_map
from tests.factories import make_battle, make_recorded_battle
from tests.maps.helpers import war

from .helpers import count_queries

pytestmark = pytest.mark.django_db


def page(client, w, **params) -> str:
    client.force_login(w.loyal.player)
    response = client.get(w.campaign.get_absolute_url(), params)
    assert response.status_code == 200
    return response.content.decode()


def svg(body: str) -> str:
    found = re.search(r'<svg class="map__svg".*?</svg>', body, re.S)
    assert found, "no map on the page"
    return found.group()


def test_it_draws_each_territory_as_a_hex_in_its_holders_colour_linked_to_its_row(client):
    w = war()
    body = page(client, w)
    drawn = svg(body)
    # Drawn at a fixed scale (names stay readable); a wide map scrolls in its frame.
    assert 'viewBox="0 0 200 104" width="320" height="166"' in drawn
    fills = re.findall(r'<a href="#(territory-[a-z-]+)">.*?fill="(#[0-9a-f]{6})"', drawn, re.S)
    assert fills == [
        ("territory-hive-vell", "#3366cc"),
        ("territory-ash-wastes", NOBODY),
        ("territory-moon", "#cc3333"),
    ]
    for anchor, _ in fills:
        assert f'<tr id="{anchor}">' in body
    assert "<script" not in drawn


def test_its_table_says_who_holds_each_territory_what_it_borders_and_its_battles(client):
    w = war()
    battle = make_recorded_battle(
        w.loyal, w.traitor, campaign=w.campaign, territory=w.territory("moon")
    )
    body = page(client, w)
    row = re.search(r'<tr id="territory-moon">.*?</tr>', body, re.S).group()
    assert "Imperium" in row
    assert '<a href="#territory-ash-wastes">Ash Wastes</a>' in row
    assert f'href="/battles/{battle.pk}/"' in row
    legend = re.search(r'<ul class="chart__legend map__legend">.*?</ul>', body, re.S).group()
    assert "Imperium" in legend and "Nobody" in legend and "Chaos" not in legend


def test_it_escapes_every_name_it_draws(client):
    w = war()
    Territory.objects.filter(key="moon").update(name='<script>alert("x")</script>')
    Alliance.objects.filter(pk=w.chaos.pk).update(name="<b>Chaos</b>")
    services.set_map_rules(actor=w.organiser, campaign=w.campaign, control_threshold=4)
    body = page(client, w)
    assert "<script>alert" not in body and "<b>Chaos" not in body
    assert "&lt;script&gt;" in body


def test_it_shows_the_map_as_it_stood_at_the_end_of_a_phase(client):
    w = war()
    first = Phase.objects.create(
        campaign=w.campaign, position=1, name="Landfall", started_at=timezone.now()
    )
    Campaign.objects.filter(pk=w.campaign.pk).update(current_phase=first)
    make_recorded_battle(w.loyal, w.traitor, campaign=w.campaign, territory=w.territory("moon"))
    Phase.objects.filter(pk=first.pk).update(ended_at=timezone.now())
    second = Phase.objects.create(
        campaign=w.campaign, position=2, name="Counterattack", started_at=timezone.now()
    )
    Campaign.objects.filter(pk=w.campaign.pk).update(current_phase=second)
    services.set_territory_holder(
        actor=w.organiser, territory=w.territory("moon"), alliance=w.chaos, reason="Retaken"
    )
    campaign = Campaign.objects.get(pk=w.campaign.pk)

    def holder(phase):
        view = campaign_map(campaign, phase)
        return next(h.holder for h in view.hexes if h.territory.key == "moon")

    assert holder(None) == w.chaos
    assert holder(2) == w.chaos
    assert holder(1) == w.imperium
    assert "As the map stood at the end of phase 1. Landfall" in page(client, w, phase=1)


def test_a_campaign_with_no_map_shows_none(client):
    w = war(with_map=False)
    assert "map__svg" not in page(client, w)


def big_war():
    """50 territories and 2,000 battles fought over them."""
    w = war()
    Territory.objects.filter(campaign=w.campaign).delete()
    territories = Territory.objects.bulk_create(
        Territory(
            campaign=w.campaign,
            key=f"t{i}",
            name=f"Territory {i}",
            column=i % 10,
            row=i // 10,
            held_by=(w.imperium, w.chaos, None)[i % 3],
        )
        for i in range(50)
    )
    through = Territory.neighbours.through
    through.objects.bulk_create(
        through(from_territory_id=a.pk, to_territory_id=b.pk)
        for a, b in zip(territories, territories[1:], strict=False)
    )
    start = datetime.date(2025, 1, 1)
    Battle.objects.bulk_create(
        Battle(
            campaign=w.campaign,
            territory=territories[i % 50],
            battle_size="Incursion",
            date=start + datetime.timedelta(days=i % 300),
            status=Battle.Status.COMPLETED,
        )
        for i in range(2000)
    )
    return w


def selector_queries(campaign, phase=None) -> int:
    with CaptureQueriesContext(connection) as queries:
        campaign_map(Campaign.objects.get(pk=campaign.pk), phase)
    return len(queries) - 1


@pytest.mark.parametrize("phase", [None, 1])
def test_it_draws_50_territories_and_2000_battles_in_the_same_queries_as_three(phase):
    small, big = war(), big_war()
    for w in (small, big):
        Phase.objects.create(campaign=w.campaign, position=1, name="One", started_at=timezone.now())
    assert selector_queries(big.campaign, phase) == selector_queries(small.campaign, phase)
    assert selector_queries(big.campaign, phase) <= 7
    view = campaign_map(Campaign.objects.get(pk=big.campaign.pk))
    assert len(view.hexes) == 50
    assert all(len(row.battles) == 3 and row.battle_count == 40 for row in view.rows)


def test_the_campaign_page_with_a_big_map_asks_the_same_queries(client):
    small, big = war(), big_war()
    make_recorded_battle(
        small.loyal, small.traitor, campaign=small.campaign, territory=small.territory("moon")
    )
    make_recorded_battle(big.loyal, big.traitor, campaign=big.campaign)
    client.force_login(small.loyal.player)
    few = count_queries(client, small.campaign.get_absolute_url())
    client.force_login(big.loyal.player)
    assert count_queries(client, big.campaign.get_absolute_url()) == few


# Start a battle over a territory


def start(client, w, force, **extra):
    client.force_login(force.player)
    data = {"force": force.pk, "battle_size": "Incursion", "date": "2025-05-01", **extra}
    return client.post(reverse("battle_create"), data)


def test_start_a_battle_offers_the_campaigns_territories_with_their_holders(client):
    w = war()
    client.force_login(w.loyal.player)
    body = client.get(reverse("battle_create")).content.decode()
    assert '<label for="id_territory"' in body
    assert "Hive Vell (held by Imperium;" in body and "Ash Wastes (held by nobody;" in body


def test_start_a_battle_has_no_territory_field_without_a_map(client):
    w = war(with_map=False)
    client.force_login(w.loyal.player)
    assert 'id="id_territory"' not in client.get(reverse("battle_create")).content.decode()


def test_a_battle_started_over_a_territory_links_to_it_on_the_map(client):
    w = war()
    moon = w.territory("moon")
    response = start(client, w, w.loyal, territory=moon.pk)
    battle = Battle.objects.get()
    assert response.status_code == 302 and battle.territory == moon
    body = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert f'href="/campaigns/{w.campaign.pk}/#territory-moon">The Moon</a>' in body


def test_a_battle_over_no_territory_leaves_the_map_as_it_was_and_one_over_a_territory_shows(
    client,
):
    """The map is cached under its newest battle over a territory (`selectors.versions`):
    a battle fought elsewhere, started or ended, does not build it again."""
    w = war()
    page(client, w)
    make_recorded_battle(w.loyal, w.traitor, campaign=w.campaign)

    with CaptureQueriesContext(connection) as queries:
        page(client, w)
    assert not any("ROW_NUMBER" in query["sql"] for query in queries.captured_queries)

    battle = make_battle(w.loyal, w.traitor, campaign=w.campaign, territory=w.territory("moon"))
    row = re.search(r'<tr id="territory-moon">.*?</tr>', page(client, w), re.S).group()
    assert f'href="/battles/{battle.pk}/"' in row


def test_a_territory_out_of_reach_is_refused_next_to_the_field(client):
    w = war(attack_from_held=True)
    CrusadeForce.objects.filter(pk=w.loyal.pk).update(alliance=None)
    response = start(client, w, w.loyal, territory=w.territory("moon").pk)
    assert response.status_code == 200
    field = response.context["form"]["territory"]
    assert "fights for no alliance" in field.errors[0]
    assert not Battle.objects.exists()


def test_another_campaigns_territory_is_refused(client):
    w, other = war(), war()
    response = start(client, w, w.loyal, territory=other.territory("moon").pk)
    assert response.status_code == 200
    assert response.context["form"]["territory"].errors
    assert not Battle.objects.exists()


def test_it_splits_a_long_name_over_two_lines_and_cuts_what_is_past_them():
    assert _label("Promethium Docks") == ["Promethium", "Docks"]
    assert _label("The Breach") == ["The Breach"]
    assert _label("Ashfall Reach of the Old Kings") == ["Ashfall", "Reach of t…"]
    assert _label("Supercalifragilistic") == ["Supercalif…"]


def test_the_map_offers_the_end_of_each_phase_that_is_over_only(client):
    w = war()
    done = Phase.objects.create(
        campaign=w.campaign,
        position=1,
        name="Landfall",
        started_at=timezone.now(),
        ended_at=timezone.now(),
    )
    Phase.objects.create(
        campaign=w.campaign, position=2, name="Counterattack", started_at=timezone.now()
    )
    body = page(client, w)
    assert f"End of {done}" in body
    assert "End of 2. Counterattack" not in body


def moon_row(body: str) -> str:
    found = re.search(r'<tr id="territory-moon">.*?</tr>', body, re.S)
    assert found, "no row for the Moon"
    return found.group()


def test_it_keeps_the_map_when_a_force_changes_and_reads_nothing_of_it_again(client):
    """The map is cached under its own version: a change to a force leaves it be."""
    w = war()
    before = page(client, w)
    services.update_force_details(actor=w.loyal.player, force=w.loyal, goals="Take the Moon")

    with CaptureQueriesContext(connection) as queries:
        again = page(client, w)

    assert svg(again) == svg(before)
    assert not any("campaign_territory" in q["sql"] for q in queries.captured_queries)


def test_it_shows_a_battle_over_a_territory_and_its_void_at_once(client):
    w = war()
    assert "none yet" in moon_row(page(client, w))

    start(client, w, w.loyal, territory=w.territory("moon").pk)
    battle = Battle.objects.get()
    started = moon_row(page(client, w))
    services.void_battle(actor=w.organiser, battle=battle, reason="Wrong table")
    voided = moon_row(page(client, w))

    assert f'href="/battles/{battle.pk}/"' in started
    assert "none yet" in voided


def test_it_shows_a_territory_handed_over_at_once(client):
    w = war()
    assert (
        "nobody"
        in re.search(r'<tr id="territory-ash-wastes">.*?</tr>', page(client, w), re.S).group()
    )

    services.set_territory_holder(
        actor=w.organiser, territory=w.territory("ash-wastes"), alliance=w.imperium, reason="Won"
    )
    row = re.search(r'<tr id="territory-ash-wastes">.*?</tr>', page(client, w), re.S).group()

    assert "Imperium" in row and "nobody" not in row
