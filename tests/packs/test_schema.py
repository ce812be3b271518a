"""docs/content-pack.schema.json describes exactly what the validator accepts (R11).

Both come from one declaration (campaign/packs/spec.py); the file is generated with
`make pack-files`.
"""

import json

from campaign.packs import SECTIONS, json_schema, schema_text, spec
from tests.packs.helpers import SCHEMA, sample


def test_it_keeps_the_schema_file_up_to_date_with_the_declaration():
    assert SCHEMA.read_text() == schema_text()


def test_it_is_a_draft_2020_12_schema_that_refuses_unknown_keys_everywhere():
    schema = json.loads(SCHEMA.read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"

    def objects(node):
        if isinstance(node, dict):
            if node.get("type") == "object":
                yield node
            for value in node.values():
                yield from objects(value)

    found = list(objects(schema))
    # the pack, its header, 10 kinds of item, trait table entries; the map and its territories
    assert len(found) == 15
    assert all(node["additionalProperties"] is False for node in found)


def test_it_lists_the_same_keys_enums_and_limits_as_the_validator():
    schema = json.loads(SCHEMA.read_text())
    props = schema["properties"]
    assert set(props) == {"format", "version", "pack", "agendas_per_battle", "map", *SECTIONS}
    assert (props["agendas_per_battle"]["minimum"], props["agendas_per_battle"]["maximum"]) == (
        1,
        10,
    )
    assert schema["dependentRequired"] == {"agendas": ["agendas_per_battle"]}
    assert schema["required"] == ["format", "version", "pack"]
    assert props["format"]["enum"] == [spec.FORMAT]
    assert (props["version"]["minimum"], props["version"]["maximum"]) == (1, 1)
    agenda = props["agendas"]["items"]
    assert agenda["required"] == ["id", "name", "effect", "xp", "keeps_tally"]
    assert (agenda["properties"]["xp"]["minimum"], agenda["properties"]["xp"]["maximum"]) == (0, 10)
    assert agenda["properties"]["name"] == {"type": "string", "maxLength": 80, "minLength": 1}
    assert agenda["properties"]["id"]["pattern"] == "^[a-z0-9-]{1,40}$"
    assert props["agendas"]["maxItems"] == 200
    requisition = props["requisitions"]["items"]["properties"]
    assert requisition["timing"]["enum"] == ["any", "before_battle", "after_battle"]
    assert requisition["target"]["enum"] == ["force", "unit"]
    assert props["counters"]["items"]["properties"]["per"]["enum"] == ["force", "unit"]
    assert props["crusade_relics"]["items"]["properties"]["category"]["enum"] == [
        "artificer",
        "antiquity",
        "legendary",
    ]


def test_it_says_which_fields_each_requisition_effect_kind_needs():
    """R6/R11.4: a counter effect names its counter and change; an upgrade, its upgrade."""
    rules = json_schema()["properties"]["requisitions"]["items"]["allOf"]
    by_kind = {rule["if"]["properties"]["effect_kind"]["const"]: rule["then"] for rule in rules}
    assert by_kind["counter"]["required"] == ["counter", "change"]
    assert by_kind["counter"]["properties"] == {"upgrade": False}
    assert by_kind["text"]["properties"] == {"counter": False, "change": False, "upgrade": False}


def test_it_describes_every_key_of_the_sample_pack():
    """Each key in the sample is in the schema's properties at its place."""
    schema = json.loads(SCHEMA.read_text())

    def check(value, node):
        if isinstance(value, dict):
            assert set(value) <= set(node["properties"]), set(value) - set(node["properties"])
            for key, inner in value.items():
                check(inner, node["properties"][key])
        elif isinstance(value, list):
            for inner in value:
                check(inner, node["items"])

    check(sample(), schema)
