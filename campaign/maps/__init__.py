"""Campaign maps: a narrative campaign's territories as a file.

Plain Python, no Django (like ``campaign.packs``). ``load_map`` reads a map file's bytes
and returns a ``CampaignMap`` of dataclasses, or raises ``MapError`` whose ``problems``
name each place and rule. Modules: `spec` (the format, declared once), `model` (the
dataclasses), `validate`, `encode`, `schema`.
"""

from .encode import from_section, map_data, map_text, section_data
from .model import CampaignMap, MapHeader, MapSection, TerritoryEntry
from .schema import json_schema, schema_text
from .spec import FORMAT, MAP_COLUMNS, MAP_ROWS, MAX_BYTES, MOST_TERRITORIES, VERSION
from .validate import (
    MapError,
    check,
    check_holders,
    check_section,
    check_territories,
    load_map,
    parse,
)

__all__ = [
    "FORMAT",
    "MAP_COLUMNS",
    "MAP_ROWS",
    "MAX_BYTES",
    "MOST_TERRITORIES",
    "VERSION",
    "CampaignMap",
    "MapError",
    "MapHeader",
    "MapSection",
    "TerritoryEntry",
    "check",
    "check_holders",
    "check_section",
    "check_territories",
    "from_section",
    "json_schema",
    "load_map",
    "map_data",
    "map_text",
    "parse",
    "schema_text",
    "section_data",
]
