"""The JSON Schema (draft 2020-12) of the pack format, generated from ``spec``.

``make pack-files`` writes it to docs/content-pack.schema.json, and a test keeps that file
up to date.
"""

from __future__ import annotations

import json
from typing import Any

from ..jsonfiles import Obj, schema_object
from . import spec
from .spec import EFFECT_KIND_FIELDS

SCHEMA_ID = "https://example.invalid/crusade/content-pack.schema.json"


def _requisition_kinds() -> list[dict[str, Any]]:
    """Each effect_kind needs its fields, and the others must be left out."""
    return [
        {
            "if": {"properties": {"effect_kind": {"const": kind}}},
            "then": {
                "required": list(needed),
                "properties": {
                    name: False for name in ("counter", "change", "upgrade") if name not in needed
                },
            },
        }
        for kind, needed in EFFECT_KIND_FIELDS.items()
    ]


def _extend(obj: Obj, result: dict[str, Any]) -> None:
    if obj is spec.REQUISITION:
        result["allOf"] = _requisition_kinds()


def _object(obj: Obj) -> dict[str, Any]:
    return schema_object(obj, _extend)


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
