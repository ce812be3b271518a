"""New Recruit's JSON export: BattleScribe's roster schema written as JSON."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from campaign.rosters import RosterError, parse_roster
from tests.rosters.expected import SAMPLES
from tests.rosters.tables import as_row, cells, fields, rows_of

FIXTURES = Path(__file__).parent / "fixtures"

LISTS = {
    "costs",
    "costLimits",
    "forces",
    "selections",
    "categories",
    "profiles",
    "rules",
    "characteristics",
    "publications",
    "attributes",
}
NUMBERS = {"value", "number", "catalogueRevision", "gameSystemRevision", "battleScribeVersion"}


def ros_to_json(data: bytes) -> str:
    """Write a .ros as New Recruit writes JSON: attributes as keys, wrappers as lists,
    numbers as numbers, booleans as booleans, element text as ``$text``."""

    def convert(element: ET.Element) -> dict:
        result: dict = {}
        for child in element:
            tag = child.tag.rsplit("}", 1)[-1]
            if tag in LISTS:
                result[tag] = [convert(item) for item in child]
            elif tag == "description":
                result["description"] = child.text or ""
        for key, value in element.attrib.items():
            if key.startswith("{"):
                continue
            if key in NUMBERS:
                number = float(value)
                result[key] = int(number) if number.is_integer() else number
            elif value in ("true", "false"):
                result[key] = value == "true"
            else:
                result[key] = value
        if element.text and element.text.strip() and not len(element):
            result["$text"] = element.text
        return result

    return json.dumps({"roster": convert(ET.fromstring(data))})


ROS_SAMPLES = sorted((SAMPLES / "battlescribe-ros").glob("*.ros"))


@pytest.mark.parametrize("path", ROS_SAMPLES, ids=[path.name for path in ROS_SAMPLES])
def test_it_reads_a_roster_written_as_json_exactly_as_the_ros(path):
    """The same schema in either syntax gives the same roster."""
    data = path.read_bytes()
    from_xml = parse_roster(data)
    from_json = parse_roster(ros_to_json(data))
    assert from_json.format == "newrecruit-json"
    assert from_json.units == from_xml.units
    same = "name faction detachment battle_size total_points"
    assert fields(from_json, same) == fields(from_xml, same)


BLOOD_ANGELS = """
Captain Aurelio | 90 | 1 | C---W | Gift of Foresight | 15
Lemartes | 100 | 1 | CE---
Squad Aphael | 90 | 5 | --B--
# Points on a unit-size upgrade with the models under it are not an Enhancement.
Death Company Marines | 160 | 10 | -----
Rhino | 75 | 1 | ---T-
Baal Predator | 135 | 1 | -----
Sanguinary Guard | 230 | 5 | -----
"""


def test_it_reads_a_new_recruit_json_export():
    roster = parse_roster((FIXTURES / "newrecruit-blood-angels.json").read_bytes())
    assert fields(roster, "format name total_points") == ("newrecruit-json", "Angels of Death", 880)
    assert fields(roster, "faction detachment battle_size") == cells(
        "Adeptus Astartes - Blood Angels | Liberator Assault Group | Incursion (1000 points)"
    )
    assert tuple(as_row(unit) for unit in roster.units) == rows_of(BLOOD_ANGELS)
    assert {u.name: u.datasheet for u in roster.units if u.datasheet != u.name} == {
        "Captain Aurelio": "Captain with Jump Pack",
        "Squad Aphael": "Assault Intercessors with Jump Packs",
    }
    assert roster.warnings == ()


def test_it_reads_keywords_models_and_wargear_from_json():
    captain, _, squad = parse_roster(
        (FIXTURES / "newrecruit-blood-angels.json").read_bytes()
    ).units[:3]
    assert captain.keywords >= {"INFANTRY", "CHARACTER", "FLY", "ADEPTUS ASTARTES"}
    assert "WARLORD" not in captain.keywords
    assert captain.wargear == "Heavy bolt pistol, Thunder hammer"
    assert squad.models_description == (
        "1x Assault Intercessor Sergeant with Jump Pack, 4x Assault Intercessor with Jump Pack"
    )


def test_it_opens_up_selections_that_only_group_units():
    """Units grouped under an upgrade (e.g. an attached unit) stay separate units."""

    def unit(name, points):
        return {
            "name": name,
            "type": "unit",
            "costs": [{"name": "pts", "value": points}],
            "selections": [{"name": name, "type": "model", "number": 5}],
        }

    document = {
        "roster": {
            "name": "Grouped",
            "forces": [
                {
                    "catalogueName": "Xenos - Orks",
                    "selections": [
                        {
                            "name": "Attached unit",
                            "type": "upgrade",
                            "selections": [unit("Boyz", 85), unit("Nobz", 105)],
                        }
                    ],
                }
            ],
        }
    }
    roster = parse_roster(json.dumps(document))
    assert [(u.name, u.points, u.models) for u in roster.units] == [
        ("Boyz", 85, 5),
        ("Nobz", 105, 5),
    ]


@pytest.mark.parametrize(
    "document",
    [
        {"roster": {"forces": [{"selections": [{"name": 5, "type": [], "costs": "x"}]}]}},
        {
            "roster": {
                "forces": [
                    {
                        "selections": [
                            {
                                "name": "A",
                                "type": "unit",
                                "costs": [{"name": "pts", "value": "NaN"}],
                            }
                        ]
                    }
                ]
            }
        },
        {
            "roster": {
                "forces": [
                    {
                        "selections": [
                            {
                                "name": "A",
                                "type": "unit",
                                "number": 1e308,
                                "costs": [{"name": "pts", "value": 1e999}],
                            }
                        ]
                    }
                ]
            }
        },
        {"roster": {"forces": [{"selections": [None, 1, "x", {"type": "model"}]}]}},
        {"roster": {"forces": [], "costs": [{"name": "pts", "value": True}]}},
    ],
    ids=["wrong-types", "nan-cost", "huge-numbers", "junk-selections", "no-units"],
)
def test_it_reads_or_refuses_json_with_odd_values_but_never_crashes(document):
    try:
        roster = parse_roster(json.dumps(document))
    except RosterError as error:
        assert "\n" not in error.message
    else:
        assert all(unit.points >= 0 for unit in roster.units)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"roster": {"forces": [', "starts like JSON but isn't valid JSON"),
        ('{"army": []}', "isn't an army list it can read"),
        ("[1, 2, 3]", "isn't an army list it can read"),
        ('{"roster": {"forces": []}}', "No units found"),
    ],
)
def test_it_refuses_json_that_is_not_a_roster(text, message):
    with pytest.raises(RosterError, match=message):
        parse_roster(text)
