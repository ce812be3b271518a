"""The content pack format, declared once: the validator and the JSON Schema both read it.

Each object is an ``Obj`` of ``Field``s. A field's kind is "text", "id" (a lowercase
slug), "colour" (# and six hex digits), "int", "bool", "enum" or "list" (of ``item``
objects). Rules that span fields
(ids unique, cross references, ``least <= start <= most``, increasing thresholds, the
fields each ``effect_kind`` needs) are the validator's and are described in the schema's
``description``s and ``if``/``then`` blocks.
"""

from __future__ import annotations

from ..jsonfiles import NAME_MAX, Field, Limits, Obj
from ..maps import spec as map_spec
from . import model

FORMAT = "crusade-content-pack"
VERSION = 1
MAX_BYTES = 1_000_000
"""A pack file larger than this is refused before it is parsed."""
MAX_DEPTH = 8
"""Deepest nesting of arrays and objects a pack needs is 5 (pack, section, item, entries,
entry); anything past this is refused before parsing."""
MAX_ITEMS = 200
"""Most items in one section (and most entries in one Battle Traits table)."""
MAX_NUMBER_DIGITS = 12
"""A number written with more characters than this is refused while parsing."""
MAX_PROBLEMS = 50
"""The error lists at most this many problems (then says how many more there were)."""

EFFECT_MAX = 1000
LIMITS = Limits(MAX_BYTES, MAX_DEPTH, MAX_NUMBER_DIGITS, MAX_PROBLEMS, noun="pack")


def id_field() -> Field:
    return Field("id", "id", description="lowercase letters, digits and hyphens, 1 to 40")


def name_field() -> Field:
    return Field("name", "text", min_length=1, max_length=NAME_MAX)


def effect_field() -> Field:
    return Field(
        "effect",
        "text",
        max_length=EFFECT_MAX,
        description="may be empty: the organiser fills in an effect the pack doesn't know",
    )


def int_field(name: str, minimum: int, maximum: int, *, required: bool = True) -> Field:
    return Field(name, "int", required=required, minimum=minimum, maximum=maximum)


AGENDA = Obj(
    "agenda",
    model.Agenda,
    (
        id_field(),
        name_field(),
        effect_field(),
        int_field("xp", 0, 10),
        Field("keeps_tally", "bool"),
        int_field("limit_per_battle", 1, 10, required=False),
    ),
    "XP per achievement, within the units' XP caps.",
)
BLESSING = Obj("blessing", model.Blessing, (id_field(), name_field(), effect_field()))
THRESHOLD = Obj(
    "underdog threshold",
    model.UnderdogThreshold,
    (int_field("gap_at_least", 1, 1000), int_field("blessings", 1, 10)),
    "In increasing order of gap_at_least, each gap greater than the one before.",
    unique_id=False,
)
REQUISITION = Obj(
    "requisition",
    model.Requisition,
    (
        id_field(),
        name_field(),
        effect_field(),
        int_field("cost", 0, 20),
        Field(
            "cost_in",
            "id",
            description='"rp", or the id of one of this pack\'s counters (per force)',
        ),
        Field("timing", "enum", choices=("any", "before_battle", "after_battle")),
        Field("target", "enum", choices=("force", "unit")),
        Field("effect_kind", "enum", choices=("counter", "upgrade", "text")),
        Field(
            "counter",
            "id",
            required=False,
            description='with effect_kind "counter": the id of this pack\'s counter it changes',
        ),
        int_field("change", -100, 100, required=False),
        Field(
            "upgrade",
            "id",
            required=False,
            description='with effect_kind "upgrade": the id of this pack\'s upgrade it gives',
        ),
    ),
    "Bought like a core Requisition, never during a battle.",
)
EFFECT_KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "counter": ("counter", "change"),
    "upgrade": ("upgrade",),
    "text": (),
}
"""The fields each effect_kind needs; the others must be left out."""

UPGRADE = Obj(
    "upgrade",
    model.Upgrade,
    (id_field(), name_field(), effect_field(), int_field("crusade_points", 0, 3)),
    "Shown on the unit's card; its Crusade points add to the unit's.",
)
TRAIT_ENTRY = Obj("battle trait", model.TraitEntry, (id_field(), name_field(), effect_field()))
TRAIT_TABLE = Obj(
    "battle traits table",
    model.TraitTable,
    (
        id_field(),
        name_field(),
        Field("entries", "list", item=TRAIT_ENTRY, max_items=36),
    ),
    "Entries in dice order; ids unique within the table.",
)
RELIC = Obj(
    "crusade relic",
    model.Relic,
    (
        id_field(),
        name_field(),
        Field("category", "enum", choices=("artificer", "antiquity", "legendary")),
        effect_field(),
    ),
    "A relic of one of the three categories.",
)
SCAR = Obj(
    "battle scar",
    model.Scar,
    (id_field(), name_field(), effect_field()),
    "A scar a unit may carry.",
)
COUNTER = Obj(
    "counter",
    model.Counter,
    (
        id_field(),
        name_field(),
        Field("per", "enum", choices=("force", "unit")),
        int_field("start", -1000, 1000),
        int_field("least", -1000, 1000),
        int_field("most", -1000, 1000),
    ),
    "least <= start <= most.",
)
ALLIANCE = Obj(
    "alliance",
    model.Alliance,
    (
        id_field(),
        name_field(),
        Field("colour", "colour", description="# and six hex digits, e.g. #3366cc"),
        Field(
            "description",
            "text",
            max_length=EFFECT_MAX,
            description="may be empty: what the alliance fights for",
        ),
    ),
    "A side forces fight for; a campaign that enables the pack gains it (unless it "
    "already has an alliance of that name). Names are unique within the pack.",
)
HEADER = Obj(
    "pack",
    model.Header,
    (
        Field("slug", "id", description="lowercase letters, digits and hyphens, 1 to 40"),
        name_field(),
        Field("description", "text", max_length=EFFECT_MAX),
        Field(
            "source",
            "text",
            min_length=1,
            max_length=NAME_MAX,
            description='where it comes from, e.g. "core rules", "house rules"',
        ),
    ),
    unique_id=False,
)
PACK = Obj(
    "content pack",
    model.Pack,
    (
        Field("format", "enum", choices=(FORMAT,)),
        int_field("version", VERSION, VERSION),
        Field("pack", "object", item=HEADER),
        Field(
            "agendas_per_battle",
            "int",
            required=False,
            minimum=1,
            maximum=10,
            description="how many Agendas a player picks for a battle; needed with agendas",
        ),
        Field("agendas", "list", required=False, item=AGENDA),
        Field("blessings", "list", required=False, item=BLESSING),
        Field("underdog_thresholds", "list", required=False, item=THRESHOLD, max_items=20),
        Field("requisitions", "list", required=False, item=REQUISITION),
        Field("upgrades", "list", required=False, item=UPGRADE),
        Field("battle_traits", "list", required=False, item=TRAIT_TABLE, max_items=20),
        Field("crusade_relics", "list", required=False, item=RELIC),
        Field("battle_scars", "list", required=False, item=SCAR),
        Field("counters", "list", required=False, item=COUNTER, max_items=20),
        Field("alliances", "list", required=False, item=ALLIANCE, max_items=20),
        Field("map", "object", required=False, item=map_spec.SECTION),
    ),
    "One book or supplement, or a group's house rules.",
    unique_id=False,
)
SECTIONS: tuple[str, ...] = tuple(f.name for f in PACK.fields if f.kind == "list")
