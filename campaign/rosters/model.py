"""What every roster parser returns: one army list, read-only."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

APP_TEXT = "wh40k-app-text"
NEWRECRUIT_FULL = "newrecruit-text-full"
NEWRECRUIT_WTC = "newrecruit-text-wtc"
NEWRECRUIT_SHORT = "newrecruit-text-short"
NEWRECRUIT_JSON = "newrecruit-json"
BATTLESCRIBE_ROS = "battlescribe-ros"
BATTLESCRIBE_ROSZ = "battlescribe-rosz"

FORMAT_LABELS: dict[str, str] = {
    APP_TEXT: "Warhammer 40,000 app text export",
    NEWRECRUIT_FULL: "New Recruit text export",
    NEWRECRUIT_WTC: "New Recruit WTC text export",
    NEWRECRUIT_SHORT: "New Recruit short text export",
    NEWRECRUIT_JSON: "New Recruit JSON export",
    BATTLESCRIBE_ROS: "BattleScribe .ros roster",
    BATTLESCRIBE_ROSZ: "BattleScribe .rosz roster",
}
"""Every ``Roster.format`` value, with the name a player knows it by."""

ROLE_KEYWORDS: dict[str, str] = {
    "character": "CHARACTER",
    "epic_hero": "EPIC HERO",
    "battleline": "BATTLELINE",
    "dedicated_transport": "DEDICATED TRANSPORT",
}
"""The keyword behind each yes/no role flag of a unit."""

_LIMIT = re.compile(r"\(([0-9]{1,6}) points\)$")


@dataclass(frozen=True, kw_only=True)
class RosterUnit:
    """One unit as the file lists it.

    ``points`` includes the unit's Enhancement. A role flag is None when the file
    doesn't say; ``keywords`` holds the upper-case keywords the file shows, the role
    keywords of every flag that is True among them.
    """

    name: str
    datasheet: str
    points: int
    enhancement: str = ""
    enhancement_points: int | None = None
    """None when the file names the Enhancement but not its cost."""
    models_description: str = ""
    """The models as the file lists them, e.g. ``1x Plague Champion, 6x Plague Marine``."""
    models: int = 1
    """Model count; 1 when the file lists only wargear."""
    wargear: str = ""
    warlord: bool = False
    character: bool | None = None
    epic_hero: bool | None = None
    battleline: bool | None = None
    dedicated_transport: bool | None = None
    keywords: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        keywords = {keyword.upper() for keyword in self.keywords}
        keywords.update(
            label for flag, label in ROLE_KEYWORDS.items() if getattr(self, flag) is True
        )
        object.__setattr__(self, "keywords", frozenset(keywords))


@dataclass(frozen=True, kw_only=True)
class Roster:
    """One army list: its header facts, its units in file order, and what it left unsaid."""

    format: str
    """One of FORMAT_LABELS."""
    name: str = ""
    faction: str = ""
    detachment: str = ""
    battle_size: str = ""
    """E.g. ``Strike Force (2000 points)``, whatever wording the file used."""
    total_points: int = 0
    """The total the file states, or the sum of its units when it states none."""
    units: tuple[RosterUnit, ...] = ()
    warnings: tuple[str, ...] = field(default=())
    """One line each: what the file didn't say or what doesn't add up."""

    @property
    def format_label(self) -> str:
        return FORMAT_LABELS[self.format]

    @property
    def units_points(self) -> int:
        """The sum of the units' points, Enhancements included."""
        return sum(unit.points for unit in self.units)

    @property
    def points_limit(self) -> int | None:
        """The battle size's points limit, when the file gives one."""
        match = _LIMIT.search(self.battle_size)
        return int(match.group(1)) if match else None
