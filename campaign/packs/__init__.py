"""Content packs: Crusade content (Agendas, Blessings, Requisitions, counters, tables) as data.

Plain Python, no Django (like ``campaign.rules`` and ``campaign.rosters``). ``load_pack``
reads a pack file's bytes and returns a ``Pack`` of dataclasses, or raises ``PackError``
whose ``problems`` name each place and rule.

Modules: `spec` (the format, declared once), `model` (the dataclasses), `validate`
(parsing and checks), `encode` (a Pack back to its file), `schema` (the JSON Schema from
`spec`), `core` (the core pack from the rules tables).
"""

from .core import CORE_SLUG, SAMPLE_PACK, core_pack_data, core_pack_text
from .encode import pack_data, pack_text
from .errors import PackError
from .model import Pack
from .schema import json_schema, schema_text
from .spec import FORMAT, MAX_BYTES, MAX_DEPTH, SECTIONS, VERSION
from .validate import check, load_pack, parse

__all__ = [
    "CORE_SLUG",
    "FORMAT",
    "MAX_BYTES",
    "MAX_DEPTH",
    "SAMPLE_PACK",
    "SECTIONS",
    "VERSION",
    "Pack",
    "PackError",
    "check",
    "core_pack_data",
    "core_pack_text",
    "json_schema",
    "load_pack",
    "pack_data",
    "pack_text",
    "parse",
    "schema_text",
]
