"""R1.3: an Order of Battle over its Supply Limit says so, by how much, what it holds back
and how to bring it back (a force can get there when points start to count that did not,
such as an Enhancement's after an upgrade)."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db.models import F
from django.urls import reverse

from campaign.models import CrusadeForce
from tests.factories import make_campaign, make_character, make_force, make_unit

from .helpers import count_queries

pytestmark = pytest.mark.django_db


@pytest.fixture
def force():
    force = make_force(campaign=make_campaign(), name="Krieg 83rd")
    make_character(force, name="Commissar Vell", points=60)
    make_unit(force, name="1st Line Squad", points=940)
    return force


def over_by(force, points: int) -> None:
    """The stored totals past the limit, as an upgrade that starts counting points leaves
    them (no service call: nothing a player did)."""
    CrusadeForce.objects.filter(pk=force.pk).update(supply_limit=F("supply_used") - points)


def page(client, force) -> str:
    return client.get(reverse("force_detail", args=[force.pk])).content.decode()


def test_it_tells_the_player_by_how_much_the_force_is_over_and_what_to_do(client, force):
    client.force_login(force.player)
    assert 'id="over-supply"' not in page(client, force)

    over_by(force, 40)
    body = page(client, force)

    assert 'id="over-supply"' in body
    notice = body[body.index('id="over-supply"') :].split("</p>")[0]
    assert "40 points over its Supply Limit (1000 used of 960)" in notice
    assert "no new or imported units" in notice
    assert "Remove a unit, or buy Increase Supply Limit (it adds 200 points)" in notice


def test_it_shows_the_notice_to_other_members_too(client, force):
    over_by(force, 1)
    member = make_force(campaign=force.campaign).player
    client.force_login(member)

    assert "1 point over its Supply Limit" in page(client, force)


def test_it_costs_the_order_of_battle_no_query_more(client, force):
    client.force_login(force.player)
    url = reverse("force_detail", args=[force.pk])
    within = count_queries(client, url), count_queries(client, url)

    over_by(force, 40)
    for cache in caches.all():  # the units table is built again, then read from the cache
        cache.clear()
    over = count_queries(client, url), count_queries(client, url)

    assert over == within
    assert "over its Supply Limit" in page(client, force)
