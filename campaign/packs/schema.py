"""The JSON Schema (draft 2020-12) of the pack format, generated from ``spec``.

``make pack-files`` writes it to docs/content-pack.schema.json, and a test keeps that file
up to date.
"""

from __future__ import annotations

import json
from typing import Any

from . import spec
from .spec import EFFECT_KIND_FIELDS, Field, Obj

SCHEMA_ID = "https://example.invalid/crusade/content-pack.schema.json"


def _field(f: Field) -> dict[str, Any]:
    result: dict[str, Any]
    if f.kind == "text":
        result = {"type": "string", "maxLength": f.max_length}
        if f.min_length:
            result["minLength"] = f.min_length
    elif f.kind == "id":
        result = {"type": "string", "pattern": spec.ID_PATTERN}
    elif f.kind == "colour":
        result = {"type": "string", "pattern": spec.COLOUR_PATTERN}
    elif f.kind == "enum":
        result = {"type": "string", "enum": list(f.choices)}
    elif f.kind == "bool":
        result = {"type": "boolean"}
    elif f.kind == "int":
        result = {"type": "integer", "minimum": f.minimum, "maximum": f.maximum}
    elif f.kind == "object":
        assert f.item is not None
        result = _object(f.item)
    else:
        assert f.item is not None
        result = {"type": "array", "maxItems": f.max_items, "items": _object(f.item)}
    if f.description:
        result["description"] = f.description
    return result


def _object(obj: Obj) -> dict[str, Any]:
    result: dict[str, Any] = {"type": "object"}
    if obj.description:
        result["description"] = obj.description
    result["properties"] = {f.name: _field(f) for f in obj.fields}
    result["required"] = [f.name for f in obj.fields if f.required]
    result["additionalProperties"] = False
    if obj is spec.REQUISITION:
        result["allOf"] = [
            {
                "if": {"properties": {"effect_kind": {"const": kind}}},
                "then": {
                    "required": list(needed),
                    "properties": {
                        name: False
                        for name in ("counter", "change", "upgrade")
                        if name not in needed
                    },
                },
            }
            for kind, needed in EFFECT_KIND_FIELDS.items()
        ]
    return result


def json_schema() -> dict[str, Any]:
    """The schema as a JSON value."""
    body = _object(spec.PACK)
    body["dependentRequired"] = {"agendas": ["agendas_per_battle"]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Crusade content pack",
        **body,
        "description": (
            f"{body['description']} Ids are unique within each section (and within a table's "
            "entries); a requisition's cost_in, counter and upgrade name this pack's own "
            "counters and upgrades; a counter has least <= start <= most; underdog "
            'thresholds go up; no counter is called "rp"; alliance names are unique; '
            "names are not blank; texts hold no "
            "control characters (a newline is allowed in effects and descriptions). "
            f"Files are at most {spec.MAX_BYTES} bytes."
        ),
    }


def schema_text() -> str:
    """The schema file's exact text."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
