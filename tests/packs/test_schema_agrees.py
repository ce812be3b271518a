"""The schema file refuses what the validator refuses, field by field (R11).

A small evaluator of the draft 2020-12 keywords the file uses (no schema library is a
dependency) runs the schema over the good packs and every bad case of test_bad_packs.
The rules a schema can't state (unique ids, links between sections, ordering, bounds
between fields, control characters) are the validator's alone, and the schema's
descriptions name them.
"""

import json
import re

import pytest

from tests.packs.helpers import CORE, SAMPLE, SCHEMA, sample
from tests.packs.test_bad_packs import CASES

SCHEMA_DATA = json.loads(SCHEMA.read_text())
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: type(v) is int,
    "boolean": lambda v: isinstance(v, bool),
}
VALIDATOR_ONLY = {
    "control character in a name",
    "duplicate id",
    "thresholds not increasing",
    "cost in an unknown counter",
    "changes an unknown counter",
    "changes a unit counter from the force",
    "upgrade for the force",
    "gives an unknown upgrade",
    "start outside the bounds",
    "duplicate entry in a traits table",
    "change of 0",
    "blank name",
    "counter named rp",
    "duplicate alliance id",
    "duplicate alliance name",
}


def valid(schema, value) -> bool:
    if isinstance(schema, bool):
        return schema
    checks = [
        "type" not in schema or TYPES[schema["type"]](value),
        "enum" not in schema or value in schema["enum"],
        "const" not in schema or value == schema["const"],
    ]
    if isinstance(value, str):
        checks += [
            "pattern" not in schema or re.search(schema["pattern"], value) is not None,
            len(value) >= schema.get("minLength", 0),
            len(value) <= schema.get("maxLength", len(value)),
        ]
    if type(value) is int:
        checks += [schema.get("minimum", value) <= value <= schema.get("maximum", value)]
    if isinstance(value, list):
        checks += [len(value) <= schema.get("maxItems", len(value))]
        checks += [valid(schema.get("items", True), item) for item in value]
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        checks += [key in value for key in schema.get("required", [])]
        if schema.get("additionalProperties") is False:
            checks += [key in properties for key in value]
        checks += [valid(properties[key], item) for key, item in value.items() if key in properties]
        for key, needed in schema.get("dependentRequired", {}).items():
            checks += [name in value for name in needed] if key in value else []
    for rule in schema.get("allOf", []):
        if valid(rule["if"], value):
            checks.append(valid(rule["then"], value))
    return all(checks)


def test_it_accepts_the_packs_that_ship():
    assert valid(SCHEMA_DATA, json.loads(SAMPLE.read_text()))
    assert valid(SCHEMA_DATA, json.loads(CORE.read_text()))


@pytest.mark.parametrize(("name", "change"), [c[:2] for c in CASES], ids=[c[0] for c in CASES])
def test_it_refuses_each_bad_case_the_schema_can_state(name, change):
    """R11: the schema and the validator agree; the cross-field rules are the validator's."""
    data = sample()
    change(data)
    assert valid(SCHEMA_DATA, data) == (name in VALIDATOR_ONLY)


def test_it_knows_every_validator_only_case_by_name():
    assert VALIDATOR_ONLY <= {case[0] for case in CASES}
