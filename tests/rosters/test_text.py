"""The shared pieces: decoding, numbers, names, battle sizes, and the result dataclasses."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rosters import FORMAT_LABELS, Roster, RosterError, RosterUnit
from campaign.rosters._text import (
    battle_size,
    bullet_of,
    clean_faction,
    decode,
    lines_of,
    split_count,
    split_items,
    to_points,
)
from tests.rosters.tables import cell_rows

FUZZ = settings(max_examples=200, deadline=None, database=None)


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"Boop (1985 Points)", "Boop (1985 Points)"),
        (b"\xef\xbb\xbfBoop", "Boop"),
        ("Sh\u2019vre".encode("utf-16"), "Sh\u2019vre"),
        ("Kh\u00e2rn".encode("utf-16-be").join([b"\xfe\xff", b""]), "Kh\u00e2rn"),
        ("Kh\u00e2rn".encode("cp1252"), "Kh\u00e2rn"),
        (b"\x81\xff", "\ufffd\u00ff"),
    ],
)
def test_it_decodes_utf8_utf16_and_windows_text(data, text):
    assert decode(data) == text


@given(st.binary(max_size=200))
@FUZZ
def test_it_decodes_any_bytes(data):
    assert isinstance(decode(data), str)


def test_it_cuts_lines_of_any_newline_convention_and_drops_notes_and_trailing_spaces():
    text = "A (5 points) [[Force Name]]  \r\n\u00a0\u00a0\u2022 1x B\rCHARACTERS [[x]]   \nC"
    assert lines_of(text) == ["A (5 points)", "\u00a0\u00a0\u2022 1x B", "CHARACTERS", "C"]


def test_it_blanks_overlong_lines():
    assert lines_of("x" * 5000 + "\nUnit (5 points)") == ["", "Unit (5 points)"]


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("2000", 2000),
        ("1 000", 1000),
        ("1,995", 1995),
        ("1.000", 1000),
        ("1\u00a0000", 1000),
        ("0", 0),
        ("100001", None),
        ("12345678", None),
        ("", None),
        ("12a", None),
        ("\u0661\u0662", None),
    ],
)
def test_it_reads_points_figures_with_thousands_separators(text, points):
    assert to_points(text) == points


@pytest.mark.parametrize(
    ("item", "split"),
    [
        ("2x Boltgun", (2, "Boltgun")),
        ("10x  Kroot Carnivores", (10, "Kroot Carnivores")),
        ("1 x Lasgun", (1, "Lasgun")),
        ("Boltgun", (None, "Boltgun")),
        ("Twin lascannon", (None, "Twin lascannon")),
    ],
)
def test_it_splits_a_count_from_an_item(item, split):
    assert split_count(item) == split


def test_it_splits_wargear_lists_but_not_inside_brackets():
    assert split_items("Plasma rifle (A, B upgrade), 2x Shield Drone, , Boltgun") == [
        "Plasma rifle (A, B upgrade)",
        "2x Shield Drone",
        "Boltgun",
    ]


@pytest.mark.parametrize(
    ("line", "bullet"),
    [
        ("  \u2022 1x Boltgun", ("\u2022", "1x Boltgun")),
        ("\u00a0 \u00a0 \u25e6 1x Boltgun", ("\u25e6", "1x Boltgun")),
        ("- Boltgun", ("-", "Boltgun")),
        ("Plague Marines (130 points)", ("", "Plague Marines (130 points)")),
        ("-5 points", ("", "-5 points")),
    ],
)
def test_it_recognises_bullets(line, bullet):
    assert bullet_of(line) == bullet


FACTIONS = """
Xenos - Leagues of Votann | Leagues of Votann
Imperium - Adeptus Astartes - Ultramarines | Adeptus Astartes - Ultramarines
Chaos - Chaos Daemons | Chaos Daemons
Death Guard | Death Guard
Chaos | Chaos
Aeldari - Craftworlds | Aeldari - Craftworlds
"""


@pytest.mark.parametrize(("catalogue", "faction"), cell_rows(FACTIONS))
def test_it_drops_battlescribe_s_grand_alliance_shelf_from_factions(catalogue, faction):
    assert clean_faction(catalogue) == faction


BATTLE_SIZES = """
Strike Force (2000 Points) | Strike Force (2000 points)
Incursion (1 000 Points) | Incursion (1000 points)
Strike Force (2,000 Points) | Strike Force (2000 points)
2. Strike Force (2000 Point limit) | Strike Force (2000 points)
1. Incursion (1000 Point limit) | Incursion (1000 points)
Onslaught  (3000 pts) | Onslaught (3000 points)
Combat Patrol | Combat Patrol
"""


@pytest.mark.parametrize(("text", "size"), cell_rows(BATTLE_SIZES))
def test_it_words_every_battle_size_the_same_way(text, size):
    assert battle_size(text) == size


def test_it_derives_the_points_limit_from_the_battle_size():
    assert Roster(
        format="battlescribe-ros", battle_size="Incursion (1000 points)"
    ).points_limit == (1000)
    assert Roster(format="battlescribe-ros", battle_size="Combat Patrol").points_limit is None


def test_it_keeps_rosters_and_units_read_only_and_names_every_format():
    unit = RosterUnit(name="Tallyman", datasheet="Tallyman", points=50)
    with pytest.raises(dataclasses.FrozenInstanceError):
        unit.points = 60  # type: ignore[misc]
    assert set(FORMAT_LABELS) == {
        "wh40k-app-text",
        "newrecruit-text-full",
        "newrecruit-text-wtc",
        "newrecruit-text-short",
        "newrecruit-json",
        "battlescribe-ros",
        "battlescribe-rosz",
    }


def test_it_puts_the_role_keywords_of_true_flags_among_the_keywords():
    unit = RosterUnit(
        name="Marneus Calgar",
        datasheet="Marneus Calgar",
        points=200,
        character=True,
        epic_hero=True,
        battleline=False,
        keywords=frozenset({"infantry"}),
    )
    assert unit.keywords == {"INFANTRY", "CHARACTER", "EPIC HERO"}


def test_it_keeps_error_messages_on_one_line():
    assert RosterError("The file\nis damaged.\r\n").message == "The file is damaged."


def test_it_reads_no_points_limit_from_an_absurd_battle_size():
    roster = Roster(format="wh40k-app-text", battle_size="Apocalypse (" + "9" * 5000 + " points)")
    assert roster.points_limit is None
