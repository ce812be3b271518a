"""A restored force's pages say where it came from, and why it waits, in no more queries
than any force's."""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse

from campaign import documents, selectors, services
from tests.factories import make_user
from tests.services.veterans import veteran_force

from .helpers import count_queries, texts
from .test_exports import restore_page

pytestmark = pytest.mark.django_db


def exported(force, **kwargs) -> dict:
    return json.loads(documents.dumps(selectors.force_document(force, **kwargs)))


def restored(client, document: dict, *, player=None, force):
    player = player or force.player
    if not force.campaign.memberships.filter(user=player).exists():
        services.join_campaign(actor=player, user=player, campaign=force.campaign)
    client.force_login(player)
    raw = documents.dumps(document).encode()
    response = restore_page(client, player, raw, campaign=force.campaign.pk, name="Restored")
    assert response.status_code == 302
    return player.forces.get(name="Restored"), response


def edited(document: dict) -> dict:
    document = copy.deepcopy(document)
    document["force"]["vendettas"] = "Everyone"
    return document


def test_it_shows_on_the_order_of_battle_where_the_force_came_from_and_why_it_waits(client):
    force = veteran_force()
    copy_, response = restored(client, edited(exported(force)), force=force)

    page = client.get(copy_.get_absolute_url()).content.decode()

    assert "needs the organiser's approval" in " ".join(texts(response))
    assert 'id="provenance"' in page
    assert f"Restored from 13th Siege Regiment of {force.player.username}" in page
    assert "a file this server can&#x27;t vouch for" in page
    assert "Awaiting the organiser's approval." in page


def test_it_shows_on_each_crusade_card_where_it_came_from(client):
    force = veteran_force()
    copy_, _ = restored(client, exported(force), force=force)
    unit = copy_.units.get(name="Squad Keller")

    page = client.get(reverse("unit_detail", args=[unit.pk])).content.decode()

    assert "This card came with its force. Restored from 13th Siege Regiment" in page
    assert "a verified export of this server" in page
    assert "Awaiting" not in page


def test_it_shows_the_approval_and_its_reason_at_once(client):
    force = veteran_force()
    copy_, _ = restored(client, edited(exported(force)), force=force)
    url = copy_.get_absolute_url()
    client.get(url)
    organiser = force.campaign.memberships.get(role="organiser").user

    services.approve_restored_force(actor=organiser, force=copy_, reason="Checked the paper")

    page = client.get(url).content.decode()
    assert "Approved by an organiser" in page and "Checked the paper" in page


def test_it_reads_a_restored_forces_order_of_battle_in_the_force_s_own_query(client):
    """As many queries as any force's page (tests/views/test_page_cache.py): the session with
    its user, and the force with its provenance."""
    force = veteran_force()
    copy_, _ = restored(client, edited(exported(force)), force=force)
    url = copy_.get_absolute_url()
    count_queries(client, url)

    assert count_queries(client, url) == 2


def test_it_marks_imported_history_rows_in_the_history_list(client):
    force = veteran_force()
    copy_, _ = restored(client, exported(force, history=True), force=force)

    page = client.get(reverse("force_history", args=[copy_.pk])).content.decode()

    assert "imported from a Crusade export, where it is dated" in page
    assert f"and names {force.player.username}" in page


def test_it_asks_for_approval_when_another_player_restores_a_force(client):
    force = veteran_force()
    copy_, response = restored(client, exported(force), player=make_user(), force=force)

    assert copy_.restored_from.blocks_play
    assert any("needs the organiser" in text for text in texts(response))


@pytest.mark.parametrize(
    "change, verified",
    [
        (lambda d: d, True),
        (edited, False),
        (lambda d: {k: v for k, v in d.items() if k != "signature"}, False),
    ],
    ids=["untouched", "edited", "unsigned"],
)
def test_it_tells_the_player_whether_the_file_was_a_verified_export(client, change, verified):
    force = veteran_force()
    copy_, response = restored(client, change(exported(force)), force=force)

    [message] = texts(response)
    assert ("a verified export of this server" in message) is verified
    assert ("needs the organiser's approval" in message) is not verified
    assert copy_.restored_from.verified is verified


def test_it_tells_the_player_why_a_force_awaiting_approval_cannot_buy_a_requisition(client):
    force = veteran_force()
    copy_, _ = restored(client, edited(exported(force)), force=force)
    url = reverse("force_requisition", args=[copy_.pk, "increase_supply_limit"])

    plain = client.post(url)
    htmx = client.post(url, headers={"HX-Request": "true"})

    assert plain.status_code == 302
    assert any("needs the organiser's approval" in text for text in texts(plain))
    assert htmx.status_code == 400
    assert "needs the organiser&#x27;s approval" in htmx.content.decode()
    copy_.refresh_from_db()
    assert copy_.supply_limit == 1200


def test_it_refuses_to_start_a_battle_with_a_force_awaiting_approval_next_to_it(client):
    force = veteran_force()
    copy_, _ = restored(client, edited(exported(force)), force=force)
    data = {"force": copy_.pk, "battle_size": "Incursion", "date": "2026-05-01"}

    response = client.post(reverse("battle_create"), data)

    assert response.status_code == 200, "the form again, as for the page's other refusals"
    assert 'id="id_force_error"' in response.content.decode()
    assert "needs the organiser&#x27;s approval" in response.content.decode()
    assert not copy_.battle_entries.exists()
