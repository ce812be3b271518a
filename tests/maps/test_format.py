"""The campaign map file: what it accepts, every problem named by place and rule, its
schema kept up to date, and encoding the exact inverse of reading."""

import json
from pathlib import Path

import pytest

from campaign import maps, packs, services
from campaign.models import Territory
from campaign.selectors.packs import export_pack
from tests.maps.helpers import SMALL, encode, small, war
from tests.packs.helpers import sample
from tests.rules.test_package import assert_imports_only_stdlib, assert_runs_without_django

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "campaign-map.schema.json"


def problems(data) -> list[str]:
    with pytest.raises(maps.MapError) as refused:
        maps.load_map(encode(data))
    return refused.value.problems


def test_it_reads_a_good_map():
    read = maps.load_map(encode(SMALL))
    assert read.map.name == "The Vell Reach"
    assert [t.id for t in read.territories] == ["hive-vell", "ash-wastes", "moon"]
    assert read.territories[1].neighbours == ("hive-vell", "moon")
    assert read.territories[1].held_by is None


def test_it_writes_back_exactly_the_file_it_read():
    text = maps.map_text(maps.load_map(encode(SMALL)))
    assert json.loads(text) == SMALL
    assert maps.map_text(maps.load_map(text.encode())) == text


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(format="crusade-content-pack"), "format: must be one of"),
        (lambda d: d.update(version=2), "version: must be 1"),
        (
            lambda d: d["territories"][0].update(column=30),
            "territories[0].column: must be between 0 and 29",
        ),
        (
            lambda d: d["territories"][0].update(row=-1),
            "territories[0].row: must be between 0 and 29",
        ),
        (
            lambda d: d["territories"][0].update(row="1"),
            "territories[0].row: must be a whole number",
        ),
        (
            lambda d: d["territories"][0].update(id="Hive Vell"),
            "territories[0].id: must be 1 to 40",
        ),
        (
            lambda d: d["territories"][1].update(id="hive-vell"),
            'territories[1].id: "hive-vell" is used twice',
        ),
        (
            lambda d: d["territories"][1].update(column=0),
            "territories[1]: column 0, row 0 is already",
        ),
        (
            lambda d: d["territories"][0].update(neighbours=["hive-vell"]),
            "territories[0].neighbours[0]: a territory can't border itself",
        ),
        (
            lambda d: d["territories"][0].update(neighbours=["mars"]),
            'territories[0].neighbours[0]: "mars" is no territory of this map',
        ),
        (
            lambda d: d["territories"][0].update(neighbours=["moon", "moon"]),
            'territories[0].neighbours[1]: "moon" is listed twice',
        ),
        (
            lambda d: d["territories"][0].update(neighbours="moon"),
            "territories[0].neighbours: must be a list",
        ),
        (
            lambda d: d["territories"][0].update(neighbours=[7]),
            "territories[0].neighbours[0]: must be 1 to 40",
        ),
        (
            lambda d: d["territories"][0].update(held_by=""),
            "territories[0].held_by: must be 1 to 80 characters",
        ),
        (
            lambda d: d["territories"][0].update(name="Hive\x00Vell"),
            "territories[0].name: must not hold control characters",
        ),
        (
            lambda d: d["territories"][0].update(name="   "),
            "territories[0].name: must not be blank",
        ),
        (
            lambda d: d["territories"][0].update(colour="red"),
            'territories[0]: unknown key "colour"',
        ),
        (lambda d: d["territories"][0].pop("row"), "territories[0].row: is missing"),
        (lambda d: d.update(territories={}), "territories: must be a list"),
        (lambda d: d.update(map="Reach"), "map: must be an object (map)"),
        (
            lambda d: d["territories"].__setitem__(0, 3),
            "territories[0]: must be an object (territory)",
        ),
    ],
)
def test_it_names_the_place_and_rule_of_each_problem(change, expected):
    data = small()
    change(data)
    assert any(p.startswith(expected) for p in problems(data)), problems(data)


def test_it_refuses_more_territories_than_a_map_holds():
    data = small()
    data["territories"] = [
        {"id": f"t{i}", "name": "T", "description": "", "column": i % 30, "row": i // 30}
        for i in range(maps.MOST_TERRITORIES + 1)
    ]
    assert problems(data) == ["territories: must hold at most 200 items"]


def test_it_lists_at_most_fifty_problems():
    data = small()
    data["territories"] = [
        {"id": f"t{i}", "name": "", "description": "", "column": 0, "row": 0} for i in range(80)
    ]
    found = problems(data)
    assert len(found) == 51 and found[-1].startswith("(file): and ")


def test_it_keeps_unicode_names_as_they_are():
    data = small()
    data["territories"][0]["name"] = "Ħive Vëll 星"
    read = maps.load_map(json.dumps(data, ensure_ascii=False).encode())
    assert read.territories[0].name == "Ħive Vëll 星"
    assert "Ħive Vëll 星" in maps.map_text(read)


def test_it_keeps_the_schema_file_up_to_date_with_the_declaration():
    assert SCHEMA.read_text() == maps.schema_text()


def test_the_schema_refuses_unknown_keys_and_knows_the_grid():
    schema = json.loads(SCHEMA.read_text())
    territory = schema["properties"]["territories"]["items"]
    assert schema["additionalProperties"] is False and territory["additionalProperties"] is False
    assert territory["properties"]["column"]["maximum"] == maps.MAP_COLUMNS - 1
    assert schema["properties"]["territories"]["maxItems"] == maps.MOST_TERRITORIES


def test_it_stands_alone_without_django(tmp_path):
    """Like the packs: plain Python, the standard library and its own modules only."""
    assert_imports_only_stdlib(Path(maps.__file__).parent)
    path = tmp_path / "map.json"
    path.write_bytes(encode(SMALL))
    assert_runs_without_django(
        "import sys\nfrom campaign.maps import load_map\n"
        "assert len(load_map(open(sys.argv[1], 'rb').read()).territories) == 3\n",
        str(path),
    )


def test_a_pack_may_carry_a_map_checked_like_a_map_file():
    data = sample()
    data["map"] = {**small()["map"], "territories": small()["territories"]}
    assert packs.check(data).map.territories[0].id == "hive-vell"
    assert packs.pack_data(packs.check(data))["map"] == data["map"]
    data["map"]["territories"][0]["neighbours"] = ["mars"]
    with pytest.raises(packs.PackError) as refused:
        packs.check(data)
    assert refused.value.problems == [
        'map.territories[0].neighbours[0]: "mars" is no territory of this map'
    ]


@pytest.mark.django_db
def test_a_pack_with_a_map_imports_exports_the_same_and_its_map_applies():
    w = war(with_map=False)
    data = sample()
    data["map"] = {**small()["map"], "territories": small()["territories"]}
    stored = services.import_pack(actor=w.organiser, data=encode(data), campaign=w.campaign)
    assert json.loads(export_pack(stored))["map"] == data["map"]
    services.apply_pack_map(actor=w.organiser, campaign=w.campaign, pack=stored)
    assert Territory.objects.filter(campaign=w.campaign, held_by=w.imperium).count() == 1
