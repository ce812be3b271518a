"""The armies of the benchmark league, after the real army lists in tests/rosters/samples.

Datasheets, points and model counts follow those exports (see tests/rosters/samples/SOURCES.md);
each faction gets a few more common datasheets so that a force of 200 units still
musters legal armies (at most three units of one datasheet, six if BATTLELINE or
DEDICATED TRANSPORT). Names are made up in each faction's style.

The tables themselves, and the players', missions' and agendas' names, are data:
they live in rosters.toml beside this module, one datasheet a line, so that an army
list can be copied in without writing Python. This module turns them into the
`Datasheet` and `Faction` values the seed uses.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Datasheet:
    """One kind of unit a faction fields, as a player copies it onto a Crusade card."""

    name: str
    points: int
    models: str
    """Which models, as the army list prints them: "1 Sergeant, 4 Infiltrators"."""
    wargear: str
    table: str = ""
    """Battle Traits table (Character, Infantry, Mounted, Vehicle); empty for other units."""
    max_models: int | None = None
    character: bool = False
    epic_hero: bool = False
    battleline: bool = False
    transport: bool = False
    swarm: bool = False

    @property
    def model_count(self) -> int:
        return sum(int(part.split()[0]) for part in self.models.split(", "))

    @property
    def weapons(self) -> list[str]:
        return [w.strip() for w in self.wargear.split(",") if w.strip()]


def epic(name: str, points: int, wargear: str, *, models: str = "") -> Datasheet:
    """A named EPIC HERO (a CHARACTER that never gains XP)."""
    return Datasheet(name, points, models or f"1 {name}", wargear, character=True, epic_hero=True)


def leader(name: str, points: int, wargear: str, *, models: str = "") -> Datasheet:
    """A CHARACTER that rolls on the Character Battle Traits table."""
    return Datasheet(name, points, models or f"1 {name}", wargear, "Character", character=True)


def squad(
    name: str,
    points: int,
    models: str,
    wargear: str,
    *,
    table: str = "Infantry",
    max_models: int | None = None,
    battleline: bool = False,
    swarm: bool = False,
) -> Datasheet:
    """Infantry, cavalry or a swarm: several models, often up to a datasheet maximum."""
    return Datasheet(
        name,
        points,
        models,
        wargear,
        table,
        max_models=max_models,
        battleline=battleline,
        swarm=swarm,
    )


def vehicle(name: str, points: int, wargear: str, *, transport: bool = False) -> Datasheet:
    """One vehicle; a DEDICATED TRANSPORT may be taken six times in an army."""
    return Datasheet(name, points, f"1 {name}", wargear, "Vehicle", transport=transport)


@dataclass(frozen=True)
class Faction:
    """What the forces of one faction field, and the names their forces and units get."""

    name: str
    """The force's faction, which is also the Faction keyword its armies muster under."""
    keywords: str
    datasheets: tuple[Datasheet, ...]
    force_names: tuple[str, ...]
    """Templates for force names; `{nth}` becomes an ordinal such as 13th."""
    forenames: tuple[str, ...]
    epithets: tuple[str, ...]
    squads: tuple[str, ...]
    """Designations for squads and vehicles: "Kroot Carnivores Kappa"."""


KINDS = {"epic": epic, "leader": leader, "squad": squad, "vehicle": vehicle}
"""The kinds of datasheet rosters.toml names, each with what makes one."""


def _datasheet(entry: dict) -> Datasheet:
    """A datasheet from its line in rosters.toml, where its kind's key holds its name."""
    fields = dict(entry)
    kinds = [key for key in fields if key in KINDS]
    if len(kinds) != 1:
        raise ValueError(f"rosters.toml: a datasheet is one of {', '.join(KINDS)}: {entry}")
    return KINDS[kinds[0]](fields.pop(kinds[0]), **fields)


def _faction(entry: dict, designations: dict[str, list[str]]) -> Faction:
    """A faction from its table in rosters.toml; `squads` names one of `designations`."""
    return Faction(
        name=entry["name"],
        keywords=entry["keywords"],
        datasheets=tuple(_datasheet(sheet) for sheet in entry["datasheets"]),
        force_names=tuple(entry["force_names"]),
        forenames=tuple(entry["forenames"]),
        epithets=tuple(entry["epithets"]),
        squads=tuple(designations[entry["squads"]]),
    )


_DATA = tomllib.loads(Path(__file__).with_name("rosters.toml").read_text(encoding="utf-8"))

FACTIONS_BY_KEY = {
    key: _faction(entry, _DATA["designations"]) for key, entry in _DATA["factions"].items()
}
"""Each faction by its table's key in rosters.toml ("ultramarines"), in the file's order."""
FACTIONS: tuple[Faction, ...] = tuple(FACTIONS_BY_KEY.values())
ULTRAMARINES = FACTIONS_BY_KEY["ultramarines"]
TAU = FACTIONS_BY_KEY["tau"]

PLAYER_NAMES: tuple[str, ...] = tuple(_DATA["player_names"])
MISSIONS: tuple[str, ...] = tuple(_DATA["missions"])
AGENDAS: tuple[str, ...] = tuple(_DATA["agendas"])


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def roman(number: int) -> str:
    """Small Roman numerals for repeated names: 2 -> II, 14 -> XIV."""
    numerals = [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for value, letters in numerals:
        while number >= value:
            out += letters
            number -= value
    return out


class UnitNamer:
    """Unit names for one force, unique within it, in the faction's style.

    EPIC HEROES keep their own name, other CHARACTERS get a forename and epithet, and
    squads and vehicles their datasheet and a designation: "Plague Marines of the
    Seventh Rot", "Intercessor Squad Tertius", "Stealth Battlesuits Kappa II".
    """

    def __init__(self, faction: Faction, rng: random.Random) -> None:
        self.faction = faction
        heroes = [f"{first} {last}" for first in faction.forenames for last in faction.epithets]
        rng.shuffle(heroes)
        self._heroes = heroes
        self._used: Counter[str] = Counter()

    def name(self, sheet: Datasheet) -> str:
        if sheet.epic_hero:
            return sheet.name
        if sheet.character:
            count = self._used["character"]
            self._used["character"] += 1
            base = self._heroes[count % len(self._heroes)]
            laps = count // len(self._heroes)
            return base if laps == 0 else f"{base} {roman(laps + 1)}"
        count = self._used[sheet.name]
        self._used[sheet.name] += 1
        designations = self.faction.squads
        designation = designations[count % len(designations)]
        laps = count // len(designations)
        return f"{sheet.name} {designation}" + ("" if laps == 0 else f" {roman(laps + 1)}")


def force_composition(faction: Faction, units: int, rng: random.Random) -> list[Datasheet]:
    """The datasheets of a force of `units` units: every datasheet in turn, shuffled.

    Each EPIC HERO appears at most once (it is a named individual); every round
    through the list brings its CHARACTERS, so every army has a Warlord to pick.
    """
    chosen: list[Datasheet] = []
    first_round = True
    while len(chosen) < units:
        sheets = [s for s in faction.datasheets if first_round or not s.epic_hero]
        rng.shuffle(sheets)
        chosen.extend(sheets[: units - len(chosen)])
        first_round = False
    return chosen
