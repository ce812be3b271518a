"""New Recruit's text exports: the full ``[N pts]`` style and the ``(N pts)`` styles."""

import dataclasses
from pathlib import Path

import pytest

from campaign.rosters import parse_roster
from campaign.rosters.newrecruit_text import named_like_an_enhancement
from tests.rosters.tables import as_row, cells, fields, rows_of

FULL = """\
Imperium - Adeptus Astartes - Dark Angels - Ravenwing Raid - [1000 pts]

# ++ Army Roster ++ [1000 pts]
## Configuration
Battle Size: Incursion (1000 Point limit)
Detachment: Unforgiven Task Force
Show/Hide Options: Legends are visible

## Epic Hero [150 pts]
Sammael [150 pts]: Warlord, Corvex, Twin storm bolter

## Character [105 pts]
Chaplain on Bike [105 pts]: Pennant of Remembrance [15 pts], Absolver bolt pistol, Crozius arcanum

## Battleline [160 pts]
Intercessor Squad [80 pts]:
• 1x Intercessor Sergeant: Bolt rifle, Close combat weapon
• 4x Intercessor: Bolt rifle, Close combat weapon
Intercessor Squad [80 pts]:
• 1x Intercessor Sergeant: Bolt rifle, Close combat weapon
• 4x Intercessor: Bolt rifle, Close combat weapon

## Dedicated Transport [85 pts]
Impulsor [85 pts]: Armoured hull, Bellicatus missile array, Ironhail heavy stubber

## Mounted [500 pts]
Ravenwing Black Knights [250 pts]:
• 1x Ravenwing Huntmaster [10 pts]: Corvus hammer, Plasma talon
• 2x Ravenwing Black Knight: Corvus hammer, Plasma talon
Ravenwing Black Knights [250 pts]:
• 3x Ravenwing Black Knight: Corvus hammer, Plasma talon

## Allied Units [0 pts]
"""

FULL_UNITS = rows_of("""
Sammael | 150 | 1 | CE??W
Chaplain on Bike | 105 | 1 | C-??- | Pennant of Remembrance | 15
Intercessor Squad | 80 | 5 | --B?-
Intercessor Squad | 80 | 5 | --B?-
Impulsor | 85 | 1 | --?T-
Ravenwing Black Knights | 250 | 3 | --??-
Ravenwing Black Knights | 250 | 3 | --??-
""")


def rows(text: str) -> tuple:
    return tuple(as_row(unit) for unit in parse_roster(text).units)


def test_it_reads_the_full_style():
    roster = parse_roster(FULL)
    assert roster.format == "newrecruit-text-full"
    header = "Ravenwing Raid | Adeptus Astartes - Dark Angels | Unforgiven Task Force"
    assert fields(roster, "name faction detachment") == cells(header)
    assert roster.battle_size == "Incursion (1000 points)"
    assert roster.total_points == 1000
    assert rows(FULL) == FULL_UNITS


def test_it_reads_a_costed_item_as_the_enhancement_and_keeps_it_out_of_wargear():
    chaplain = parse_roster(FULL).units[1]
    assert (chaplain.enhancement, chaplain.enhancement_points) == ("Pennant of Remembrance", 15)
    assert chaplain.wargear == "Absolver bolt pistol, Crozius arcanum"


def test_it_reads_groups_as_primary_categories_and_model_lines_as_models():
    roster = parse_roster(FULL)
    squad, knights = roster.units[2], roster.units[5]
    assert squad.models_description == "1x Intercessor Sergeant, 4x Intercessor"
    assert {"BATTLELINE"} <= squad.keywords
    assert "MOUNTED" in knights.keywords
    assert knights.models_description == "1x Ravenwing Huntmaster, 2x Ravenwing Black Knight"


def test_it_adds_up_forces_when_the_title_line_is_missing():
    text = FULL.split("\n", 2)[2].replace(
        "## Allied Units [0 pts]\n",
        (
            "# ++ Allied Detachment ++ [40 pts]\n## Infantry [40 pts]\nServitors [40 pts]:\n"
            "• 4x Servitor: Servo-arm\n"
        ),
    )
    roster = parse_roster(text)
    assert roster.total_points == 1040
    assert roster.name == ""
    assert roster.units[-1].character is False


def test_it_reads_a_title_line_without_a_list_name():
    roster = parse_roster(FULL.replace(" - Ravenwing Raid - [1000 pts]", " - [1000 pts]", 1))
    assert (roster.name, roster.faction) == ("Dark Angels", "Adeptus Astartes")
    roster = parse_roster(
        FULL.replace(
            "Imperium - Adeptus Astartes - Dark Angels - Ravenwing Raid", ("Xenos - Necrons")
        )
    )
    assert (roster.name, roster.faction) == ("", "Necrons")


def test_it_finds_an_enhancement_by_the_weapon_it_upgrades():
    """``X`` beside ``Weapon (X upgrade)`` or ``X upgrade``: X is the Enhancement."""
    text = FULL.replace(
        "Chaplain on Bike [105 pts]: Pennant of Remembrance [15 pts], Absolver",
        "Chaplain on Bike [105 pts]: Master-crafted Relic, Crozius (Master-crafted Relic upgrade), "
        "Absolver",
    )
    chaplain = parse_roster(text).units[1]
    assert (chaplain.enhancement, chaplain.enhancement_points) == ("Master-crafted Relic", None)
    assert "Master-crafted Relic," not in chaplain.wargear


def test_it_reads_a_detachment_granted_character_keyword():
    text = FULL.replace(
        "Impulsor [85 pts]: Armoured hull", "Impulsor [85 pts]: Unforgiven Task Force Character"
    )
    assert parse_roster(text).units[4].character is True


WTC = """\
+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - Necrons
+ DETACHMENT: Awakened Dynasty
+ TOTAL ARMY POINTS: 1000pts
+
+ WARLORD: Char2: Overlord
+ ENHANCEMENT: Phylacterine Hive (on Char1: Technomancer)
+ NUMBER OF UNITS: 6
+ SECONDARY: - Bring It Down: (2x2)
+++++++++++++++++++++++++++++++++++++++++++++++

Char1: 1x Technomancer (75 pts): Staff of light
Enhancement: Phylacterine Hive (+15 pts)
Leading Necron Warriors
Char2: 1x Overlord (85 pts): Overlord's blade, Tachyon arrow

10x Necron Warriors (90 pts)
\u2022 10x Necron Warrior: 10 with Gauss flayer
  Attached to Technomancer
10x Necron Warriors (90 pts): 10 with Gauss reaper
3x Lokhust Heavy Destroyers (165 pts)
\u2022 1x Lokhust Heavy Destroyer
    1 with Gauss destructor
\u2022 2x Lokhust Heavy Destroyer
    2 with Enmitic exterminator
1x Doomsday Ark (200 pts): Doomsday cannon, 2x Gauss flayer array

Created with newrecruit.eu v35.12
"""

WTC_UNITS = rows_of("""
Technomancer | 90 | 1 | C???- | Phylacterine Hive | 15
Overlord | 85 | 1 | C???W
Necron Warriors | 90 | 10 | --??-
Necron Warriors | 90 | 10 | --??-
Lokhust Heavy Destroyers | 165 | 3 | --??-
Doomsday Ark | 200 | 1 | --??-
""")


def test_it_reads_the_wtc_style():
    """CharN marks CHARACTERS; the Warlord comes from the header when no line marks it."""
    text = WTC.replace("Char1: 1x Technomancer (75 pts)", "Char1: 1x Technomancer (90 pts)")
    roster = parse_roster(text)
    assert roster.format == "newrecruit-text-wtc"
    assert (roster.faction, roster.detachment, roster.total_points) == (
        "Necrons",
        "Awakened Dynasty",
        1000,
    )
    assert rows(text) == WTC_UNITS
    assert roster.units[0].enhancement_points == 15
    assert roster.units[4].models_description == (
        "1x Lokhust Heavy Destroyer, 2x Lokhust Heavy Destroyer"
    )
    assert roster.units[3].wargear == "Gauss reaper"


def test_it_warns_when_the_header_unit_count_or_total_disagrees():
    warnings = parse_roster(WTC.replace("NUMBER OF UNITS: 6", "NUMBER OF UNITS: 7")).warnings
    assert "The file says it has 7 units but lists 6." in warnings
    assert "The file's total is 1000 pts but its units add up to 705 pts." in warnings


GW = """\
+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Chaos - World Eaters
+ DETACHMENT: Berzerker Warband
+ TOTAL ARMY POINTS: 500pts
+++++++++++++++++++++++++++++++++++++++++++++++

CHARACTER

1x Master of Executions (115 pts)
\u2022 1x Axe of dismemberment
\u2022 1x Bolt pistol
\u2022 Warlord
\u2022 Berzerker Glaive (+35 pts)

BATTLELINE

10x Khorne Berzerkers (180 pts)
\u2022 1x Khorne Berzerker Champion
    \u2022 1x Chainblade
    \u2022 1x Plasma pistol
\u2022 9x Khorne Berzerker
    \u2022 9x Chainblade
    \u2022 9x Bolt pistol

OTHER DATASHEETS

1x Maulerfiend (140 pts)
\u2022 1x Maulerfiend fists
\u2022 2x Magma cutter
3x Eightbound (125 pts)
\u2022 1x Eightbound Champion
  \u2022 1x Chainblades
\u2022 2x Eightbound
  \u2022 2x Chainblades
"""


def test_it_reads_the_gw_style():
    """Sections as in the app; an item with ``(+N pts)`` is the Enhancement."""
    assert rows(GW) == rows_of("""
        Master of Executions | 115 | 1 | C???W | Berzerker Glaive | 35
        Khorne Berzerkers | 180 | 10 | --B?-
        Maulerfiend | 140 | 1 | --??-
        Eightbound | 125 | 3 | --??-
    """)
    master, berzerkers, maulerfiend = parse_roster(GW).units[:3]
    assert master.enhancement_points == 35
    assert berzerkers.models_description == "1x Khorne Berzerker Champion, 9x Khorne Berzerker"
    assert maulerfiend.wargear == "1x Maulerfiend fists, 2x Magma cutter"


SHORT = """\
Technomancer (75pts): Staff of light, Phylacterine Hive [15 pts]
Overlord (85pts): Warlord, Overlord's blade

10x Necron Warriors (90pts)
3x Lokhust Heavy Destroyers (165pts)
"""


def test_it_reads_the_short_style():
    roster = parse_roster(SHORT)
    assert roster.format == "newrecruit-text-short"
    assert rows(SHORT) == rows_of("""
        Technomancer | 75 | 1 | ????- | Phylacterine Hive | 15
        Overlord | 85 | 1 | ????W
        Necron Warriors | 90 | 10 | ????-
        Lokhust Heavy Destroyers | 165 | 3 | ????-
    """)
    assert roster.total_points == 415
    assert "The file doesn't give a total; its units add up to 415 pts." in roster.warnings


@pytest.mark.parametrize("text", [FULL, WTC, GW, SHORT], ids=["full", "wtc", "gw", "short"])
@pytest.mark.parametrize(
    "transform",
    [
        lambda text: text.replace("\n", "\r\n"),
        lambda text: "\ufeff" + text.replace("\n", "  \n"),
        lambda text: text.replace("\u2022 ", "\u2022\u00a0"),
    ],
    ids=["crlf", "bom-trailing-spaces", "nbsp"],
)
def test_it_reads_the_same_list_whatever_the_whitespace(text, transform):
    assert rows(transform(text)) == rows(text)


@pytest.mark.parametrize("value", ["\u00b9", "99999999", "-3", "six", "", "\u0663"])
def test_it_ignores_a_unit_count_it_cannot_read(value):
    roster = parse_roster(WTC.replace("NUMBER OF UNITS: 6", f"NUMBER OF UNITS: {value}"))
    assert len(roster.units) == 6
    assert not any("units but lists" in warning for warning in roster.warnings)


FIXTURES = Path(__file__).parent / "fixtures"
RED_TITHE = rows_of("""
# Both styles: the same units and Enhancement; only the "+++" style gives its cost.
Daemon Prince of Khorne | 195 | 1 | C???W | Favoured of Khorne
Master of Executions | 80 | 1 | C???-
Khorne Berzerkers | 180 | 10 | -???-
Khorne Berzerkers | 180 | 10 | -???-
Maulerfiend | 140 | 1 | -???-
Eightbound | 135 | 3 | -???-
""")


def _red_tithe(style: str):
    return parse_roster((FIXTURES / f"world-eaters-nr-{style}.txt").read_text(encoding="utf-8"))


def _without_battleline_and_cost(roster) -> tuple:
    """The full style's groups say BATTLELINE; the "+++" style doesn't. Costs compared apart."""
    return tuple(
        dataclasses.replace(
            as_row(unit), flags=(unit.character, None, None, None), enhancement_points=None
        )
        for unit in roster.units
    )


def test_it_reads_an_enhancement_listed_without_its_cost_in_the_full_style_by_its_name():
    """Issue 18 item 7: ``Favoured of Khorne`` among a Daemon Prince's items is its
    Enhancement (its points are in the unit's), not wargear; the player is told to check
    it and type its cost."""
    roster = _red_tithe("full")
    prince = roster.units[0]

    assert (prince.enhancement, prince.enhancement_points) == ("Favoured of Khorne", None)
    assert prince.wargear == "Hellforged weapons, Infernal cannon"
    assert any("Favoured of Khorne" in w and "check it" in w for w in roster.warnings)
    assert "Icon of Khorne" in roster.units[2].wargear


def test_it_reads_the_same_army_alike_in_the_full_and_the_plus_styles():
    """The same army in New Recruit's full and "+++" styles: the same units, the same
    Enhancement on the same unit; the "+++" style also gives its cost."""
    full, wtc = _red_tithe("full"), _red_tithe("wtc")

    assert (full.format, wtc.format) == ("newrecruit-text-full", "newrecruit-text-wtc")
    assert _without_battleline_and_cost(full) == _without_battleline_and_cost(wtc) == RED_TITHE
    assert [u.enhancement_points for u in wtc.units] == [15, None, None, None, None, None]
    assert [u.wargear for u in full.units] == [u.wargear for u in wtc.units]
    assert (full.faction, full.detachment) == (wtc.faction, wtc.detachment)


@pytest.mark.parametrize(
    ("item", "named"),
    [
        ("Favoured of Khorne", True),
        ("Berzerker Glaive", True),
        ("Pennant of Remembrance", True),
        ("Hellforged weapons", False),
        ("Axe of dismemberment", False),
        ("Bolt pistol", False),
        ("Warlord", False),
        ("Corvex", False),
        ("2x Shield Drone", False),
        ("Gun Drone (Twin pulse carbine)", False),
        ("T'au flamer", False),
    ],
)
def test_it_tells_an_enhancements_name_by_its_shape(item, named):
    """A title (every word capitalised but small joining words) is named like an
    Enhancement; sentence-case wargear and counted items are not."""
    assert named_like_an_enhancement(item) is named


def test_it_guesses_no_enhancement_when_two_items_are_named_like_one():
    text = (FIXTURES / "world-eaters-nr-full.txt").read_text(encoding="utf-8")
    text = text.replace("Hellforged weapons", "Hellforged Weapons")

    prince = parse_roster(text).units[0]

    assert prince.enhancement == ""
    assert "Favoured of Khorne" in prince.wargear
