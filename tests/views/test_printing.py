"""Crusade cards to print: every active unit of a force, for anyone who may see it."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from campaign import services
from tests.factories import make_character, make_force, make_unit

from .helpers import count_queries

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "static"


def cards_on(response) -> list[str]:
    return [card.unit.name for card in response.context["sheet"].cards]


def test_it_shows_every_active_unit_of_the_force_as_a_card(client, owner, force):
    captain = make_character(force, name="Captain Tycho", wargear="Relic blade")
    make_unit(force, name="Assault Squad")
    fallen = make_unit(force, name="Scout Squad")
    services.remove_unit(actor=owner, unit=fallen, reason="Lost at the Shrine Gate")
    captain.honours.create(category="battle_trait", name="Headhunters", effect="Deadlier.")
    captain.scars.create(name="Fatigued", effect="Slower.")
    client.force_login(owner)

    response = client.get(reverse("force_print", args=[force.pk]))

    assert response.status_code == 200
    assert cards_on(response) == ["Assault Squad", "Captain Tycho"]
    body = response.content.decode()
    assert body.count('class="paper-card"') == 2
    for text in ["Relic blade", "Headhunters", "Deadlier.", "Fatigued", "Slower.", force.name]:
        assert text in body
    assert "Scout Squad" not in body


def test_it_lets_another_member_of_the_campaign_print_the_cards(client, member, force, unit):
    client.force_login(member)

    response = client.get(reverse("force_print", args=[force.pk]))

    assert cards_on(response) == ["Squad Alpha"]


def test_it_says_when_there_is_nothing_to_print(client, owner, force):
    client.force_login(owner)

    response = client.get(reverse("force_print", args=[force.pk]))

    assert "nothing to print" in response.content.decode()


def test_it_links_the_cards_to_print_from_the_order_of_battle(client, owner, force):
    client.force_login(owner)

    body = client.get(reverse("force_detail", args=[force.pk])).content.decode()

    assert f'href="{reverse("force_print", args=[force.pk])}"' in body


def test_it_prints_the_cards_in_the_same_number_of_queries_for_5_and_60_units(client, owner):
    small, big = (make_force(player=owner, name=f"Force of {n}") for n in (5, 60))
    for force, size in ((small, 5), (big, 60)):
        for i in range(size):
            unit = make_unit(force, name=f"Unit {i:03}", points=5)
            unit.honours.create(category="battle_trait", name="Headhunters")
            unit.scars.create(name="Fatigued")
        hero = make_character(force, name="Hero")
        services.renowned_heroes(
            actor=owner, unit=hero, enhancement="Drill Commander", enhancement_points=20
        )
    client.force_login(owner)

    assert count_queries(client, reverse("force_print", args=[small.pk])) == count_queries(
        client, reverse("force_print", args=[big.pk])
    )


def test_it_builds_the_cards_once_and_shows_a_renamed_card_at_once(client, owner, force):
    """The cards are cached under the force's revision, which every change moves on."""
    make_unit(force, name="Assault Squad")
    client.force_login(owner)
    url = reverse("force_print", args=[force.pk])

    first, again = count_queries(client, url), count_queries(client, url)
    squad = force.units.get(name="Assault Squad")
    services.update_unit_details(actor=owner, unit=squad, name="Vanguard Squad")
    body = client.get(url).content.decode()

    assert again < first
    assert "Vanguard Squad" in body and "Assault Squad" not in body


def test_it_links_the_print_stylesheet_for_paper_only(client):
    body = client.get(reverse("home")).content.decode()

    assert 'href="/static/css/print.css" media="print"' in body


def test_it_sets_the_page_margins_but_never_the_paper_size():
    """The same stylesheet prints on A4 and on Letter: the printer's paper decides."""
    css = (STATIC / "css" / "print.css").read_text()

    assert "@page" in css and "margin: 12mm" in css
    assert not re.search(r"(^|[;{\s])size\s*:", css)
