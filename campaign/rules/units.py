"""What the rules need to know about one Crusade card (R2, R3.3)."""

from __future__ import annotations

from dataclasses import dataclass

from ._checks import require_non_negative
from .honours import max_battle_honours
from .ranks import Rank, is_no_xp, rank_for_xp, xp_cap
from .tables import SHAMEFUL_SCARS


@dataclass(frozen=True)
class UnitFacts:
    """A read-only snapshot of a unit, for eligibility checks."""

    name: str
    xp: int = 0
    is_character: bool = False
    epic_hero: bool = False
    titanic: bool = False
    fortification: bool = False
    swarm: bool = False
    battleline: bool = False
    dedicated_transport: bool = False
    legendary_veteran: bool = False
    has_enhancement: bool = False
    battle_honours: int = 0
    """Every honour the unit holds, relics included."""
    battle_scars: tuple[str, ...] = ()
    pending_promotions: int = 0

    def __post_init__(self) -> None:
        require_non_negative(
            xp=self.xp,
            battle_honours=self.battle_honours,
            pending_promotions=self.pending_promotions,
        )
        object.__setattr__(self, "battle_scars", tuple(self.battle_scars))

    @property
    def no_xp(self) -> bool:
        """R2.6: EPIC HERO, FORTIFICATION or SWARM."""
        return is_no_xp(
            epic_hero=self.epic_hero, fortification=self.fortification, swarm=self.swarm
        )

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


def marked_for_greatness_refusal(unit: UnitFacts) -> str | None:
    """R3.3: why ``unit`` can't be Marked for Greatness, or None if it can."""
    if unit.no_xp:
        return f"{unit.name} never gains XP, so it can't be Marked for Greatness."
    if unit.disgraced:
        return f"{unit.name} bears Disgraced or Mark of Shame, so it can't be Marked for Greatness."
    return None
