"""Requisitions: costs and who may buy them when (R6)."""

from __future__ import annotations

from math import ceil

from ._checks import require_non_negative
from .edition import EDITION
from .enums import Keyword, Requisition
from .force import rp_refusal
from .tables import MAX_BATTLE_HONOURS_CHARACTER, NON_CHARACTER_XP_CAP
from .units import UnitFacts

REQUISITION_TIMING: dict[Requisition, str] = {
    Requisition.INCREASE_SUPPLY_LIMIT: "any",
    Requisition.RENOWNED_HEROES: "any",
    Requisition.LEGENDARY_VETERANS: "any",
    Requisition.REARM_AND_RESUPPLY: "before_battle",
    Requisition.REPAIR_AND_RECUPERATE: "after_battle",
    Requisition.FRESH_RECRUITS: "any",
}
"""R6's "when" column as one of three timings: any time (outside a battle), before a
battle, after one. Renowned Heroes and Legendary Veterans have conditions of their own
(R6.2, R6.3), checked by `requisition_refusals`."""

REQUISITION_DESCRIPTIONS: dict[Requisition, str] = {
    Requisition.INCREASE_SUPPLY_LIMIT: "Raise the force's Supply Limit so more units fit.",
    Requisition.RENOWNED_HEROES: (
        "Give this CHARACTER an Enhancement. If it has a promotion waiting, this settles it "
        "instead of a Battle Honour. Its points go up by the Enhancement's points."
    ),
    Requisition.LEGENDARY_VETERANS: (
        f"Lifts the {NON_CHARACTER_XP_CAP}XP cap: the unit can rank up to Heroic and Legendary "
        f"and hold up to {MAX_BATTLE_HONOURS_CHARACTER} Battle Honours."
    ),
    Requisition.REARM_AND_RESUPPLY: (
        "Change the unit's wargear. Weapons you replace lose their Weapon Modifications "
        "and Crusade Relics."
    ),
    Requisition.REPAIR_AND_RECUPERATE: (
        "Remove one Battle Scar; the unit gets its Crusade point back."
    ),
    Requisition.FRESH_RECRUITS: (
        "Add models to the unit, up to its datasheet maximum, and pay their points."
    ),
}
"""What each Requisition does, in a sentence a player reads before buying it."""


def requisition_cost(
    req: Requisition, *, battle_honours: int = 0, other_enhancements: int = 0
) -> int:
    """R6: RP cost of ``req``.

    Renowned Heroes: 1 + other Enhancements (R6.2); Legendary Veterans: 3 (R6.3);
    Repair and Recuperate: 1 + honours (R6.5); Fresh Recruits: 1 + half the honours
    rounded up (R6.6); the rest 1. Each is capped at its maximum.
    """
    req = Requisition(req)
    require_non_negative(battle_honours=battle_honours, other_enhancements=other_enhancements)
    price = EDITION.requisition_costs[req.value]
    cost = price.base
    if price.honours_per_rp:
        cost += ceil(battle_honours / price.honours_per_rp)
    if price.per_other_enhancement:
        cost += other_enhancements
    return min(cost, price.most)


def requisition_refusals(
    req: Requisition,
    *,
    rp: int,
    in_battle: bool,
    unit: UnitFacts | None = None,
    other_enhancements: int = 0,
    force_has_played: bool = True,
    unit_has_played: bool = True,
) -> list[str]:
    """R6: every reason ``req`` can't be bought now; an empty list means it can.

    Supply Limit checks for the points a change adds are made separately (R1.3).
    """
    req = Requisition(req)
    reasons: list[str] = []
    cost = requisition_cost(
        req,
        battle_honours=unit.battle_honours if unit else 0,
        other_enhancements=other_enhancements,
    )
    if (short := rp_refusal(rp=rp, cost=cost)) is not None:
        reasons.append(short)
    if in_battle:
        reasons.append("Requisitions can't be bought while a battle is being fought.")
    if not req.needs_unit:
        return reasons
    if unit is None:
        reasons.append(f"Pick a unit for {req.label}.")
        return reasons

    if req is Requisition.RENOWNED_HEROES:
        reasons.extend(
            _renowned_heroes_refusals(
                unit, force_has_played=force_has_played, unit_has_played=unit_has_played
            )
        )
    elif req is Requisition.LEGENDARY_VETERANS:
        reasons.extend(_legendary_veterans_refusals(unit))
    elif req is Requisition.REPAIR_AND_RECUPERATE and not unit.battle_scars:
        reasons.append(f"{unit.name} has no Battle Scar to remove.")
    return reasons


def _renowned_heroes_refusals(
    unit: UnitFacts, *, force_has_played: bool, unit_has_played: bool
) -> list[str]:
    """R6.2: who may take an Enhancement, and when."""
    reasons = enhancement_holder_refusals(unit)
    if unit.has_enhancement:
        reasons.append(f"{unit.name} already has an Enhancement.")
    if unit.disgraced:
        reasons.append(f"{unit.name} bears Disgraced or Mark of Shame.")
    starting_force = not force_has_played and not unit_has_played
    if not unit.pending_promotions and not starting_force:
        reasons.append(
            "Renowned Heroes is only for a unit settling a promotion "
            "(instead of its Battle Honour) or while the force is first being raised."
        )
    return reasons


def enhancement_holder_refusals(unit: UnitFacts) -> list[str]:
    """R6.2: why ``unit`` can't hold an Enhancement at all (empty if it can)."""
    reasons: list[str] = []
    if not unit.is_character:
        reasons.append(f"Only a CHARACTER can take an Enhancement; {unit.name} is not one.")
    if unit.has(Keyword.EPIC_HERO):
        reasons.append(f"{unit.name} is an EPIC HERO and can't take an Enhancement.")
    return reasons


def legendary_veteran_holder_refusals(unit: UnitFacts) -> list[str]:
    """R6.3: why ``unit`` can't be Legendary Veterans at all (empty if it can)."""
    reasons: list[str] = []
    if unit.is_character:
        reasons.append(f"{unit.name} is a CHARACTER and has no XP cap to lift.")
    if unit.no_xp:
        reasons.append(f"{unit.name} never gains XP.")
    return reasons


def _legendary_veterans_refusals(unit: UnitFacts) -> list[str]:
    """R6.3: only a capped non-CHARACTER unit may become Legendary Veterans."""
    reasons = legendary_veteran_holder_refusals(unit)
    if unit.legendary_veteran:
        reasons.append(f"{unit.name} is already Legendary Veterans.")
    if not unit.no_xp and unit.xp < NON_CHARACTER_XP_CAP:
        reasons.append(
            f"{unit.name} needs {NON_CHARACTER_XP_CAP}XP for Legendary Veterans; "
            f"it has {unit.xp}XP."
        )
    return reasons


def fresh_recruits_refusals(
    *,
    name: str,
    model_count: int,
    models_added: int,
    max_model_count: int | None,
    points: int,
    new_points: int,
) -> dict[str, str]:
    """R6.6: what is wrong with adding ``models_added`` models at ``new_points`` points,
    by the field it concerns (empty when nothing is)."""
    refusals: dict[str, str] = {}
    if models_added < 1:
        refusals["models_added"] = "Add at least one model."
    if max_model_count is None:
        refusals["max_model_count"] = f"Give {name}'s datasheet maximum number of models."
    elif model_count + models_added > max_model_count:
        refusals["models_added"] = (
            f"{name} can have at most {max_model_count} models; it has {model_count}, "
            f"so at most {max(0, max_model_count - model_count)} can join."
        )
    if new_points <= points:
        refusals["points"] = (
            f"More models cost more points: {name} is {points} points now; "
            "enter its points with the new models."
        )
    return refusals
