"""The JSON Schema (draft 2020-12) of the map format, generated from ``spec``.

``make pack-files`` writes it to docs/campaign-map.schema.json, and a test keeps that file
up to date."""

from __future__ import annotations

import json
from typing import Any

from ..jsonfiles import schema_object
from . import spec

SCHEMA_ID = "https://example.invalid/crusade/campaign-map.schema.json"


def json_schema() -> dict[str, Any]:
    """The schema as a JSON value."""
    body = schema_object(spec.MAP)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Crusade campaign map",
        **body,
        "description": (
            f"{body['description']} Territory ids are unique; no two territories share a "
            "hex; neighbours name other territories of the map (a border is both ways); "
            "held_by names an alliance of the campaign the map is imported into; names are "
            "not blank; texts hold no control characters (a newline is allowed in "
            f"descriptions). Files are at most {spec.MAX_BYTES} bytes."
        ),
    }


def schema_text() -> str:
    """The schema file's exact text."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
