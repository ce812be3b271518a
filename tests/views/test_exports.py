"""Taking a force out (a Crusade export, or text for a chat) and restoring an export."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign import documents, rules, selectors, services
from campaign.models import CrusadeForce
from campaign.rosters import parse_roster
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user
from tests.services.veterans import veteran_force

from .helpers import count_queries, texts

pytestmark = pytest.mark.django_db


def test_it_downloads_the_whole_force_as_a_versioned_crusade_export(client):
    force = veteran_force()
    client.force_login(force.player)

    response = client.get(reverse("force_export", args=[force.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert (
        response["Content-Disposition"] == 'attachment; filename="13th-siege-regiment-crusade.json"'
    )
    document = json.loads(response.content)
    assert (document["format"], document["version"]) == ("crusade-force", 2)
    assert document["force"]["name"] == force.name
    assert {unit["name"] for unit in document["units"]} == set(
        force.units.values_list("name", flat=True)
    )
    assert document["history"], "the download carries the history"


def test_it_exports_a_bigger_force_in_the_same_number_of_queries(client):
    force = veteran_force()
    client.force_login(force.player)
    url = reverse("force_export", args=[force.pk])
    before = count_queries(client, url)
    services.correct_force(actor=force.player, force=force, reason="room", supply_limit=3000)
    for index in range(10):
        make_unit(force, name=f"Reinforcements {index}", points=50)

    assert count_queries(client, url) == before


def test_it_exports_a_longer_history_in_the_same_number_of_queries(client):
    force = veteran_force()
    client.force_login(force.player)
    url = reverse("force_export", args=[force.pk])
    before = count_queries(client, url)
    for index in range(20):
        services.correct_force(
            actor=force.player, force=force, reason="room", supply_limit=3000 + index
        )

    assert count_queries(client, url) == before


def test_it_writes_one_history_row_a_line_and_reads_back_as_it_was_signed(client):
    force = veteran_force()
    client.force_login(force.player)

    body = client.get(reverse("force_export", args=[force.pk])).content.decode()
    document = json.loads(body)

    assert documents.verified(document)
    assert len(document["history"]) == force.history.count()
    rows = [
        json.loads(line.strip().rstrip(","))
        for line in body.splitlines()[1:-1]
        if line.startswith("    {")
    ]
    assert all(entry in rows for entry in document["history"])


def test_the_file_written_in_one_encoding_is_the_document_signed_as_sign_signs_it():
    """The download encodes each row once for both the file and the signature: the file
    must read back as exactly what `documents.sign` makes of the same document."""
    document = selectors.force_document(veteran_force(), history=True, signed=False)

    read_back = json.loads(documents.signed_file(document))

    assert read_back == documents.sign(document, plain=True)
    assert documents.verified(read_back)
    read_back["history"][0]["summary"] += "!"
    assert not documents.verified(read_back), "the signature covers every row"


def test_it_lets_another_member_of_the_campaign_take_a_copy(client):
    """Exporting is reading: whoever may see the force may download it."""
    force = veteran_force()
    member = make_user()
    services.join_campaign(actor=member, user=member, campaign=force.campaign)
    client.force_login(member)

    assert client.get(reverse("force_export", args=[force.pk])).status_code == 200
    assert client.get(reverse("force_export_text", args=[force.pk])).status_code == 200


def test_it_links_the_exports_and_the_import_from_the_order_of_battle(client):
    force = veteran_force()
    client.force_login(force.player)

    page = client.get(reverse("force_detail", args=[force.pk])).content.decode()

    for name in ("force_export", "force_export_text", "force_import_units"):
        assert reverse(name, args=[force.pk]) in page


# --------------------------------------------------------------------------- text


def chat_force():
    force = make_force(name="Iron Oath", faction="Adeptus Astartes")
    services.correct_force(actor=force.player, force=force, reason="big", supply_limit=2000)
    captain = make_character(
        force, name="Captain Varro", points=80, wargear="Power sword, Bolt pistol"
    )
    services.renowned_heroes(
        actor=force.player, unit=captain, enhancement="Artificer Armour", enhancement_points=10
    )
    make_unit(
        force, name="Squad Helix", datasheet="Intercessor Squad", points=80, is_battleline=True
    )
    make_unit(force, name="Rhino", datasheet="Rhino", points=75, is_dedicated_transport=True)
    make_unit(force, name="Redemptor", datasheet="Redemptor Dreadnought", points=210)
    make_unit(force, name="Servitors", points=0, counts_towards_supply=False)
    gone = make_unit(force, name="Gone Squad", points=90)
    services.remove_unit(actor=force.player, unit=gone, reason="lost")
    return force


def test_it_writes_the_order_of_battle_in_the_official_apps_layout_with_a_crusade_line(client):
    force = chat_force()
    client.force_login(force.player)

    response = client.get(reverse("force_export_text", args=[force.pk]))

    text = response.content.decode()
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert text.startswith("Iron Oath (455 Points)\n\nAdeptus Astartes\nIncursion (1000 Points)\n")
    assert text.index("CHARACTERS") < text.index("BATTLELINE") < text.index("DEDICATED TRANSPORTS")
    assert text.index("DEDICATED TRANSPORTS") < text.index("OTHER DATASHEETS")
    assert (
        "Captain Varro (90 Points)\n  • Datasheet: Captain\n  • Enhancements: Artificer Armour\n"
        in text
    )
    rank = rules.Rank.BATTLE_READY.label
    assert f"  • Crusade: {rank} · 0 XP · 0 Crusade points · CHARACTER, INFANTRY\n" in text
    assert "Gone Squad" not in text


def test_it_writes_text_the_importer_reads_back_to_the_same_units_and_points():
    force = chat_force()

    roster = parse_roster(selectors.force_text(force))

    active = force.units.active()
    assert roster.format == "wh40k-app-text" and roster.faction == "Adeptus Astartes"
    assert sorted((u.name, u.points) for u in roster.units) == sorted(
        active.values_list("name", "points")
    )
    assert roster.total_points == sum(active.values_list("points", flat=True))
    varro = next(u for u in roster.units if u.name == "Captain Varro")
    assert (varro.character, varro.enhancement) == (True, "Artificer Armour")
    assert next(u for u in roster.units if u.name == "Rhino").dedicated_transport


def test_it_reads_back_a_veteran_forces_honours_and_scars_from_its_text():
    force = veteran_force()

    text = selectors.force_text(force)
    roster = parse_roster(text)

    assert sorted(u.name for u in roster.units) == ["Lord Commissar Vell", "Squad Keller"]
    assert "Honours: Natural Leader, Master-crafted Armour, Power fist: Brutal and Precise" in text
    assert "Scars: Deep Scars" in text
    assert "Detachment" not in text and "Crusade detachment" in text


# --------------------------------------------------------------------------- restore


def restore_page(client, player, raw: bytes, **data):
    upload = SimpleUploadedFile("export.json", raw, content_type="application/json")
    return client.post(reverse("force_restore"), {"file": upload, **data})


def test_it_restores_a_downloaded_export_as_a_new_force_of_the_player(client):
    force = veteran_force()
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=force.campaign)
    client.force_login(player)
    raw = documents.dumps(selectors.force_document(force, history=True)).encode()

    response = restore_page(client, player, raw, campaign=force.campaign.pk, name="Brought back")

    restored = CrusadeForce.objects.get(name="Brought back")
    assert response.status_code == 302 and response["Location"] == restored.get_absolute_url()
    assert (restored.player, restored.campaign, restored.unit_count) == (
        player,
        force.campaign,
        2,
    )
    [message] = texts(response)
    assert message.startswith("Brought back is restored: 2 units, 155 of 1200 points.")
    assert "a verified export of this server" in message
    assert "needs the organiser's approval" in message, "another player's force waits"


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"not json at all", "isn&#x27;t JSON"),
        (b'{"format": "crusade-force", "version": 7}', "reads versions 1 and 2"),
        (b'{"format": "new-recruit"}', "isn&#x27;t a Crusade export"),
    ],
)
def test_it_shows_why_a_file_cannot_be_restored_next_to_the_file(client, raw, message):
    player = make_user()
    client.force_login(player)

    response = restore_page(client, player, raw)

    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_file_error"' in page and message in page
    assert not CrusadeForce.objects.exists()


def test_it_refuses_a_campaign_the_player_is_not_in_next_to_the_campaign(client):
    force = veteran_force()
    player = make_user()
    client.force_login(player)
    raw = documents.dumps(selectors.force_document(force)).encode()

    response = restore_page(client, player, raw, campaign=make_campaign().pk)

    assert response.status_code == 400
    assert 'id="id_campaign_error"' in response.content.decode()
