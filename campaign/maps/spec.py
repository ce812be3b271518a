"""The campaign map format, declared once: the validator, the encoder and the JSON Schema
all read it. Rules that span fields (one territory per hex, neighbours name known ids and
not the territory itself) are the validator's and are described in the schema."""

from __future__ import annotations

from ..jsonfiles import NAME_MAX, Field, Limits, Obj
from . import model

FORMAT = "crusade-campaign-map"
VERSION = 1
MAP_COLUMNS = 30
MAP_ROWS = 30
"""The largest grid a map may use (offset coordinates, column and row from 0)."""
MOST_TERRITORIES = 200
MOST_NEIGHBOURS = 20
DESCRIPTION_MAX = 4000
MAX_BYTES = 1_500_000
"""A map file larger than this is refused before it is parsed."""
MAX_DEPTH = 5
"""A map needs 4 levels (file, territories, territory, neighbours)."""
MAX_NUMBER_DIGITS = 12
MAX_PROBLEMS = 50
LIMITS = Limits(MAX_BYTES, MAX_DEPTH, MAX_NUMBER_DIGITS, MAX_PROBLEMS, noun="map")

TERRITORY = Obj(
    "territory",
    model.TerritoryEntry,
    (
        Field("id", "id", description="lowercase letters, digits and hyphens, 1 to 40"),
        Field("name", "text", min_length=1, max_length=NAME_MAX),
        Field("description", "text", max_length=DESCRIPTION_MAX),
        Field("column", "int", minimum=0, maximum=MAP_COLUMNS - 1),
        Field("row", "int", minimum=0, maximum=MAP_ROWS - 1),
        Field(
            "neighbours",
            "ids",
            required=False,
            max_items=MOST_NEIGHBOURS,
            description="ids of the territories it borders (each border is both ways: "
            "listing it on one side is enough)",
        ),
        Field(
            "held_by",
            "text",
            required=False,
            min_length=1,
            max_length=NAME_MAX,
            description="the name of the campaign's alliance that holds it, if any",
        ),
    ),
    "A hex of the grid (offset coordinates: odd columns sit half a hex lower); one "
    "territory per hex.",
)
TERRITORIES = Field("territories", "list", item=TERRITORY, max_items=MOST_TERRITORIES)
HEADER = Obj(
    "map",
    model.MapHeader,
    (
        Field("name", "text", min_length=1, max_length=NAME_MAX),
        Field("description", "text", max_length=DESCRIPTION_MAX),
    ),
    unique_id=False,
)
MAP = Obj(
    "campaign map",
    model.CampaignMap,
    (
        Field("format", "enum", choices=(FORMAT,)),
        Field("version", "int", minimum=VERSION, maximum=VERSION),
        Field("map", "object", item=HEADER),
        TERRITORIES,
    ),
    "The territories of a narrative campaign's map.",
    unique_id=False,
)
SECTION = Obj(
    "map",
    model.MapSection,
    (*HEADER.fields, TERRITORIES),
    "A campaign map carried by a content pack: an organiser applies it to a campaign "
    "that has no territories yet.",
    unique_id=False,
)
