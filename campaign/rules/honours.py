"""Battle Honours, Crusade Relics and Crusade points (R4, R7)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from ._checks import require_non_negative
from .enums import HonourCategory, Keyword, Rank, RelicCategory, TraitTable
from .units import UnitFacts

HONOUR_CATEGORIES: dict[str, str] = {category.value: category.label for category in HonourCategory}
"""R4.1: honour category key -> label; campaign books may add more."""
RELIC = HonourCategory.CRUSADE_RELIC


def crusade_points(
    *,
    battle_honours: int,
    battle_scars: int,
    titanic: bool = False,
    relics: Iterable[RelicCategory] = (),
    upgrades: Iterable[int] = (),
) -> int:
    """R7: +1 per non-relic honour (+2 if TITANIC), relic values, -1 per scar, and the
    Crusade points a pack gives each of the unit's upgrades (``upgrades``).

    ``battle_honours`` counts honours that are not relics; relics are passed
    separately by category. The total may be negative (R5.4).
    """
    require_non_negative(battle_honours=battle_honours, battle_scars=battle_scars)
    per_honour = 2 if titanic else 1
    relic_points = sum(RelicCategory(relic).crusade_points for relic in relics)
    upgrade_points = sum(upgrades)
    require_non_negative(upgrade_points=upgrade_points)
    return battle_honours * per_honour + relic_points + upgrade_points - battle_scars


def card_crusade_points(
    *,
    honours: Iterable[tuple[str, str]],
    scars: int,
    titanic: bool = False,
    upgrades: Iterable[int] = (),
) -> int:
    """R7 for one card from its active honours, each a (category, relic category) pair:
    a Crusade Relic counts by its category, any other honour as a Battle Honour; with its
    number of active scars and its upgrades' points (`crusade_points`)."""
    honours = list(honours)
    relics = [RelicCategory(relic) for category, relic in honours if category == RELIC]
    return crusade_points(
        battle_honours=len(honours) - len(relics),
        battle_scars=scars,
        titanic=titanic,
        relics=relics,
        upgrades=upgrades,
    )


def honour_refusal(
    *,
    unit: UnitFacts,
    category: str,
    replacing: bool,
    relic_category: RelicCategory | None = None,
    rank: Rank | None = None,
) -> str | None:
    """Why ``unit`` can't gain an honour of ``category`` now, or None if it can.

    R2.6 no-XP units never gain honours; R4.5 relics are for CHARACTER units that
    meet the category's rank gate; R4.3 at the cap one honour must be replaced.

    ``rank`` is the rank the honour rewards. Decision: a relic taken for a promotion is
    gated by the rank that promotion reached, not by the rank the unit has climbed to
    since (a unit that jumped two ranks settles the lower one at the lower gate). With
    no ``rank`` (an honour from a mission), the unit's current rank gates it.
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
        reached = unit.rank if rank is None else Rank(rank)
        if reached < relic_category.min_rank:
            return (
                f"{relic_category.label}s need {relic_category.min_rank.label} rank; "
                f"this honour is for {unit.name} reaching {reached.label}."
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
    unit: UnitFacts,
    relics: Mapping[str, RelicCategory],
    *,
    relics_in_force: Collection[str],
    rank: Rank | None = None,
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
            rank=rank,
        )
        is None
        and relic_taken_refusal(name, relics_in_force=relics_in_force) is None
    ]


def fitting_trait_tables(keywords: Collection[Keyword]) -> list[TraitTable]:
    """R4.4: the Battle Traits tables that fit a unit with ``keywords``.

    CHARACTER (unless also a MONSTER or VEHICLE), INFANTRY, MOUNTED and VEHICLE each
    open their own table; a unit may fit several, or none.
    """
    keywords = set(keywords)
    fits = {
        TraitTable.CHARACTER: Keyword.CHARACTER in keywords
        and not keywords & {Keyword.MONSTER, Keyword.VEHICLE},
        TraitTable.INFANTRY: Keyword.INFANTRY in keywords,
        TraitTable.MOUNTED: Keyword.MOUNTED in keywords,
        TraitTable.VEHICLE: Keyword.VEHICLE in keywords,
    }
    return [table for table in TraitTable if fits[table]]


def trait_table_refusal(unit: UnitFacts, table: str) -> str | None:
    """R4.4: why ``table`` doesn't fit ``unit``, or None if it does."""
    fitting = fitting_trait_tables(unit.keywords)
    if table in fitting:
        return None
    if not fitting:
        return (
            f"No Battle Traits table fits {unit.name}: it needs the CHARACTER, INFANTRY, "
            "MOUNTED or VEHICLE keyword."
        )
    names = " or ".join(t.label for t in fitting)
    return f"The {table} table doesn't fit {unit.name}; pick the {names} table."


def weapon_modification_refusal(
    weapon: str, *, honoured_weapons: Collection[str], enhancement_weapon: str = ""
) -> str | None:
    """R4.6: a weapon already modified, a relic or the Enhancement's can't be modified."""
    key = weapon.strip().casefold()
    if key in {w.strip().casefold() for w in honoured_weapons}:
        return f"{weapon} is already modified or is a relic; pick another weapon."
    if enhancement_weapon and key == enhancement_weapon.strip().casefold():
        return f"{weapon} is the unit's Enhancement; pick another weapon."
    return None
