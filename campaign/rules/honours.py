"""Battle Honours, Crusade Relics and Crusade points (R4, R7)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from ._checks import require_non_negative
from .enums import HonourCategory, RelicCategory
from .units import UnitFacts

HONOUR_CATEGORIES: dict[str, str] = {category.value: category.label for category in HonourCategory}
"""R4.1: honour category key -> label; campaign books may add more."""


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
    if (category == HonourCategory.CRUSADE_RELIC) != (relic_category is not None):
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


def available_relics(
    unit: UnitFacts, relics: Mapping[str, RelicCategory], *, relics_in_force: Collection[str]
) -> list[str]:
    """R4.5: the relics of ``relics`` (name -> category) that ``unit`` may take now.

    The unit must be a CHARACTER at the category's rank, and the relic must not be
    carried elsewhere in the Order of Battle already.
    """
    return [
        name
        for name, category in relics.items()
        if honour_refusal(
            unit=unit,
            category=HonourCategory.CRUSADE_RELIC,
            replacing=True,
            relic_category=RelicCategory(category),
        )
        is None
        and relic_taken_refusal(name, relics_in_force=relics_in_force) is None
    ]
