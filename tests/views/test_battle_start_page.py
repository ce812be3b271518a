"""The start-a-battle page at a league's size: its opponents and territories are written
from plain values, in the same number of queries however many forces there are."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_campaign, make_force, make_user

from .helpers import count_queries

pytestmark = pytest.mark.django_db


def _league(opponents: int):
    campaign = make_campaign()
    player = make_user()
    mine = make_force(player=player, campaign=campaign, name="Krieg 83rd")
    for index in range(opponents):
        make_force(campaign=campaign, name=f"Opponent {index:03} <&>")
    return player, mine


def test_it_lists_30_opponents_in_the_same_number_of_queries_as_3(client):
    small_player, _ = _league(3)
    big_player, _ = _league(30)
    url = reverse("battle_create")

    client.force_login(small_player)
    small = count_queries(client, url)
    client.force_login(big_player)
    big = count_queries(client, url)
    body = client.get(url).content.decode()

    assert small == big
    assert body.count('<input type="checkbox" name="opponents"') == 30
    assert "Opponent 000 &lt;&amp;&gt;" in body and "<&>" not in body


def test_it_keeps_the_opponents_ticked_when_the_form_comes_back_with_an_error(client):
    player, mine = _league(2)
    other = mine.campaign.forces.exclude(pk=mine.pk).order_by("name").first()
    client.force_login(player)

    response = client.post(
        reverse("battle_create"),
        {"force": mine.pk, "battle_size": "Incursion", "date": "", "opponents": [other.pk]},
    )

    body = response.content.decode()
    assert response.status_code == 200
    assert f'value="{other.pk}" id="id_opponents_0" checked>' in body
    assert 'id="id_opponents_1">' in body
