"""A ``CampaignMap`` back to its file: the exact inverse of reading it (``load_map``)."""

from __future__ import annotations

import json
from typing import Any

from ..jsonfiles import encode_object
from . import spec
from .model import CampaignMap, MapHeader, MapSection


def map_data(value: CampaignMap) -> dict[str, Any]:
    """The map as JSON data, keys in the format's order."""
    return encode_object(spec.MAP, value)


def section_data(value: MapSection) -> dict[str, Any]:
    """A pack's map section as JSON data."""
    return encode_object(spec.SECTION, value)


def map_text(value: CampaignMap) -> str:
    """The map file's text: two-space indents, UTF-8 kept as it is, a final newline."""
    return json.dumps(map_data(value), indent=2, ensure_ascii=False) + "\n"


def from_section(section: MapSection) -> CampaignMap:
    """A pack's map section as a map file of its own."""
    return CampaignMap(
        spec.FORMAT, spec.VERSION, MapHeader(section.name, section.description), section.territories
    )
