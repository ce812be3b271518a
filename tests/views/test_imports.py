"""The import pages: a list in, a preview to correct, one confirm (R1.3, R2, R6.2)."""

from __future__ import annotations

import base64
import re
import time
from pathlib import Path

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign import documents, rules, selectors, services
from campaign.forms.imports import SALT, unseal
from campaign.models import CrusadeForce, HistoryEntry, Unit
from campaign.rosters import ACCEPTED, MAX_BYTES
from tests.factories import make_campaign, make_force, make_unit, make_user

from .helpers import texts
from .test_accessibility import _unlabelled

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[1] / "rosters" / "samples"
WOLVES = SAMPLES / "app-text/space-wolves-boop.txt"
PLAGUE = SAMPLES / "app-text/death-guard-plague-wall-annotated.txt"
HERO = rules.Requisition.RENOWNED_HEROES.label


@pytest.fixture
def player(client):
    """A signed-in player in one campaign (rulebook house rules)."""
    user = make_user("importer")
    campaign = make_campaign(name="Vigilus")
    services.join_campaign(actor=user, user=user, campaign=campaign)
    client.force_login(user)
    user.campaign = campaign
    return user


def upload(path: Path) -> SimpleUploadedFile:
    return SimpleUploadedFile(path.name, path.read_bytes())


def preview(client, path: Path, url: str | None = None):
    response = client.post(url or reverse("force_import"), {"file": upload(path)})
    assert response.status_code == 200, response.content.decode()[:500]
    return response


def token(response) -> str:
    return re.search(r'name="roster" value="([^"]+)"', response.content.decode()).group(1)


def answers(response) -> dict[str, object]:
    """What the preview's form sends back as shown (every ticked box, every value)."""
    html = response.content.decode()
    data: dict[str, object] = {"roster": token(response)}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) in {"csrfmiddlewaretoken", "roster"}:
            continue
        kind = re.search(r'type="([^"]+)"', tag).group(1)
        if kind == "checkbox":
            if " checked" in tag:
                data[name.group(1)] = "on"
        else:
            value = re.search(r'value="([^"]*)"', tag)
            data[name.group(1)] = value.group(1) if value else ""
    for select in re.findall(r'<select name="([^"]+)".*?</select>', html, re.S):
        chosen = re.search(
            rf'<select name="{select}".*?<option value="([^"]*)" selected', html, re.S
        )
        data[select] = chosen.group(1) if chosen else ""
    return data


def wolf_lords(client, **enhancement_points: str) -> dict:
    """The Space Wolves list with only its seven CHARACTERS ticked (435 + 95 + 125 points),
    and the Enhancements' points typed where given (``{"5": "15"}`` for unit 5)."""
    data = answers(preview(client, WOLVES))
    for index in range(7, 14):
        data.pop(f"unit-{index}-keep")
    for index, points in enhancement_points.items():
        data[f"unit-{index.lstrip('u')}-enhancement_points"] = points
    return data


def refused_page(response, *parts: str) -> str:
    """The preview again (400) saying each of ``parts``, with nothing saved."""
    page = response.content.decode()
    assert response.status_code == 400
    for part in parts:
        assert part in page
    assert not CrusadeForce.objects.exists() and not Unit.objects.exists()
    return page


def confirm(client, data: dict, url: str | None = None):
    return client.post(url or reverse("force_import"), {**data, "confirm": "1"})


# --------------------------------------------------------------------------- the list


def test_it_offers_a_file_or_pasted_text_and_names_the_formats_it_reads(client, player):
    response = client.get(reverse("force_import"))

    page = response.content.decode()
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in page
    assert "Army list file" in page and "Or paste the list" in page
    assert escape(ACCEPTED) in page
    assert reverse("force_restore") in page


def test_it_tells_what_file_it_cannot_read_naming_the_formats_it_accepts(client, player):
    notes = SimpleUploadedFile("notes.pdf", b"%PDF-1.4 not an army list at all\n")

    response = client.post(reverse("force_import"), {"file": notes})

    assert response.status_code == 400
    assert "notes.pdf isn&#x27;t an army list it can read" in response.content.decode()
    assert "BattleScribe .ros/.rosz" in response.content.decode()


def test_it_refuses_a_file_over_1_mb_before_reading_it(client, player):
    big = SimpleUploadedFile("huge.txt", b"Squad (100 Points)\n" * (MAX_BYTES // 18))

    response = client.post(reverse("force_import"), {"file": big})

    assert response.status_code == 400
    assert "huge.txt is over 1 MB" in response.content.decode()


def test_it_sends_a_crusade_export_to_the_restore_page(client, player):
    force = make_force(player=player)
    export = documents.dumps(selectors.force_document(force)).encode()

    response = client.post(
        reverse("force_import"), {"file": SimpleUploadedFile("mine.json", export)}
    )

    assert response.status_code == 400
    assert "This is a Crusade export, not an army list" in response.content.decode()


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=2_000))
def test_it_answers_any_bytes_with_a_preview_or_a_form_error_never_a_500(client, player, data):
    response = client.post(
        reverse("force_import"), {"file": SimpleUploadedFile("x.bin", data or b" ")}
    )

    assert response.status_code in {200, 400}


def test_it_reads_a_pasted_list_like_a_file(client, player):
    response = client.post(reverse("force_import"), {"text": PLAGUE.read_text()})

    assert response.status_code == 200
    assert "Plague Marines 2" in response.content.decode()


# --------------------------------------------------------------------------- the preview


def test_it_previews_every_unit_with_points_flags_supply_rp_and_what_the_file_left_out(
    client, player
):
    """R1.3, R6.2: Supply Used against the Supply Limit, the Enhancements' RP."""
    response = preview(client, WOLVES)

    page = response.content.decode()
    for name in ("Bjorn the Fell-Handed", "Thunderwolf Cavalry 2", "Thunderwolf Cavalry 3"):
        assert f'value="{name}"' in page
    assert "240 pts" in page
    assert 'id="id_unit-0-is_character" checked' in page
    assert 'id="id_unit-7-is_character" checked' not in page
    assert 'class="import__supply-used">1985</strong> of 1000 points' in page
    assert "985 over" in page
    assert f"each bought with {HERO}" in page
    assert "1RP + 2RP = 3RP" in page
    assert "The file doesn&#x27;t give Enhancement costs" in page
    assert "The file didn't say: EPIC HERO, INFANTRY, MOUNTED, VEHICLE, MONSTER" in page
    assert "Points of Portents of Wisdom" in page
    assert not CrusadeForce.objects.exists()


def test_it_labels_every_control_of_the_preview(client, player):
    unlabelled, untabbable = _unlabelled(preview(client, WOLVES).content.decode())

    assert unlabelled == [] and untabbable == []


def test_it_follows_the_boxes_in_the_live_summary(client, player):
    """R1.3: unticking units lowers Supply Used; the summary alone comes back for htmx."""
    data = answers(preview(client, PLAGUE))
    del data["unit-5-keep"]  # Chaos Rhino 2, 85 points

    response = client.post(reverse("force_import_check"), data, HTTP_HX_REQUEST="true")

    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="import-summary"')
    assert 'class="import__supply-used">895</strong>' in page
    assert 'class="import__count">8</strong>' in page


def test_it_updates_the_totals_without_javascript(client, player):
    data = answers(preview(client, PLAGUE))
    del data["unit-5-keep"]

    response = client.post(reverse("force_import"), {**data, "recalculate": "1"})

    assert response.status_code == 200
    assert 'class="import__supply-used">895</strong>' in response.content.decode()
    assert not CrusadeForce.objects.exists()


def test_it_refuses_a_preview_whose_list_was_changed_in_the_browser(client, player):
    data = answers(preview(client, PLAGUE))
    data["roster"] = data["roster"][:-3] + "abc"

    response = confirm(client, data)

    refused_page(response, "This preview has expired or was changed")


def test_it_still_reads_a_preview_sealed_before_its_bytes_were_compressed_first(client, player):
    """A preview shown before the list's bytes were packed this way is good for its day."""
    data = answers(preview(client, PLAGUE))
    raw, name = unseal(data["roster"])
    payload = {"data": base64.b64encode(raw).decode("ascii"), "name": name}
    data["roster"] = signing.dumps(payload, salt=SALT, compress=True)

    response = client.post(reverse("force_import"), {**data, "recalculate": "1"})

    assert response.status_code == 200
    assert unseal(token(response)) == (raw, name)


# --------------------------------------------------------------------------- confirm


def test_it_imports_what_the_player_ticked_with_the_keywords_they_corrected(client, player):
    """R2.2, R4.4: the keywords a card starts with are the ones ticked in the preview."""
    data = answers(preview(client, PLAGUE))
    del data["unit-5-keep"]
    data["unit-0-is_infantry"] = "on"
    data["unit-6-is_infantry"] = "on"  # Deathshroud Terminators
    data["unit-4-name"] = "Rhino of Rot"

    response = confirm(client, data)

    force = CrusadeForce.objects.get(name="Plague Wall")
    assert response.status_code == 302 and response["Location"] == force.get_absolute_url()
    assert (force.campaign, force.faction, force.unit_count) == (player.campaign, "Death Guard", 8)
    assert force.supply_used == 895
    lord = force.units.get(name="Lord of Contagion")
    assert lord.keywords == {rules.Keyword.CHARACTER, rules.Keyword.INFANTRY}
    assert force.units.get(name="Rhino of Rot").is_dedicated_transport
    assert not force.units.filter(name="Chaos Rhino 2").exists()
    assert "8 units imported into Plague Wall: 895 of 1000 points used, 5RP left." in texts(
        response
    )
    assert force.history.filter(action=HistoryEntry.Action.ROSTER_IMPORTED).exists()


def test_it_refuses_a_list_over_the_supply_limit_next_to_the_supply_and_saves_nothing(
    client, player
):
    """R1.3: the refusal gives the numbers."""
    data = answers(preview(client, WOLVES))
    data["unit-5-enhancement_points"] = data["unit-6-enhancement_points"] = "15"

    response = confirm(client, data)

    page = refused_page(response)
    summary = page[page.index('id="import-summary"') :]
    assert "Supply Limit is 1000 and none of it is used yet." in summary[:3000]
    assert "The units ticked need " in summary[:3000]
    assert "more points" not in summary[:3000] and "are free" not in summary[:3000]


def test_it_asks_for_an_enhancements_points_next_to_it_when_the_file_has_none(client, player):
    response = confirm(client, wolf_lords(client))

    refused_page(
        response,
        'id="id_unit-5-enhancement_points_error"',
        "Give the Enhancement&#x27;s points.",
        '<a href="#import-unit-5">Correct Wolf Guard Battle Leader on Thunderwolf 2 below.</a>',
    )


def test_it_lets_the_player_choose_which_enhancements_the_rp_pays_for(client, player):
    """R6.2: each costs 1RP more than the last; unticked, the unit comes without it."""
    data = wolf_lords(client, u5="15", u6="20")
    data.pop("unit-6-keep_enhancement")

    response = confirm(client, data)

    assert response.status_code == 302
    force = CrusadeForce.objects.get()
    points = dict(force.units.values_list("name", "enhancement"))
    assert points["Wolf Guard Battle Leader on Thunderwolf 2"] == "Portents of Wisdom"
    assert points["Wolf Lord on Thunderwolf"] == ""
    assert force.units.get(name="Wolf Lord on Thunderwolf").points == 105
    assert (force.rp, force.supply_used) == (4, 805)


def test_it_refuses_enhancements_the_rp_cannot_pay_for_with_the_numbers(client, player):
    """R6.2: two Enhancements at the start cost 1RP + 2RP; this campaign starts forces
    with 2RP."""
    data = wolf_lords(client, u5="15", u6="15")
    campaign = player.campaign
    campaign.starting_rp = 2
    campaign.save()

    response = confirm(client, data)

    refused_page(response, "1RP + 2RP = 3RP", "That needs 3RP; you have 2RP.")


def test_it_puts_a_refusal_about_one_unit_next_to_it(client, player):
    """R2.1: two units may not share a name; the second says so."""
    data = answers(preview(client, PLAGUE))
    data["unit-3-name"] = "plague marines"

    response = confirm(client, data)

    refused_page(
        response,
        'id="id_unit-3-name_error"',
        "Plague Wall already has a unit called plague marines.",
    )


def test_it_adds_units_to_the_players_own_force(client, player):
    force = make_force(player=player, campaign=player.campaign, name="The Tithe")
    make_unit(force, name="Plague Marines", points=100)
    url = reverse("force_import_units", args=[force.pk])

    response = preview(client, PLAGUE, url)
    page = response.content.decode()
    assert 'value="Plague Marines 2"' in page and 'value="Plague Marines 3"' in page
    assert "(100 already used)" in page
    data = answers(response)
    for index in range(3, 9):
        data.pop(f"unit-{index}-keep")

    response = confirm(client, data, url)

    assert response.status_code == 302
    force = CrusadeForce.objects.get(pk=force.pk)
    assert (force.unit_count, force.supply_used) == (4, 400)


def test_it_leaves_enhancements_unticked_for_a_force_that_has_fought(client, player):
    """R6.2: after its first battle a force gains Enhancements only through promotions."""
    force = make_force(player=player, campaign=player.campaign)
    services.correct_force(actor=player, force=force, reason="veterans", battle_tally=1)
    url = reverse("force_import_units", args=[force.pk])

    data = answers(preview(client, WOLVES, url))

    assert "unit-5-keep_enhancement" not in data and "unit-6-keep_enhancement" not in data


def test_it_confirms_in_a_fixed_number_of_queries_more_per_unit(client, player):
    """Confirming 15 units costs at most 13 queries per unit more than 5 units (each card
    added reads the force's cards again, with their honours, scars, promotions and
    upgrades, for its totals)."""
    player.campaign.starting_supply_limit = 2000
    player.campaign.save()
    counts = {}
    for keep in (5, 15):
        data = answers(preview(client, SAMPLES / "text-plain/tau-nr-full.txt"))
        for index in range(keep, 18):
            data.pop(f"unit-{index}-keep")
        for index in range(2, 5):  # read from wargear lines: not Enhancements after all
            data.pop(f"unit-{index}-keep_enhancement")
            data[f"unit-{index}-enhancement_points"] = "0"
        with CaptureQueriesContext(connection) as queries:
            response = confirm(client, data)
        assert response.status_code == 302, response.content.decode()[:300]
        counts[keep] = len(queries)
    print(f"queries to confirm 5 units: {counts[5]}, 15 units: {counts[15]}")

    assert (counts[15] - counts[5]) / 10 <= 13


def test_its_preview_asks_a_fixed_few_queries_however_many_campaigns_the_player_is_in(
    client, player
):
    """The preview reads the player's campaigns once, for the new force's choice and its
    check: the list is parsed, not read from the database."""
    counts = []
    for joined in (0, 4):
        for number in range(joined):
            other = make_campaign(name=f"Front {number}")
            services.join_campaign(actor=player, user=player, campaign=other)
        with CaptureQueriesContext(connection) as queries:
            page = preview(client, WOLVES).content.decode()
        counts.append(len(queries))
    print(f"queries of a preview: {counts}")

    assert counts[0] == counts[1] <= 3
    assert page.count("<option value=") == 1 + 5  # "no campaign", then the five campaigns


def test_it_refuses_a_campaign_the_player_is_not_in_next_to_the_choice(client, player):
    """A campaign id the player edited in is not one of those offered: the form says so next
    to the choice and nothing is saved."""
    elsewhere = make_campaign(name="Not theirs")
    data = answers(preview(client, PLAGUE)) | {"campaign": str(elsewhere.pk)}

    page = refused_page(confirm(client, data), "Select a valid choice")

    assert re.search(r'id="id_campaign_error".*Select a valid choice', page, re.S)


def test_it_reads_and_previews_a_2000_point_list_quickly(client, player):
    """Reading and showing a whole Strike Force list takes well under a second."""
    started = time.perf_counter()
    preview(client, WOLVES)
    took = time.perf_counter() - started
    print(f"parse + preview of a 1985-point list: {took * 1000:.0f} ms")

    assert took < 2


def test_it_shows_an_expired_list_in_the_live_summary(client, player):
    """A refused live check still answers with the summary region, saying why (a 400 is
    swapped in by htmx, so the refusal shows where the totals were)."""
    data = answers(preview(client, PLAGUE)) | {"roster": "stale-or-changed"}

    response = client.post(reverse("force_import_check"), data, HTTP_HX_REQUEST="true")

    page = response.content.decode()
    assert response.status_code == 400
    assert page.lstrip().startswith('<section id="import-summary"')
    assert 'role="alert"' in page and "Start again" in page
