"""The Crusade card keeps its long parts that hold no form (its details and XP chart)
under its force's revision: looking again builds them from the cache, and a change shows
at once."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.urls import reverse

from campaign import services
from tests.factories import make_campaign, make_character, make_force, make_unit

from .helpers import count_queries, fight_alone

pytestmark = pytest.mark.django_db


@pytest.fixture
def force():
    force = make_force(campaign=make_campaign(), name="Krieg 83rd")
    make_character(force, name="Commissar Vell")
    make_unit(force, name="1st Line Squad", points=65)
    return force


def card_url(unit) -> str:
    return reverse("unit_detail", args=[unit.pk])


def test_it_builds_the_cards_details_once_and_shows_an_edit_at_once(client, force):
    squad = force.units.get(name="1st Line Squad")
    client.force_login(force.player)
    url = card_url(squad)

    first, again = count_queries(client, url), count_queries(client, url)
    services.update_unit_details(actor=force.player, unit=squad, notes="Lasguns and a flamer")
    page = client.get(url).content.decode()

    assert again < first
    assert "Lasguns and a flamer" in page


def test_it_shows_a_battles_xp_on_the_card_at_once(client, force):
    units = list(force.units.order_by("-is_character"))  # the CHARACTER leads as Warlord
    squad = next(u for u in units if not u.is_character)
    client.force_login(force.player)
    url = card_url(squad)
    assert "XP over its battles" not in client.get(url).content.decode()

    fight_alone(force, units)
    page = client.get(url).content.decode()

    assert "XP over its battles" in page
    assert f'href="{reverse("battle_detail", args=[force.battle_entries.get().battle_id])}"' in page


def test_it_asks_the_same_number_of_queries_whatever_the_number_of_battles(client, force):
    units = list(force.units.order_by("-is_character"))
    squad = next(u for u in units if not u.is_character)
    client.force_login(force.player)
    url = card_url(squad)
    fight_alone(force, units)
    for cache in caches.all():
        cache.clear()
    one_first, one_again = count_queries(client, url), count_queries(client, url)
    for _ in range(4):
        fight_alone(force, units)
    for cache in caches.all():
        cache.clear()
    many_first, many_again = count_queries(client, url), count_queries(client, url)

    assert (one_first, one_again) == (many_first, many_again)
    assert one_again < one_first


def test_it_shows_whom_and_what_a_history_row_names(client, force):
    squad = force.units.get(name="1st Line Squad")
    services.update_unit_details(actor=force.player, unit=squad, notes="Dug in")
    client.force_login(force.player)

    card = client.get(card_url(squad)).content.decode()
    history = client.get(reverse("force_history", args=[force.pk])).content.decode()

    assert f"· {force.player.username}</p>" in card
    assert f'<a href="{card_url(squad)}">1st Line Squad</a>' in history
    assert f'<a href="{card_url(squad)}">' not in card.split('class="timeline"')[1]
