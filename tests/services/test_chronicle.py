"""The campaign's log: who writes, edits, hides and shows an entry, what each leaves in the
history, and the safe rendering of a story's marks."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from django.core.files.base import ContentFile
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from campaign import markup, pictures, selectors, services
from campaign.models import Campaign, LogEntry, Phase, Territory
from campaign.selectors.chronicle import latest_entries, log_page
from tests.factories import make_battle, make_campaign, make_force, make_user, reload

from .checks import latest_history, refused

pytestmark = pytest.mark.django_db


def jpeg(size=(40, 30)) -> bytes:
    out = BytesIO()
    Image.new("RGB", size, (200, 10, 10)).save(out, format="JPEG")
    return out.getvalue()


@pytest.fixture
def table():
    """A campaign with an organiser, two players (each with a force) and an outsider."""
    organiser = make_user("chronicler-org", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Vraks")
    player, rival, outsider = make_user("hale"), make_user("rook"), make_user("stray")
    force = make_force(player=player, campaign=campaign, name="Iron Wolves")
    other = make_force(player=rival, campaign=campaign, name="Red Talons")
    return {
        "organiser": organiser,
        "campaign": campaign,
        "player": player,
        "rival": rival,
        "outsider": outsider,
        "force": force,
        "other": other,
    }


def write(table, actor=None, **extra):
    values = {"title": "The siege begins", "text": "The guns spoke at dawn."} | extra
    return services.write_log_entry(
        actor=actor or table["player"], campaign=table["campaign"], **values
    )


# --- write ---------------------------------------------------------------------------------


def test_it_writes_an_entry_for_a_player_of_the_campaign_with_a_row_naming_the_campaign(table):
    revision = table["campaign"].revision

    entry = write(table)

    assert (entry.author, entry.campaign, entry.status) == (
        table["player"],
        table["campaign"],
        LogEntry.Status.SHOWN,
    )
    row = latest_history("log_entry_written")
    assert (row.actor, row.campaign, row.force, row.battle) == (
        table["player"],
        table["campaign"],
        None,
        None,
    )
    assert row.changes == {"title": [None, "The siege begins"]}
    assert reload(table["campaign"]).revision > revision  # the campaign page's cache moves on


def test_it_lets_an_organiser_write_too(table):
    assert write(table, actor=table["organiser"]).author == table["organiser"]


def test_it_refuses_someone_outside_the_campaign(table):
    with refused(services.chronicle.MEMBERS_ONLY):
        write(table, actor=table["outsider"])


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"title": "   "}, "title"),
        ({"title": "x" * 121}, "title"),
        ({"text": ""}, "text"),
        ({"text": "x" * 10_001}, "text"),
        ({"text": "a\x00b"}, "text"),
    ],
)
def test_it_refuses_a_missing_or_too_long_title_or_text_by_field(table, values, field):
    with refused() as info:
        write(table, **values)
    assert field in info.value.message_dict


def test_it_links_the_campaigns_battle_and_names_it_in_the_history(table):
    battle = make_battle(table["force"], table["other"], campaign=table["campaign"])

    entry = write(table, battle=battle)

    assert entry.battle == battle
    row = latest_history("log_entry_written")
    assert (row.battle, row.force, row.campaign) == (battle, None, table["campaign"])
    assert row.changes["battle"] == [None, battle.pk]


def test_it_refuses_a_battle_territory_or_phase_of_another_campaign(table):
    elsewhere = make_campaign(name="Elsewhere")
    stranger = make_force(campaign=elsewhere)
    battle = make_battle(stranger, campaign=elsewhere)
    territory = Territory.objects.create(
        campaign=elsewhere, key="hill", name="Hill", column=0, row=0
    )
    phase = Phase.objects.create(campaign=elsewhere, position=1, name="Landfall")
    for field, obj in (("battle", battle), ("territory", territory), ("phase", phase)):
        with refused() as info:
            write(table, **{field: obj})
        assert field in info.value.message_dict


def test_it_links_a_territory_and_a_phase_of_the_campaign(table):
    territory = Territory.objects.create(
        campaign=table["campaign"], key="citadel", name="The Citadel", column=1, row=1
    )
    phase = Phase.objects.create(campaign=table["campaign"], position=1, name="Landfall")

    entry = write(table, territory=territory, phase=phase)

    assert (entry.territory, entry.phase) == (territory, phase)


def test_it_stores_a_picture_re_encoded_under_chronicle(table):
    picture, _ = pictures.process_upload(ContentFile(jpeg(), name="photo.jpg"))

    entry = write(table, picture=picture)

    assert entry.picture.name.startswith("chronicle/")
    assert entry.picture.name.endswith(".jpg")
    with Image.open(entry.picture.open("rb")) as stored:
        assert stored.format == "JPEG"
    assert latest_history("log_entry_written").changes["picture"] == [None, entry.picture.name]


# --- edit ----------------------------------------------------------------------------------


def test_it_lets_the_author_edit_and_keeps_what_changed_before_and_after(table):
    entry = write(table)

    services.edit_log_entry(actor=table["player"], entry=entry, title="The siege", text="Guns.")

    entry = reload(entry)
    assert (entry.title, entry.text) == ("The siege", "Guns.")
    assert entry.edited_at is not None
    row = latest_history("log_entry_edited")
    assert row.campaign == table["campaign"]
    assert row.changes == {
        "title": ["The siege begins", "The siege"],
        "text": ["The guns spoke at dawn.", "Guns."],
    }


def test_it_writes_nothing_when_nothing_changed(table):
    entry = write(table)
    rows = latest_history("log_entry_edited")

    services.edit_log_entry(actor=table["player"], entry=entry, title="The siege begins")

    assert latest_history("log_entry_edited") == rows
    assert reload(entry).edited_at is None


@pytest.mark.parametrize("who", ["rival", "organiser", "outsider"])
def test_it_refuses_an_edit_by_anyone_but_the_author(table, who):
    entry = write(table)
    with refused(services.chronicle.AUTHOR_ONLY):
        services.edit_log_entry(actor=table[who], entry=entry, title="Mine now")


def test_it_refuses_an_edit_linking_another_campaigns_battle(table):
    entry = write(table)
    elsewhere = make_campaign()
    battle = make_battle(make_force(campaign=elsewhere), campaign=elsewhere)
    with refused() as info:
        services.edit_log_entry(actor=table["player"], entry=entry, battle=battle)
    assert "battle" in info.value.message_dict


def test_it_replaces_the_picture_and_records_both_names(table):
    first, _ = pictures.process_upload(ContentFile(jpeg(), name="a.jpg"))
    entry = write(table, picture=first)
    old = entry.picture.name
    second, _ = pictures.process_upload(ContentFile(jpeg((20, 20)), name="b.jpg"))

    entry = services.edit_log_entry(actor=table["player"], entry=entry, picture=second)

    assert entry.picture.name != old
    assert latest_history("log_entry_edited").changes["picture"] == [old, entry.picture.name]


# --- hide and show -------------------------------------------------------------------------


def test_it_lets_an_organiser_hide_an_entry_with_a_reason_and_show_it_again(table):
    entry = write(table)

    services.hide_log_entry(actor=table["organiser"], entry=entry, reason="Spoils the finale")

    entry = reload(entry)
    assert entry.is_hidden
    assert (entry.hidden_reason, entry.hidden_by) == ("Spoils the finale", table["organiser"])
    row = latest_history("log_entry_hidden")
    assert (row.reason, row.campaign, row.changes) == (
        "Spoils the finale",
        table["campaign"],
        {"status": ["shown", "hidden"]},
    )
    assert latest_entries(table["campaign"]) == []

    services.show_log_entry(actor=table["organiser"], entry=entry, reason="After the finale")

    entry = reload(entry)
    assert not entry.is_hidden and entry.hidden_by is None
    assert latest_history("log_entry_shown").reason == "After the finale"
    assert latest_entries(table["campaign"]) == [entry]
    assert LogEntry.objects.count() == 1  # a status, never a delete


@pytest.mark.parametrize("who", ["player", "rival", "outsider"])
def test_it_refuses_a_hide_by_anyone_but_an_organiser(table, who):
    entry = write(table)
    with refused(services.chronicle.ORGANISERS_ONLY):
        services.hide_log_entry(actor=table[who], entry=entry, reason="No")


def test_it_asks_for_a_reason_to_hide_or_show(table):
    entry = write(table)
    with refused() as info:
        services.hide_log_entry(actor=table["organiser"], entry=entry, reason="  ")
    assert "reason" in info.value.message_dict
    services.hide_log_entry(actor=table["organiser"], entry=entry, reason="Spoiler")
    with refused() as info:
        services.show_log_entry(actor=table["organiser"], entry=entry, reason="")
    assert "reason" in info.value.message_dict


def test_it_refuses_to_hide_a_hidden_entry_or_show_a_shown_one(table):
    entry = write(table)
    with refused(containing=["already shown"]):
        services.show_log_entry(actor=table["organiser"], entry=entry, reason="Why not")
    services.hide_log_entry(actor=table["organiser"], entry=entry, reason="Spoiler")
    with refused(containing=["already hidden"]):
        services.hide_log_entry(actor=table["organiser"], entry=entry, reason="Again")


# --- selectors -----------------------------------------------------------------------------


def test_it_lists_the_newest_shown_entries_first(table):
    entries = [write(table, title=f"Entry {n}") for n in range(5)]
    services.hide_log_entry(actor=table["organiser"], entry=entries[4], reason="Spoiler")

    assert latest_entries(table["campaign"]) == [entries[3], entries[2], entries[1]]
    page = log_page(table["campaign"], None, with_hidden=False)
    assert list(page) == entries[3::-1]
    assert list(log_page(table["campaign"], None, with_hidden=True))[0] == entries[4]


# --- export and restore: entries stay with the campaign -------------------------------------


def test_a_forces_export_carries_no_log_entry_and_restoring_it_touches_none(table):
    entry = write(table, title="Unique chronicle title", text="Only in the log")
    document = selectors.force_document(table["force"])
    assert "Unique chronicle title" not in str(document)
    before = list(LogEntry.objects.values())

    services.restore_force(
        actor=table["player"],
        player=table["player"],
        campaign=table["campaign"],
        document=document,
        name="Iron Wolves again",
    )

    assert list(LogEntry.objects.values()) == before
    assert reload(entry).campaign == table["campaign"]
    assert Campaign.objects.filter(pk=table["campaign"].pk).exists()


# --- the markup ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("One\n\nTwo", "<p>One</p>\n<p>Two</p>"),
        ("One\nline", "<p>One<br>line</p>"),
        ("**bold** and *italic*", "<p><strong>bold</strong> and <em>italic</em></p>"),
        ("*a **b** c*", "<p><em>a <strong>b</strong> c</em></p>"),
        ("**a *b* c**", "<p><strong>a <em>b</em> c</strong></p>"),
        ("- one\n- two", "<ul><li>one</li><li>two</li></ul>"),
        ("> said\n> he", "<blockquote><p>said<br>he</p></blockquote>"),
        ("Intro\n- item", "<p>Intro</p>\n<ul><li>item</li></ul>"),
        ("5 * 3 * 2", "<p>5 * 3 * 2</p>"),
        ("****", "<p>****</p>"),
        ("**open", "<p>**open</p>"),
    ],
)
def test_it_renders_the_few_marks(text, html):
    assert markup.render(text) == html


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "[click](javascript:alert(1))",
        "<a href='javascript:alert(1)'>x</a>",
        "**<b>bold</b>**",
        "> <iframe src=//evil>",
        "- <style>body{}</style>",
        "&lt;script&gt; already escaped",
    ],
)
def test_it_never_writes_a_tag_or_attribute_of_the_players(text):
    html = markup.render(text)
    tags = set(re.findall(r"</?([a-z]+)[^>]*>", html))
    assert tags <= {"p", "br", "strong", "em", "ul", "li", "blockquote"}
    assert not re.search(r"<[a-z]+\s", html)  # no attribute at all
    assert "<script" not in html and "<a" not in html and "<img" not in html


@pytest.mark.parametrize(
    "text",
    ["**open", "*open", "**a *b** c*", "***", "* * *", "****", "**", "*a**b*c**", "- ", "> "],
)
def test_it_keeps_unbalanced_or_crossed_marks_well_nested(text):
    html = markup.render(text)
    stack = []
    for closing, tag in re.findall(r"<(/?)(strong|em)>", html):
        if closing:
            assert stack and stack.pop() == tag, html
        else:
            stack.append(tag)
    assert not stack, html


def test_it_drops_nul_and_control_characters():
    assert markup.render("a\x00b\x07c") == "<p>abc</p>"


def test_it_renders_ten_thousand_characters_of_marks_at_once():
    text = ("**" * 2_500) + ("*x " * 1_000) + ("- y\n> z\n\n" * 100)
    html = markup.render(text[:10_000])
    assert html.startswith("<p>")
    assert markup.render("a" * 10_000) == f"<p>{'a' * 10_000}</p>"


def test_it_marks_the_output_safe_only_after_escaping():
    html = markup.render("<b>")
    assert hasattr(html, "__html__")
    assert html == "<p>&lt;b&gt;</p>"


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab *-><&\"'\n\x00/=:")) | st.characters(), max_size=300)
)
def test_any_text_renders_as_well_nested_tags_of_our_own_with_no_attribute(text):
    html = markup.render(text)
    tags = re.findall(r"<(/?)([^\s>/]+)([^>]*)>", html)
    stack = []
    for closing, tag, rest in tags:
        assert tag in {"p", "br", "strong", "em", "ul", "li", "blockquote"}, html
        assert rest == "", html  # no attribute, ever
        if tag == "br":
            continue
        if closing:
            assert stack and stack.pop() == tag, html
        else:
            stack.append(tag)
    assert not stack, html
    assert "\x00" not in html
