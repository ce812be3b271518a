"""The forces and Crusade cards the service tests field, built through the services.

Every card comes from one table of datasheets (`DATASHEETS`) and one builder (`card`);
the named builders (`commissar`, `krieg_squad`, ...) are that builder with the datasheet
filled in. Any value of a row can be overridden per card: `krieg_squad(force, points=90)`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from campaign.models import CrusadeForce, Unit
from tests.factories import make_force, make_unit

ASTRA = "Astra Militarum"
DEATH_GUARD = "Death Guard"

KRIEG_KEYWORDS = "Imperium, Astra Militarum"
PLAGUE_KEYWORDS = "Chaos, Death Guard"

# --------------------------------------------------------------------------- forces


def krieg_force(**extra) -> CrusadeForce:
    """A Death Korps of Krieg Order of Battle (rosters/app-text/astra-militarum-13th.txt)."""
    extra.setdefault("name", "13th Siege Regiment")
    return make_force(faction=ASTRA, **extra)


def plague_force(**extra) -> CrusadeForce:
    """A Death Guard Order of Battle (rosters/app-text/death-guard-plague-wall-annotated.txt)."""
    extra.setdefault("name", "Plague Wall")
    return make_force(faction=DEATH_GUARD, **extra)


# --------------------------------------------------------------------------- cards

# A fresh card of each datasheet: its default name and what the new-unit form holds.
DATASHEETS: dict[str, dict[str, Any]] = {
    # A CHARACTER unit of three models, 65 points.
    "Krieg Command Squad": {
        "name": "Lord Commissar Vell",
        "points": 65,
        "faction_keywords": KRIEG_KEYWORDS,
        "is_character": True,
        "is_infantry": True,
        "models_description": "1 Lord Commissar, 2 Veteran Guardsmen",
        "model_count": 3,
        "max_model_count": 3,
        "wargear": "Laspistol, plasma pistol, power fist; chainsword; servo-scribes",
    },
    # An EPIC HERO (a no-XP unit, R2.6), 100 points.
    "Lord Marshal Dreir": {
        "name": "Lord Marshal Dreir",
        "points": 100,
        "faction_keywords": KRIEG_KEYWORDS,
        "is_character": True,
        "is_epic_hero": True,
        "is_infantry": True,
        "wargear": "Laspistol, Sabre of Sacrifice, savage claws",
    },
    # BATTLELINE infantry, 10 of at most 20 models, 70 points.
    "Death Korps of Krieg": {
        "name": "1st Line Company",
        "points": 70,
        "faction_keywords": KRIEG_KEYWORDS,
        "is_battleline": True,
        "is_infantry": True,
        "models_description": "1 Watchmaster, 9 Troopers",
        "model_count": 10,
        "max_model_count": 20,
        "wargear": "Lasguns, long-las, chainsword, laspistol",
    },
    # A VEHICLE, at most 3 per army (R8.3), 180 points.
    "Leman Russ Battle Tank": {
        "points": 180,
        "faction_keywords": KRIEG_KEYWORDS,
        "is_vehicle": True,
        "wargear": "Battle cannon, heavy bolter, lascannon",
    },
    # A DEDICATED TRANSPORT, 70 points.
    "Chimera": {
        "name": "Chimera",
        "points": 70,
        "faction_keywords": KRIEG_KEYWORDS,
        "is_dedicated_transport": True,
        "is_vehicle": True,
        "wargear": "Multi-laser, heavy bolter, lasgun arrays",
    },
    # A TITANIC vehicle (+2 Crusade points per honour, R4.2), 480 points.
    "Baneblade": {
        "name": "Mars Alpha Pattern Baneblade",
        "points": 480,
        "faction_keywords": KRIEG_KEYWORDS,
        "is_titanic": True,
        "is_vehicle": True,
    },
    "Lord of Contagion": {
        "name": "Lord of Contagion",
        "points": 120,
        "faction_keywords": PLAGUE_KEYWORDS,
        "is_character": True,
        "is_infantry": True,
        "wargear": "Manreaper",
    },
    "Plague Marines": {
        "name": "Plague Marines",
        "points": 130,
        "faction_keywords": PLAGUE_KEYWORDS,
        "is_battleline": True,
        "is_infantry": True,
        "models_description": "1 Plague Champion, 6 Plague Marines",
        "model_count": 7,
        "max_model_count": 10,
        "wargear": "Plasma pistol, power fist, blight launcher, boltguns, plague spewer",
    },
    # The no-XP units of R2.6: an EPIC HERO, a FORTIFICATION and a SWARM.
    "Typhus": {
        "name": "Typhus",
        "points": 80,
        "faction_keywords": PLAGUE_KEYWORDS,
        "is_character": True,
        "is_epic_hero": True,
    },
    "Miasmic Malignifier": {
        "name": "Miasmic Malignifier",
        "points": 65,
        "faction_keywords": PLAGUE_KEYWORDS,
        "is_fortification": True,
    },
    "Nurglings": {
        "name": "Nurglings",
        "points": 40,
        "faction_keywords": PLAGUE_KEYWORDS,
        "is_swarm": True,
        "model_count": 3,
    },
}

NO_XP_DATASHEETS = {
    "EPIC HERO": "Typhus",
    "FORTIFICATION": "Miasmic Malignifier",
    "SWARM": "Nurglings",
}


def card(datasheet: str, force: CrusadeForce, name: str | None = None, **extra) -> Unit:
    """Add a card of one of DATASHEETS to `force`, with `extra` replacing the row's values."""
    values = {**DATASHEETS[datasheet], **extra}
    if name is not None:
        values["name"] = name
    return make_unit(force, datasheet=datasheet, **values)


commissar = partial(card, "Krieg Command Squad")
dreir = partial(card, "Lord Marshal Dreir")
krieg_squad = partial(card, "Death Korps of Krieg")
leman_russ = partial(card, "Leman Russ Battle Tank")
chimera = partial(card, "Chimera")
baneblade = partial(card, "Baneblade")
lord_of_contagion = partial(card, "Lord of Contagion")
plague_marines = partial(card, "Plague Marines")


def no_xp_unit(force: CrusadeForce, keyword: str) -> Unit:
    """R2.6: a Death Guard EPIC HERO, FORTIFICATION or SWARM unit."""
    return card(NO_XP_DATASHEETS[keyword], force)
