"""The campaign page of a narrative campaign costs the same queries however much story it
has: phases, alliances, a map and its log, each read in a fixed number of queries, and
none once the page is cached (the issue's "constant number of queries")."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.urls import reverse

from campaign import services
from campaign.maps.grid import Place, grid_map
from tests.factories import (
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_user,
)

from .helpers import count_queries

pytestmark = pytest.mark.django_db


def _story(*, phases: int, columns: int, entries: int, battles: int):
    """A campaign with ``phases`` phases (all started), two alliances, a map of ``columns``
    x 5 territories, ``battles`` battles fought over them and ``entries`` log entries."""
    organiser = make_user(is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Vigilus")
    for n in range(1, phases + 1):
        services.define_phase(actor=organiser, campaign=campaign, name=f"Chapter {n}")
    red, blue = (
        services.define_alliance(actor=organiser, campaign=campaign, name=name, colour=colour)
        for name, colour in (("Red Host", "#aa2222"), ("Blue Pact", "#2222aa"))
    )
    places = [
        Place(f"t-{c}-{r}", f"Sector {c}-{r}", c, r, held_by="Red Host" if c == r else "")
        for c in range(columns)
        for r in range(5)
    ]
    services.import_map(actor=organiser, campaign=campaign, data=grid_map(places, name="Vigilus"))
    territories = list(campaign.territories.order_by("pk"))

    def pair(n: int):
        """Two new forces, one of each alliance (a veteran would wait on its promotion)."""
        forces = []
        for name, alliance in ((f"Loyal {n}", blue), (f"Traitor {n}", red)):
            force = make_force(player=make_user(), campaign=campaign, name=name)
            make_character(force)
            services.choose_alliance(actor=force.player, force=force, alliance=alliance)
            force.refresh_from_db()
            forces.append(force)
        return forces

    for n in range(phases):
        services.advance_phase(actor=organiser, campaign=campaign)
        for b in range(battles // phases):
            loyal, traitor = pair(n * 100 + b)
            make_recorded_battle(
                loyal,
                traitor,
                campaign=campaign,
                territory=territories[(n * 7 + b) % len(territories)],
            )
    for n in range(entries):
        services.write_log_entry(
            actor=loyal.player, campaign=campaign, title=f"Day {n}", text="**Held.** Again."
        )
    return campaign, loyal.player


def _queries(client, campaign, player, **params) -> tuple[int, int]:
    """Queries of the page looked at first (nothing cached) and again (cached)."""
    caches["template_fragments"].clear()
    client.force_login(player)
    url = reverse("campaign_detail", args=[campaign.pk])
    return count_queries(client, url, **params), count_queries(client, url, **params)


@pytest.mark.parametrize("params", [{}, {"phase": "1"}])
def test_the_page_asks_the_same_queries_with_a_big_story_as_with_a_small_one(client, params):
    small = _story(phases=1, columns=1, entries=1, battles=1)
    big = _story(phases=5, columns=10, entries=30, battles=10)

    assert _queries(client, *big, **params) == _queries(client, *small, **params)


def test_the_big_story_is_on_the_page(client):
    campaign, player = _story(phases=5, columns=10, entries=30, battles=10)
    client.force_login(player)
    body = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()

    assert body.count('class="map__hex"') == 50
    assert "Chapter 5" in body and "Blue Pact" in body
    assert "<strong>Held.</strong>" in body or "Day 29" in body
