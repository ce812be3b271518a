"""The core pack, built from the rules tables so every name and number stays declared once.

``core_pack_data()`` is the pack as JSON data; docs/core-pack.json is its file, and a
test keeps the file up to date (``make pack-files`` writes it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..rules.enums import REQUISITION_MAX_COST, Requisition
from ..rules.requisitions import REQUISITION_DESCRIPTIONS, REQUISITION_TIMING, requisition_cost
from ..rules.tables import BATTLE_SCAR_EFFECTS, BATTLE_TRAIT_TABLES, CRUSADE_RELICS
from . import spec

CORE_SLUG = "core"
SAMPLE_PACK = Path(__file__).resolve().parents[2] / "docs" / "sample-house-pack.json"
"""The example house pack that ships (invented for this project), which the demo and the
benchmark's league enable."""


def slug(name: str) -> str:
    """A pack id from a name: "Vell's Last Stand" -> "vells-last-stand"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")[:40]


def _requisition(req: Requisition) -> dict[str, Any]:
    cost = requisition_cost(req)
    most = REQUISITION_MAX_COST[req]
    effect = REQUISITION_DESCRIPTIONS[req]
    if most != cost:
        effect += f" Costs {cost}RP or more, rising as the rules say, at most {most}RP."
    return {
        "id": slug(req.label),
        "name": req.label,
        "effect": effect,
        "cost": cost,
        "cost_in": "rp",
        "timing": REQUISITION_TIMING[req],
        "target": "unit" if req.needs_unit else "force",
        "effect_kind": "text",
    }


def core_pack_data() -> dict[str, Any]:
    """The core rules as a content pack: Battle Traits, Crusade Relics, Battle Scars and
    Requisitions, from the rules tables."""
    return {
        "format": spec.FORMAT,
        "version": spec.VERSION,
        "pack": {
            "slug": CORE_SLUG,
            "name": "Core rules",
            "description": (
                "The Crusade rules' own tables: Requisitions, Battle Traits, Crusade Relics "
                "and Battle Scars. Effects are short summaries; an empty one is for the "
                "organiser to fill in."
            ),
            "source": "core rules",
        },
        "requisitions": [_requisition(req) for req in Requisition],
        "battle_traits": [
            {
                "id": slug(str(table)),
                "name": str(table),
                "entries": [
                    {"id": slug(name), "name": name, "effect": effect}
                    for _roll, (name, effect) in sorted(rows.items())
                ],
            }
            for table, rows in BATTLE_TRAIT_TABLES.items()
        ],
        "crusade_relics": [
            {"id": slug(name), "name": name, "category": str(category), "effect": effect}
            for name, (category, effect) in CRUSADE_RELICS.items()
        ],
        "battle_scars": [
            {"id": slug(name), "name": name, "effect": effect}
            for name, effect in BATTLE_SCAR_EFFECTS.items()
        ],
    }


def core_pack_text() -> str:
    """docs/core-pack.json's exact text."""
    return json.dumps(core_pack_data(), indent=2, ensure_ascii=False) + "\n"
