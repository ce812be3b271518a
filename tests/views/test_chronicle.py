"""The campaign's log on the site: its pages, an entry's page, the write and edit forms,
the campaign page's newest entries and the battle page's offer to tell its story."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from campaign import services
from campaign.models import HistoryEntry, LogEntry, Phase, Territory
from campaign.selectors.chronicle import PER_PAGE
from tests.concurrency.live import PageReader
from tests.factories import (
    make_battle,
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_user,
)

from .helpers import count_queries, texts

pytestmark = pytest.mark.django_db


def jpeg() -> bytes:
    out = BytesIO()
    Image.new("RGB", (64, 48), (10, 120, 10)).save(out, format="JPEG")
    return out.getvalue()


@pytest.fixture
def world():
    organiser = make_user("log-org", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Vraks")
    author, member, outsider = make_user("author"), make_user("reader"), make_user("stranger")
    force = make_force(player=author, campaign=campaign, name="Iron Wolves")
    rival = make_force(player=member, campaign=campaign, name="Red Talons")
    make_character(force, name="Captain Vorn")
    make_character(rival, name="Captain Rhal")
    return {
        "organiser": organiser,
        "campaign": campaign,
        "author": author,
        "member": member,
        "outsider": outsider,
        "force": force,
        "rival": rival,
    }


def write(world, **extra):
    values = {"title": "The siege begins", "text": "The **guns** spoke."} | extra
    return services.write_log_entry(actor=world["author"], campaign=world["campaign"], **values)


def signed_in(client, user):
    client.force_login(user)
    return client


def token(client, url: str) -> str:
    """The one-time token of the form on ``url``."""
    form = PageReader(client.get(url).content.decode()).post_form(having="title")
    return dict(form)["form_once"]


# --- the log page --------------------------------------------------------------------------


def test_it_shows_the_log_newest_first_with_each_entrys_story_rendered(client, world):
    battle = make_recorded_battle(world["force"], world["rival"], campaign=world["campaign"])
    first = write(world, title="First light", battle=battle)
    second = write(world, title="Second wave", text="<script>x</script> *onward*")

    response = signed_in(client, world["member"]).get(
        reverse("campaign_log", args=[world["campaign"].pk])
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert html.index(second.title) < html.index(first.title)
    assert "<em>onward</em>" in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert "<script>x" not in html
    assert "<strong>guns</strong>" in html
    assert reverse("battle_detail", args=[battle.pk]) in html
    assert "By author" in html


def test_it_shows_hidden_entries_to_organisers_only_marked_as_hidden(client, world):
    entry = write(world, title="Spoiler of the finale")
    services.hide_log_entry(actor=world["organiser"], entry=entry, reason="Too soon")
    url = reverse("campaign_log", args=[world["campaign"].pk])

    as_member = signed_in(client, world["member"]).get(url).content.decode()
    as_organiser = signed_in(client, world["organiser"]).get(url).content.decode()

    assert "Spoiler of the finale" not in as_member
    assert "Spoiler of the finale" in as_organiser
    assert "Hidden by an organiser: Too soon" in as_organiser


def test_it_pages_the_log(client, world):
    for n in range(PER_PAGE + 2):
        write(world, title=f"Entry number {n:03}")
    url = reverse("campaign_log", args=[world["campaign"].pk])
    client = signed_in(client, world["member"])

    first = client.get(url).content.decode()
    second = client.get(url, {"page": 2}).content.decode()

    assert f"Entry number {PER_PAGE + 1:03}" in first and "Entry number 000" not in first
    assert "Entry number 000" in second and 'rel="prev"' in second


def many_entries(world, count: int) -> None:
    """``count`` entries, each on a battle, a territory and a phase, with a picture name
    (rows made directly: the page is what is measured)."""
    campaign = world["campaign"]
    battle = campaign.battles.first() or make_battle(world["force"], campaign=campaign)
    territory, _ = Territory.objects.get_or_create(
        campaign=campaign, key="hill", defaults={"name": "Hill 13", "column": 0, "row": 0}
    )
    phase, _ = Phase.objects.get_or_create(
        campaign=campaign, position=1, defaults={"name": "Landfall"}
    )
    now = timezone.now()
    LogEntry.objects.bulk_create(
        LogEntry(
            campaign=world["campaign"],
            author=world["author"],
            title=f"Entry {n}",
            text="**Dawn** came.\n\n- a\n- b",
            picture="chronicle/x.jpg",
            battle=battle,
            territory=territory,
            phase=phase,
            created_at=now,
        )
        for n in range(count)
    )


@pytest.mark.parametrize("who", ["member", "organiser"])
def test_it_reads_the_log_in_the_same_number_of_queries_with_500_entries(client, world, who):
    client = signed_in(client, world[who])
    url = reverse("campaign_log", args=[world["campaign"].pk])
    many_entries(world, 3)
    few = count_queries(client, url)
    many_entries(world, 497)

    assert count_queries(client, url) == few
    assert count_queries(client, url, page=20) == few


def test_it_prints_as_the_campaigns_chronicle(client, world):
    write(world)
    html = (
        signed_in(client, world["member"])
        .get(reverse("campaign_log", args=[world["campaign"].pk]))
        .content.decode()
    )
    assert "The chronicle of Vraks" in html
    assert 'class="log-entry panel' in html
    print_css = (Path(settings.BASE_DIR) / "static/css/print.css").read_text()
    assert ".log-entry {" in print_css and "break-inside: avoid" in print_css


# --- an entry's page -----------------------------------------------------------------------


def test_it_shows_an_entry_to_members_and_hides_it_from_outsiders(client, world):
    entry = write(world)
    url = reverse("log_entry", args=[entry.pk])

    assert signed_in(client, world["member"]).get(url).status_code == 200
    assert signed_in(client, world["outsider"]).get(url).status_code == 404


def test_it_offers_the_edit_link_to_the_author_only(client, world):
    entry = write(world)
    url, edit = reverse("log_entry", args=[entry.pk]), reverse("log_entry_edit", args=[entry.pk])

    assert edit in signed_in(client, world["author"]).get(url).content.decode()
    assert edit not in signed_in(client, world["member"]).get(url).content.decode()


def test_it_shows_a_hidden_entry_to_its_author_and_organisers_only(client, world):
    entry = write(world)
    services.hide_log_entry(actor=world["organiser"], entry=entry, reason="Spoiler")
    url = reverse("log_entry", args=[entry.pk])

    assert signed_in(client, world["member"]).get(url).status_code == 404
    assert signed_in(client, world["author"]).get(url).status_code == 200
    assert signed_in(client, world["organiser"]).get(url).status_code == 200


# --- writing -------------------------------------------------------------------------------


def test_it_writes_an_entry_with_a_picture_through_the_form(client, world):
    client = signed_in(client, world["member"])
    url = reverse("log_entry_create", args=[world["campaign"].pk])
    picture = SimpleUploadedFile("photo.jpg", jpeg(), content_type="image/jpeg")

    response = client.post(
        url,
        {
            "title": "Red dawn",
            "text": "We *came*.",
            "picture": picture,
            "form_once": token(client, url),
        },
    )

    entry = LogEntry.objects.get()
    assert response.status_code == 302 and response["Location"] == entry.get_absolute_url()
    assert (entry.author, entry.title) == (world["member"], "Red dawn")
    assert entry.picture.name.startswith("chronicle/")
    page = client.get(entry.get_absolute_url()).content.decode()
    assert entry.picture.url in page and "<em>came</em>" in page


def test_it_applies_a_form_sent_twice_once(client, world):
    client = signed_in(client, world["member"])
    url = reverse("log_entry_create", args=[world["campaign"].pk])
    data = {"title": "Red dawn", "text": "We came.", "form_once": token(client, url)}

    client.post(url, data)
    client.post(url, data)

    assert LogEntry.objects.count() == 1


def test_it_presets_the_battle_named_in_the_address(client, world):
    battle = make_recorded_battle(world["force"], world["rival"], campaign=world["campaign"])
    url = reverse("log_entry_create", args=[world["campaign"].pk])

    html = signed_in(client, world["author"]).get(url, {"battle": battle.pk}).content.decode()

    assert f'<option value="{battle.pk}" selected>' in html


@pytest.mark.parametrize("value", ["999999", str(10**30), "twelve", "-1"])
def test_it_ignores_a_preset_that_is_not_the_campaigns(client, world, value):
    url = reverse("log_entry_create", args=[world["campaign"].pk])
    response = signed_in(client, world["author"]).get(url, {"battle": value, "phase": value})
    assert response.status_code == 200
    assert response.context["form"]["battle"].value() is None


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"title": "", "text": "Story"}, "title"),
        ({"title": "Title", "text": "   "}, "text"),
        ({"title": "Title", "text": "x" * 10_001}, "text"),
        ({"title": "x" * 200, "text": "Story"}, "title"),
        ({"title": "Title", "text": "Story", "battle": str(10**30)}, "battle"),
        ({"title": "Title", "text": "a\x00b"}, "text"),
    ],
)
def test_it_shows_bad_input_next_to_its_field_with_a_400(client, world, data, field):
    url = reverse("log_entry_create", args=[world["campaign"].pk])
    history = HistoryEntry.objects.count()

    response = signed_in(client, world["author"]).post(url, data)

    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert 'class="field field--error"' in response.content.decode()
    assert LogEntry.objects.count() == 0 and HistoryEntry.objects.count() == history


def test_it_refuses_another_campaigns_battle(client, world):
    elsewhere = make_campaign()
    battle = make_battle(make_force(campaign=elsewhere), campaign=elsewhere)
    url = reverse("log_entry_create", args=[world["campaign"].pk])

    response = signed_in(client, world["author"]).post(
        url, {"title": "T", "text": "S", "battle": battle.pk}
    )

    assert response.status_code == 400 and response.context["form"].errors["battle"]
    assert LogEntry.objects.count() == 0


def test_it_refuses_a_file_that_is_not_a_picture(client, world):
    url = reverse("log_entry_create", args=[world["campaign"].pk])
    bad = SimpleUploadedFile("evil.jpg", b"<script>alert(1)</script>", content_type="image/jpeg")

    response = signed_in(client, world["author"]).post(
        url, {"title": "T", "text": "S", "picture": bad}
    )

    assert response.status_code == 400 and response.context["form"].errors["picture"]
    assert LogEntry.objects.count() == 0


def test_it_sends_an_outsider_away_with_a_404(client, world):
    url = reverse("log_entry_create", args=[world["campaign"].pk])
    response = signed_in(client, world["outsider"]).post(url, {"title": "T", "text": "S"})
    assert response.status_code == 404
    assert LogEntry.objects.count() == 0


def test_it_changes_nothing_on_get(client, world):
    url = reverse("log_entry_create", args=[world["campaign"].pk])
    history = HistoryEntry.objects.count()
    signed_in(client, world["author"]).get(url, {"title": "T", "text": "S"})
    assert LogEntry.objects.count() == 0 and HistoryEntry.objects.count() == history


# --- editing -------------------------------------------------------------------------------


def test_it_lets_the_author_edit_the_entry(client, world):
    entry = write(world)
    client = signed_in(client, world["author"])
    url = reverse("log_entry_edit", args=[entry.pk])

    response = client.post(
        url, {"title": "The siege ends", "text": entry.text, "form_once": token(client, url)}
    )

    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.title == "The siege ends" and entry.edited_at is not None
    assert HistoryEntry.objects.filter(action="log_entry_edited").get().changes == {
        "title": ["The siege begins", "The siege ends"]
    }


@pytest.mark.parametrize("who", ["member", "organiser"])
def test_it_refuses_an_edit_by_anyone_else_with_a_403(client, world, who):
    entry = write(world)
    url = reverse("log_entry_edit", args=[entry.pk])

    response = signed_in(client, world[who]).post(url, {"title": "Mine", "text": "Mine"})

    assert response.status_code == 403
    entry.refresh_from_db()
    assert entry.title == "The siege begins"


# --- the campaign page and the battle page -------------------------------------------------


def test_the_campaign_page_shows_the_newest_entries_and_moves_on_when_one_is_written(client, world):
    client = signed_in(client, world["member"])
    url = reverse("campaign_detail", args=[world["campaign"].pk])
    before = client.get(url).content.decode()
    assert "Nothing in the log yet" in before
    assert reverse("log_entry_create", args=[world["campaign"].pk]) in before

    entry = write(world, title="Fresh from the front")
    after = client.get(url).content.decode()

    assert "Fresh from the front" in after and entry.get_absolute_url() in after
    assert reverse("campaign_log", args=[world["campaign"].pk]) in after

    services.hide_log_entry(actor=world["organiser"], entry=entry, reason="Spoiler")
    assert "Fresh from the front" not in client.get(url).content.decode()


def test_a_completed_battle_offers_its_players_to_tell_its_story(client, world):
    battle = make_recorded_battle(world["force"], world["rival"], campaign=world["campaign"])
    bystander = make_user("bystander")
    services.join_campaign(actor=bystander, user=bystander, campaign=world["campaign"])
    url = reverse("battle_detail", args=[battle.pk])
    link = f"{reverse('log_entry_create', args=[world['campaign'].pk])}?battle={battle.pk}"

    for player in (world["author"], world["member"]):
        html = signed_in(client, player).get(url).content.decode()
        assert "Tell the story of this battle" in html and link in html
    assert "Tell the story" not in signed_in(client, bystander).get(url).content.decode()


def test_a_battle_in_progress_does_not_offer_it_yet(client, world):
    battle = make_battle(world["force"], world["rival"], campaign=world["campaign"])
    html = signed_in(client, world["author"]).get(reverse("battle_detail", args=[battle.pk]))
    assert "Tell the story" not in html.content.decode()


def test_the_side_that_completes_a_battle_is_told_it_can_tell_the_story(client, world):
    battle = make_battle(world["force"], world["rival"], campaign=world["campaign"])
    sides = list(battle.participants.select_related("force__player"))
    for side in sides:
        warlord = side.force.units.get()
        services.muster_army(
            actor=side.force.player,
            participant=side,
            units=[warlord],
            warlord=warlord,
            faction="Adeptus Astartes",
            detachment="Gladius",
        )
    mine, theirs = (
        next(s for s in sides if s.force == f) for f in (world["force"], world["rival"])
    )
    services.record_side(actor=world["author"], participant=mine, result="win", outcomes={})
    client = signed_in(client, world["member"])
    entry = theirs.army.get()
    response = client.post(
        reverse("army_record", args=[theirs.pk]),
        {
            "result": "loss",
            "confirm": "1",
            f"kills_{entry.pk}": 0,
            f"bonus_{entry.pk}": 0,
            f"reason_{entry.pk}": "",
        },
    )

    assert response.status_code == 302
    assert any("tell the story of this battle" in m for m in texts(response))
