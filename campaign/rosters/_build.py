"""Turning what a parser gathered into a Roster, with the warnings every format shares."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import RosterError
from .model import FORMAT_LABELS, ROLE_KEYWORDS, Roster, RosterUnit

FLAG_WARNINGS: dict[str, str] = {
    "character": "The file doesn't say which units are CHARACTERS.",
    "epic_hero": "The file doesn't say which CHARACTERS are EPIC HEROES.",
    "battleline": "The file doesn't say which units are BATTLELINE.",
    "dedicated_transport": "The file doesn't say which units are DEDICATED TRANSPORTS.",
}

MAX_UNITS = 1_000
"""Even an Apocalypse army is a few hundred units; more is a damaged or hostile file."""

MAX_ENHANCEMENTS = 4
"""A unit has one Enhancement; a few more are kept so the player sees the file's mistake."""

_ROLE_SUFFIX = re.compile(r"\((BATTLELINE|DEDICATED TRANSPORTS?|CHARACTER|EPIC HERO)\)$")


def _copied(draft: object, names: str) -> dict[str, object]:
    """The attributes ``names`` (space-separated) of ``draft``, to pass on as keywords."""
    return {name: getattr(draft, name) for name in names.split()}


@dataclass
class UnitDraft:
    """A unit while its lines are being read."""

    name: str
    points: int
    datasheet: str = ""
    enhancements: list[tuple[str, int | None]] = field(default_factory=list)
    model_count: int | None = None
    """The count the file prints for the whole unit (``10x Kroot Carnivores``), if any."""
    models: list[tuple[int, str]] = field(default_factory=list)
    wargear: list[str] = field(default_factory=list)
    warlord: bool = False
    flags: dict[str, bool | None] = field(default_factory=dict)
    keywords: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        match = _ROLE_SUFFIX.search(self.name)
        if match:
            role = match.group(1).rstrip("S").replace(" ", "_").lower()
            self.name = self.name[: match.start()].rstrip()
            self.flags[role] = True
        self.datasheet = self.datasheet or self.name

    def set_flag(self, flag: str, value: bool | None) -> None:
        """Record what the file says about a role, never overwriting a yes with a guess."""
        if value is None or self.flags.get(flag) is True:
            return
        self.flags[flag] = value

    @property
    def enhancement(self) -> str:
        return ", ".join(name for name, _ in self.enhancements)

    @property
    def enhancement_points(self) -> int | None:
        """The Enhancements' cost; None unless the file gives the cost of each one."""
        costs = [points for _, points in self.enhancements if points is not None]
        return sum(costs) if costs and len(costs) == len(self.enhancements) else None

    def add_enhancement(self, name: str, points: int | None) -> None:
        """Record an Enhancement; naming the same one twice adds its cost if it was missing."""
        name = name.strip()
        if not name:
            return
        for index, (known, cost) in enumerate(self.enhancements):
            if known == name:
                if cost is None:
                    self.enhancements[index] = (name, points)
                return
        if len(self.enhancements) < MAX_ENHANCEMENTS:
            self.enhancements.append((name, points))

    def add_costed_enhancement(self, text: str, cost_pattern: re.Pattern[str]) -> None:
        """``Name (+15 pts)``: an Enhancement, with the cost ``cost_pattern`` finds at its end."""
        text = text.strip()
        cost = cost_pattern.search(text)
        if cost:
            self.add_enhancement(text[: cost.start()], int(cost.group(1)))
        else:
            self.add_enhancement(text, None)

    def build(self) -> RosterUnit:
        flags = {flag: self.flags.get(flag) for flag in ROLE_KEYWORDS}
        if flags["epic_hero"]:
            flags["character"] = True
        if flags["character"] is False:
            flags["epic_hero"] = False
        models = sum(count for count, _ in self.models)
        described = self.models or ([(self.model_count, self.name)] if self.model_count else [])
        return RosterUnit(
            **_copied(self, "name datasheet points enhancement enhancement_points warlord"),
            models_description=", ".join(f"{count}x {name}" for count, name in described),
            models=self.model_count or models or 1,
            wargear=", ".join(self.wargear),
            keywords=frozenset(self.keywords),
            **flags,
        )


@dataclass
class RosterDraft:
    """A roster while its file is being read."""

    format: str
    stated_total: int | None = None
    name: str = ""
    faction: str = ""
    detachment: str = ""
    battle_size: str = ""
    units: list[UnitDraft] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def add_unit(self, unit: UnitDraft) -> UnitDraft:
        """Append ``unit``; RosterError once the file lists more units than any army has."""
        if len(self.units) >= MAX_UNITS:
            raise RosterError(f"The file lists more than {MAX_UNITS} units, more than any army.")
        self.units.append(unit)
        return unit

    def build(self) -> Roster:
        """The finished Roster; RosterError when the file held no unit at all."""
        if not self.units:
            raise RosterError(
                f"No units found: this looks like a {FORMAT_LABELS[self.format]}, "
                "but it lists no unit with its points."
            )
        units = tuple(draft.build() for draft in self.units)
        listed = sum(unit.points for unit in units)
        warnings = list(self.warnings)
        if self.stated_total is None:
            warnings.append(f"The file doesn't give a total; its units add up to {listed} pts.")
        elif self.stated_total != listed:
            warnings.append(
                f"The file's total is {self.stated_total} pts but its units add up to {listed} pts."
            )
        for label, value in (
            ("the list's name", self.name),
            ("the faction", self.faction),
            ("the detachment", self.detachment),
            ("the battle size", self.battle_size),
        ):
            if not value:
                warnings.append(f"The file doesn't give {label}.")
        if not any(unit.warlord for unit in units):
            warnings.append("The file doesn't say which unit is the Warlord.")
        for flag, warning in FLAG_WARNINGS.items():
            if any(getattr(unit, flag) is None for unit in units):
                warnings.append(warning)
        roles = set(ROLE_KEYWORDS.values())
        if any(not unit.keywords - roles for unit in units):
            warnings.append(
                "The file doesn't give every unit's keywords (INFANTRY, MOUNTED, VEHICLE...)."
            )
        if any(unit.enhancement and unit.enhancement_points is None for unit in units):
            warnings.append(
                "The file doesn't give Enhancement costs; they are counted in their units' points."
            )
        return Roster(
            **_copied(self, "format name faction detachment battle_size"),
            total_points=listed if self.stated_total is None else self.stated_total,
            units=units,
            warnings=tuple(dict.fromkeys(warnings)),
        )
