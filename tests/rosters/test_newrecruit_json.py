"""New Recruit's JSON export: BattleScribe's roster schema written as JSON."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from campaign.rosters import RosterError, parse_roster
from tests.rosters.expected import SAMPLES

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
    assert (from_json.name, from_json.faction, from_json.detachment, from_json.battle_size) == (
        from_xml.name,
        from_xml.faction,
        from_xml.detachment,
        from_xml.battle_size,
    )
    assert from_json.total_points == from_xml.total_points


def test_it_reads_a_new_recruit_json_export():
    roster = parse_roster((FIXTURES / "newrecruit-blood-angels.json").read_bytes())
    assert (
        roster.format,
        roster.name,
        roster.faction,
        roster.detachment,
        roster.battle_size,
        roster.total_points,
    ) == (
        "newrecruit-json",
        "Angels of Death",
        "Adeptus Astartes - Blood Angels",
        "Liberator Assault Group",
        "Incursion (1000 points)",
        880,
    )
    assert [
        (
            u.name,
            u.datasheet,
            u.points,
            u.models,
            u.character,
            u.epic_hero,
            u.battleline,
            u.dedicated_transport,
            u.enhancement,
            u.enhancement_points,
            u.warlord,
        )
        for u in roster.units
    ] == [
        (
            "Captain Aurelio",
            "Captain with Jump Pack",
            90,
            1,
            True,
            False,
            False,
            False,
            "Gift of Foresight",
            15,
            True,
        ),
        ("Lemartes", "Lemartes", 100, 1, True, True, False, False, "", None, False),
        (
            "Squad Aphael",
            "Assault Intercessors with Jump Packs",
            90,
            5,
            False,
            False,
            True,
            False,
            "",
            None,
            False,
        ),
        # Points on a unit-size upgrade with the models under it are not an Enhancement.
        (
            "Death Company Marines",
            "Death Company Marines",
            160,
            10,
            False,
            False,
            False,
            False,
            "",
            None,
            False,
        ),
        ("Rhino", "Rhino", 75, 1, False, False, False, True, "", None, False),
        ("Baal Predator", "Baal Predator", 135, 1, False, False, False, False, "", None, False),
        (
            "Sanguinary Guard",
            "Sanguinary Guard",
            230,
            5,
            False,
            False,
            False,
            False,
            "",
            None,
            False,
        ),
    ]
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
