"""Battle Honours, Crusade Relics and Crusade points (R4, R7)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from enum import StrEnum
from typing import TYPE_CHECKING

from ._checks import require_non_negative
from .ranks import Rank

if TYPE_CHECKING:
    from .units import UnitFacts

MAX_BATTLE_HONOURS = 3
"""R4.3: honour limit for most units."""

MAX_BATTLE_HONOURS_CHARACTER = 6
"""R4.3/R6.3: honour limit for a CHARACTER or a unit with Legendary Veterans."""

HONOUR_CATEGORIES: dict[str, str] = {
    "battle_trait": "Battle Trait",
    "weapon_modification": "Weapon Modifications",
    "crusade_relic": "Crusade Relic",
    "custom": "Other Battle Honour",
}
"""R4.1: honour category key -> label; campaign books may add more."""

CRUSADE_RELIC = "crusade_relic"


class RelicCategory(StrEnum):
    """R4.5: the three kinds of Crusade Relic."""

    ARTIFICER = "artificer"
    ANTIQUITY = "antiquity"
    LEGENDARY = "legendary"

    @property
    def label(self) -> str:
        """Name of the category as the rules print it."""
        return _RELIC_LABELS[self]

    @property
    def crusade_points(self) -> int:
        """R4.5: Crusade points a relic of this category adds (instead of +1)."""
        return RELIC_CRUSADE_POINTS[self]

    @property
    def min_rank(self) -> Rank:
        """R4.5: lowest rank whose CHARACTER may take a relic of this category."""
        return RELIC_MIN_RANK[self]


_RELIC_LABELS: dict[RelicCategory, str] = {
    RelicCategory.ARTIFICER: "Artificer Relic",
    RelicCategory.ANTIQUITY: "Antiquity Relic",
    RelicCategory.LEGENDARY: "Legendary Relic",
}

RELIC_CRUSADE_POINTS: dict[RelicCategory, int] = {
    RelicCategory.ARTIFICER: 1,
    RelicCategory.ANTIQUITY: 2,
    RelicCategory.LEGENDARY: 3,
}
"""R4.5: Crusade points per relic category."""

RELIC_MIN_RANK: dict[RelicCategory, Rank] = {
    RelicCategory.ARTIFICER: Rank.BATTLE_READY,
    RelicCategory.ANTIQUITY: Rank.HEROIC,
    RelicCategory.LEGENDARY: Rank.LEGENDARY,
}
"""R4.5: rank gate per relic category (best reading; a campaign may change it)."""


def max_battle_honours(*, is_character: bool, legendary_veteran: bool) -> int:
    """R4.3: how many Battle Honours the unit may hold at once."""
    if is_character or legendary_veteran:
        return MAX_BATTLE_HONOURS_CHARACTER
    return MAX_BATTLE_HONOURS


def crusade_points(
    *,
    battle_honours: int,
    battle_scars: int,
    titanic: bool = False,
    relics: Iterable[RelicCategory] = (),
) -> int:
    """R7: +1 per non-relic honour (+2 if TITANIC), relic values, -1 per scar.

    ``battle_honours`` counts honours that are not relics; relics are passed
    separately by category. The total may be negative (R5.4).
    """
    require_non_negative(battle_honours=battle_honours, battle_scars=battle_scars)
    per_honour = 2 if titanic else 1
    relic_points = sum(RelicCategory(relic).crusade_points for relic in relics)
    return battle_honours * per_honour + relic_points - battle_scars


def honour_refusal(
    *,
    unit: UnitFacts,
    category: str,
    replacing: bool,
    relic_category: RelicCategory | None = None,
) -> str | None:
    """Why ``unit`` can't gain an honour of ``category`` now, or None if it can.

    R2.6 no-XP units never gain honours; R4.5 relics are for CHARACTER units that
    meet the category's rank gate; R4.3 at the cap one honour must be replaced.
    """
    if category not in HONOUR_CATEGORIES:
        raise ValueError(f"unknown Battle Honour category {category!r}")
    if (category == CRUSADE_RELIC) != (relic_category is not None):
        raise ValueError("relic_category is needed for, and only for, a crusade_relic")
    if unit.no_xp:
        return f"{unit.name} is an EPIC HERO, FORTIFICATION or SWARM unit: it never gains honours."
    if relic_category is not None:
        relic_category = RelicCategory(relic_category)
        if not unit.is_character:
            return f"Only CHARACTER units can carry Crusade Relics; {unit.name} is not one."
        if unit.rank < relic_category.min_rank:
            return (
                f"{relic_category.label}s need {relic_category.min_rank.label} rank; "
                f"{unit.name} is {unit.rank.label}."
            )
    if unit.at_honour_cap and not replacing:
        return (
            f"{unit.name} already has {unit.honour_cap} Battle Honours, the most it can hold: "
            "pick one to replace."
        )
    return None


def relic_taken_refusal(relic: str, *, relics_in_force: Collection[str]) -> str | None:
    """R4.5: a relic may appear only once in the whole Order of Battle."""
    if relic in relics_in_force:
        return f"{relic} is already carried by a unit in this Order of Battle."
    return None
