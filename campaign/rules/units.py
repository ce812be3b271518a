"""What the rules need to know about one Crusade card (R2, R3.3, R4.3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ._checks import require_non_negative_fields
from .enums import Keyword, Rank
from .ranks import has_no_xp_keyword, rank_for_xp, xp_cap
from .tables import (
    BATTLE_WEARY,
    MARK_OF_SHAME,
    MAX_BATTLE_HONOURS,
    MAX_BATTLE_HONOURS_CHARACTER,
    SHAMEFUL_SCARS,
)


def max_battle_honours(*, is_character: bool, legendary_veteran: bool) -> int:
    """R4.3: how many Battle Honours the unit may hold at once."""
    if is_character or legendary_veteran:
        return MAX_BATTLE_HONOURS_CHARACTER
    return MAX_BATTLE_HONOURS


@dataclass(frozen=True, kw_only=True)
class UnitFacts:
    """A read-only snapshot of a card, for eligibility checks."""

    name: str
    datasheet: str = ""
    points: int = 0
    faction_keywords: frozenset[str] = frozenset()
    keywords: frozenset[Keyword] = frozenset()
    """R2.2: the rule-changing keywords the unit has."""
    xp: int = 0
    legendary_veteran: bool = False
    has_enhancement: bool = False
    battle_honours: int = 0
    """Every honour the unit holds, relics included."""
    battle_scars: tuple[str, ...] = ()
    pending_promotions: int = 0

    def __post_init__(self) -> None:
        require_non_negative_fields(self, "xp", "points", "battle_honours", "pending_promotions")
        object.__setattr__(self, "keywords", _keywords(self.keywords))
        object.__setattr__(self, "battle_scars", tuple(self.battle_scars))
        faction = self.faction_keywords
        object.__setattr__(
            self, "faction_keywords", frozenset({faction} if isinstance(faction, str) else faction)
        )

    def has(self, keyword: Keyword) -> bool:
        """R2.2: whether the unit has ``keyword``."""
        return keyword in self.keywords

    @property
    def is_character(self) -> bool:
        return Keyword.CHARACTER in self.keywords

    @property
    def no_xp(self) -> bool:
        """R2.6: EPIC HERO, FORTIFICATION or SWARM."""
        return has_no_xp_keyword(self.keywords)

    @property
    def rank(self) -> Rank:
        """R3.5: rank from the unit's XP."""
        return rank_for_xp(self.xp)

    @property
    def xp_cap(self) -> int | None:
        """R3.6: XP ceiling, or None when uncapped."""
        return xp_cap(is_character=self.is_character, legendary_veteran=self.legendary_veteran)

    @property
    def honour_cap(self) -> int:
        """R4.3: most honours the unit may hold."""
        return max_battle_honours(
            is_character=self.is_character, legendary_veteran=self.legendary_veteran
        )

    @property
    def at_honour_cap(self) -> bool:
        """R4.3: a new honour must replace an old one."""
        return self.battle_honours >= self.honour_cap

    @property
    def disgraced(self) -> bool:
        """R3.3/R6.2: carries the Disgraced or Mark of Shame scar."""
        return any(scar in SHAMEFUL_SCARS for scar in self.battle_scars)

    @property
    def battle_weary(self) -> bool:
        """R5.1: takes 1 off its Out of Action rolls."""
        return BATTLE_WEARY in self.battle_scars

    @property
    def cannot_attach(self) -> bool:
        """R5.4/R8.7: bears Mark of Shame, so it can't form an Attached unit."""
        return MARK_OF_SHAME in self.battle_scars


def _keywords(keywords: Iterable[Keyword | str]) -> frozenset[Keyword]:
    return frozenset(Keyword(keyword) for keyword in keywords)


def marked_for_greatness_refusal(unit: UnitFacts) -> str | None:
    """R3.3: why ``unit`` can't be Marked for Greatness, or None if it can."""
    if unit.no_xp:
        return f"{unit.name} never gains XP, so it can't be Marked for Greatness."
    if unit.disgraced:
        return f"{unit.name} bears Disgraced or Mark of Shame, so it can't be Marked for Greatness."
    return None
