"""The muster and record forms' boxes kept under the version of everything they show
(README "Caching"): opening a form again reads none of the army or the force's cards,
what it shows changes at the very next look, and its tokens are made for every look."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign import services
from campaign.once import FIELD

from .helpers import get_with_sql, muster, record, texts

pytestmark = pytest.mark.django_db

ARMY = "campaign_battleunit"


def form_of(table) -> str:
    return reverse("army_record", args=[table.mine.pk])


look = get_with_sql


def boxes(response) -> str:
    html = response.content.decode()
    return html[html.index('class="record"') : html.index('class="actions"')]


def tokens(response) -> list[str]:
    html = response.content.decode()
    names = ("csrfmiddlewaretoken", FIELD)
    return [
        value for name in names for value in re.findall(rf'name="{name}" value="([^"]+)"', html)
    ]


def test_opening_the_form_again_reads_none_of_the_army(client, table):
    client.force_login(table.owner)
    first, first_sql = look(client, form_of(table))
    again, again_sql = look(client, form_of(table))

    assert first.status_code == again.status_code == 200
    assert any(ARMY in sql for sql in first_sql)
    assert not any(ARMY in sql for sql in again_sql)
    after_tokens = [
        boxes(response).split(FIELD, 1)[1].split(">", 1)[1] for response in (first, again)
    ]
    assert after_tokens[0] == after_tokens[1]
    assert f'id="record-unit-{table.mine.army.get(unit=table.squad).pk}"' in boxes(again)


def test_its_tokens_are_new_at_every_look(client, table):
    client.force_login(table.owner)
    first, _ = look(client, form_of(table))
    again, _ = look(client, form_of(table))

    assert len(set(tokens(first))) == len(set(tokens(again))) == 2  # CSRF, once
    assert set(tokens(first)).isdisjoint(tokens(again))


def test_a_card_renamed_shows_at_the_next_look(client, table):
    client.force_login(table.owner)
    look(client, form_of(table))
    services.update_unit_details(actor=table.owner, unit=table.squad, name="Squad Renamed")

    response, _ = look(client, form_of(table))

    assert "Squad Renamed" in boxes(response)


def test_what_the_side_recorded_shows_when_it_opens_the_form_again(client, table):
    client.force_login(table.owner)
    look(client, form_of(table))
    entry = table.mine.army.get(unit=table.squad)
    outcomes = {entry.pk: services.UnitOutcome(destroyed=True, enemy_units_destroyed=3)}
    services.record_side(actor=table.owner, participant=table.mine, result="win", outcomes=outcomes)

    response, _ = look(client, form_of(table))

    assert f'name="kills_{entry.pk}" value="3"' in boxes(response)


def test_a_battle_over_refuses_the_form_at_every_look(client, table):
    client.force_login(table.owner)
    look(client, form_of(table))
    record(table)

    for _ in range(2):
        response, sql = look(client, form_of(table))
        assert response.status_code == 302
        assert response.url == table.battle.get_absolute_url()
        assert texts(response)

    assert not any(ARMY in query for query in sql)  # the refusal is kept too


# The muster form

CARDS = '"campaign_unit"'


def muster_form_of(table) -> str:
    return reverse("army_muster", args=[table.mine.pk])


def test_opening_the_muster_form_again_reads_none_of_the_cards(client, unmustered):
    client.force_login(unmustered.owner)
    first, first_sql = look(client, muster_form_of(unmustered))
    again, again_sql = look(client, muster_form_of(unmustered))

    assert first.status_code == again.status_code == 200
    assert any(CARDS in sql for sql in first_sql)
    assert not any(CARDS in sql for sql in again_sql)
    assert unmustered.squad.name in again.content.decode()
    assert len(set(tokens(again))) == 2
    assert set(tokens(first)).isdisjoint(tokens(again))


def test_the_muster_form_shows_a_card_renamed_and_the_army_mustered(client, unmustered):
    client.force_login(unmustered.owner)
    look(client, muster_form_of(unmustered))
    services.update_unit_details(actor=unmustered.owner, unit=unmustered.squad, name="New Squad")
    renamed, _ = look(client, muster_form_of(unmustered))
    muster(unmustered.mine, [unmustered.captain])

    mustered, _ = look(client, muster_form_of(unmustered))

    assert "New Squad" in renamed.content.decode()
    assert mustered.context["boxes"] != renamed.context["boxes"]  # ticked
    assert (
        f'<option value="{unmustered.captain.pk}" selected>' in mustered.context["boxes"]
    )  # Warlord
