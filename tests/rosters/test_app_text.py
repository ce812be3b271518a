"""The official app's text export: its grammar, not just the shared samples."""

from pathlib import Path

import pytest

from campaign.rosters import parse_roster
from tests.rosters.tables import as_row, cells, fields, rows_of

NBSP = "\u00a0"

ORKS = """\
Waaagh Wednesday (1,000 Points)

Orks
War Horde
Incursion (1,000 Points)

CHARACTERS

Warboss (80 Points)
  • Warlord
  • 1x Attack squig
  • 1x Big choppa
  • 1x Kustom shoota
  • Enhancements: Headwoppa's Killchoppa

Painboy (70 Points)
  • 1x 'Urty syringe
  • 1x Power klaw

BATTLELINE

Boyz (85 Points)
  • 1x Boss Nob
     ◦ 1x Big choppa
     ◦ 1x Slugga
  • 9x Boy
     ◦ 9x Choppa
     ◦ 9x Slugga

Boyz (85 Points)
  • 1x Boss Nob
     ◦ 1x Power klaw
     ◦ 1x Slugga
  • 9x Boy
     ◦ 9x Choppa
     ◦ 9x Slugga

DEDICATED TRANSPORTS

Trukk (70 Points)
  • 1x Big shoota
  • 1x Spiked wheels
  • 1x Wreckin' ball

OTHER DATASHEETS

Deff Dread (120 Points)
  • 1x Dread klaw
  • 2x Big shoota
  • 2x Dread klaw

Stormboyz (65 Points)
  • 1x Boss Nob
     ◦ 1x Power klaw
  • 4x Stormboy

ALLIED UNITS

Gretchin (40 Points)
  • 1x Runtherd
  • 10x Gretchin

Exported with App Version: v1.30.0 (1), Data Version: v590"""

ORK_UNITS = rows_of("""
Warboss | 80 | 1 | C?--W | Headwoppa's Killchoppa
Painboy | 70 | 1 | C?---
Boyz | 85 | 10 | --B--
Boyz | 85 | 10 | --B--
Trukk | 70 | 1 | ---T-
Deff Dread | 120 | 1 | -----
Stormboyz | 65 | 5 | -----
Gretchin | 40 | 1 | ????-
""")


def summary(text: str | bytes) -> tuple:
    roster = parse_roster(text)
    assert roster.format == "wh40k-app-text"
    return tuple(as_row(unit) for unit in roster.units)


def test_it_reads_every_section_and_what_it_says_about_roles():
    """CHARACTERS, BATTLELINE, DEDICATED TRANSPORTS, OTHER DATASHEETS; ALLIED UNITS says nothing."""
    assert summary(ORKS) == ORK_UNITS


def test_it_reads_the_header():
    roster = parse_roster(ORKS)
    assert fields(roster, "name faction detachment battle_size") == cells(
        "Waaagh Wednesday | Orks | War Horde | Incursion (1000 points)"
    )
    assert roster.total_points == 1000
    assert roster.units_points == 615


def test_it_reads_warlord_enhancement_models_and_wargear():
    warboss, painboy, boyz = parse_roster(ORKS).units[:3]
    assert warboss.warlord and not painboy.warlord
    assert warboss.enhancement == "Headwoppa's Killchoppa"
    assert warboss.enhancement_points is None
    assert warboss.wargear == "1x Attack squig, 1x Big choppa, 1x Kustom shoota"
    assert boyz.models_description == "1x Boss Nob, 9x Boy"
    assert boyz.wargear == "1x Big choppa, 1x Slugga, 9x Choppa, 9x Slugga"


def test_it_counts_models_only_for_items_with_wargear_under_them():
    """``• 10x Gretchin`` with nothing under it is wargear-like: the unit is 1 (implicit)."""
    gretchin = parse_roster(ORKS).units[-1]
    assert gretchin.models == 1
    assert gretchin.wargear == "1x Runtherd, 10x Gretchin"


@pytest.mark.parametrize(
    "transform",
    [
        lambda text: text.replace("\n", "\r\n"),
        lambda text: text.replace("\n", "\r"),
        lambda text: "\ufeff" + text,
        lambda text: text.replace("\n", "   \n"),
        lambda text: text.replace("  •", NBSP + " " + NBSP + " •").replace(
            "     ◦", NBSP * 5 + "◦"
        ),
        lambda text: text + "\n\n\n",
        lambda text: "\n\n" + text,
        lambda text: text.replace("(1,000 Points)", "(1 000 Points)"),
        lambda text: text.replace("Points)", "points)"),
    ],
    ids=[
        "crlf",
        "cr",
        "bom",
        "trailing-spaces",
        "nbsp",
        "trailing-blank",
        "leading-blank",
        "space-thousands",
        "lowercase-points",
    ],
)
def test_it_reads_the_same_list_whatever_the_whitespace_and_newlines(transform):
    assert summary(transform(ORKS)) == ORK_UNITS


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16"])
def test_it_reads_the_same_list_from_bytes_in_any_unicode_encoding(encoding):
    assert summary(ORKS.encode(encoding)) == ORK_UNITS


def test_it_reads_sub_items_marked_by_indentation_alone():
    """The app also writes sub-items as deeper ``•`` bullets and wargear as bare lines."""
    text = ORKS.replace("     ◦", "      •").replace(
        "  • 1x Big shoota\n  • 1x Spiked", ("  • 1x Big shoota\n      1x Spiked")
    )
    units = parse_roster(text).units
    assert units[2].models == 10
    assert units[4].models == 1
    assert "1x Spiked wheels" in units[4].wargear


@pytest.mark.parametrize(
    ("header", "faction", "detachment", "size"),
    [
        (
            "Orks\nWar Horde\nIncursion (1,000 Points)",
            "Orks",
            "War Horde",
            "Incursion (1000 points)",
        ),
        (
            "Orks\nIncursion (1000 points)\nWar Horde",
            "Orks",
            "War Horde",
            "Incursion (1000 points)",
        ),
        (
            "Space Marines\nBlood Angels\nLiberator Assault Group\nStrike Force (2000 Points)",
            "Space Marines - Blood Angels",
            "Liberator Assault Group",
            "Strike Force (2000 points)",
        ),
        (
            "Orks\nWar Horde and Da Big Hunt (3 Detachment Points)\nTake and Hold\n"
            "Strike Force (2,000 Points)",
            "Orks",
            "War Horde and Da Big Hunt",
            "Strike Force (2000 points)",
        ),
        (
            "Orks [[Faction]]\nWar Horde    [[Detachment]]\nIncursion (1000 points)  [[Limit]]",
            "Orks",
            "War Horde",
            "Incursion (1000 points)",
        ),
        ("Orks", "Orks", "", ""),
    ],
    ids=["v1.29", "v1.48", "chapter", "detachment-points", "annotated", "faction-only"],
)
def test_it_reads_each_header_layout(header, faction, detachment, size):
    text = ORKS.replace("Orks\nWar Horde\nIncursion (1,000 Points)", header)
    roster = parse_roster(text)
    assert (roster.faction, roster.detachment, roster.battle_size) == (faction, detachment, size)
    assert len(roster.units) == 8


def test_it_reads_attached_units_and_detachment_keywords():
    """The later dialect: ATTACHED UNITS groups with ``Attached as`` roles, and granted keywords."""
    text = """\
Hunt (500 points)

Adepta Sororitas
Hallowed Martyrs (3 Detachment Points)
Incursion (1,000 Points)

ATTACHED UNITS

Attached Unit 1

Palatine (60 points)
• Attached as: Leader (Character)
  • 1x Palatine blade
  • Enhancement: Blade of Saint Ellynor (Upgrade)

Battle Sisters Squad (105 points)
• Attached as: Bodyguard (Battleline)
• 1x Sister Superior
◦ 1x Power weapon
• 9x Battle Sister
◦ 9x Boltgun

Immolator (125 points)
• Attached as: Dedicated Transport
  • 1x Immolation flamer

CHARACTERS

Dogmata (55 points)
• Hallowed Martyrs Keyword: Character
• Warlord
• 1x Mace of the Righteous

Exported with App Version: v2.6.0 (1), Data Version: v950
"""
    palatine, sisters, immolator, dogmata = parse_roster(text).units
    roles = [
        (unit.character, unit.battleline, unit.dedicated_transport)
        for unit in (palatine, sisters, immolator)
    ]
    assert roles == [(True, False, False), (False, True, False), (False, False, True)]
    assert palatine.enhancement == "Blade of Saint Ellynor (Upgrade)"
    assert sisters.models == 10
    assert dogmata.character is True and dogmata.warlord
    assert "CHARACTER" in dogmata.keywords


def test_it_strips_role_suffixes_from_names_and_keeps_duplicates_apart():
    text = ORKS.replace("Trukk (70 Points)", "Trukk (DEDICATED TRANSPORT) (70 Points)")
    units = parse_roster(text).units
    assert units[4].name == units[4].datasheet == "Trukk"
    assert units[4].dedicated_transport is True
    assert [unit.name for unit in units].count("Boyz") == 2


def test_it_warns_about_lines_it_could_not_place():
    text = ORKS.replace("CHARACTERS\n", "CHARACTERS\nsome stray note\n")
    assert "1 line(s) weren't understood and were left out." in parse_roster(text).warnings


def test_it_reads_a_pasted_list_without_its_title_and_header():
    """Only unit blocks pasted: the first unit is a unit, not the list's title."""
    text = ORKS.split("CHARACTERS\n\n", 1)[1]
    roster = parse_roster(text)
    assert roster.name == ""
    assert [unit.name for unit in roster.units][:2] == ["Warboss", "Painboy"]
    assert roster.total_points == 615


FIXTURES = Path(__file__).parent / "fixtures"


def test_it_reads_an_export_that_starts_without_its_title_line():
    """Issue 18 item 7: copied from its header, the export's first line is the faction,
    not the list's name, and the detachment stays the detachment."""
    roster = parse_roster((FIXTURES / "necrons-app-no-title.txt").read_bytes())

    assert roster.format == "wh40k-app-text"
    assert fields(roster, "name faction detachment battle_size") == (
        "",
        "Necrons",
        "Awakened Dynasty",
        "Incursion (1000 points)",
    )
    assert rows_of("""
        Overlord | 85 | 1 | C?--W
        Technomancer | 90 | 1 | C?--- | Phylacterine Hive
        Necron Warriors | 90 | 10 | --B--
        Doomsday Ark | 200 | 1 | -----
    """) == tuple(as_row(unit) for unit in roster.units)
    assert "The file doesn't give the list's name." in roster.warnings


@pytest.mark.parametrize(
    "header",
    [
        "Orks\nWar Horde\nIncursion (1,000 Points)",
        "Orks\nIncursion (1000 points)\nWar Horde",
        "Incursion (1000 points)\nOrks\nWar Horde",
        "Orks\nWar Horde and Da Big Hunt (3 Detachment Points)\nTake and Hold\n"
        "Strike Force (2,000 Points)",
    ],
    ids=["v1.29", "v1.48", "size-first", "detachment-points"],
)
def test_it_reads_each_header_layout_without_the_title_line(header):
    """The same header read the same with or without the title line above it."""
    with_title = parse_roster(ORKS.replace("Orks\nWar Horde\nIncursion (1,000 Points)", header))
    text = ORKS.replace("Waaagh Wednesday (1,000 Points)\n\n", "")
    without = parse_roster(text.replace("Orks\nWar Horde\nIncursion (1,000 Points)", header))

    assert without.name == "" and with_title.name == "Waaagh Wednesday"
    assert fields(without, "faction detachment battle_size") == fields(
        with_title, "faction detachment battle_size"
    )
    assert without.units == with_title.units
