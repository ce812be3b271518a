"""Out of Action tests and their outcomes (R5)."""

from __future__ import annotations

from ._checks import require_non_negative
from .enums import OutOfAction
from .tables import BATTLE_WEARY_MODIFIER, MAX_BATTLE_SCARS, OUT_OF_ACTION_PASS
from .units import UnitFacts

REMOVED_FOR_GOOD = (
    f"With {MAX_BATTLE_SCARS} Battle Scars and no Battle Honours left, "
    "the unit is removed from the Order of Battle."
)
"""R5.3: why a unit that failed its test leaves the Order of Battle."""


def out_of_action_passes(roll: int, *, battle_weary: bool = False, no_xp: bool = False) -> bool:
    """R5.1: whether a D6 ``roll`` passes; no-XP units (R2.6) always pass."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise ValueError(f"a D6 roll is 1 to 6, got {roll!r}")
    if no_xp:
        return True
    modifier = BATTLE_WEARY_MODIFIER if battle_weary else 0
    return roll + modifier >= OUT_OF_ACTION_PASS


def unit_passes_out_of_action(unit: UnitFacts, roll: int) -> bool:
    """R5.1: whether ``unit`` passes on ``roll`` (Battle-weary and no-XP units included)."""
    return out_of_action_passes(roll, battle_weary=unit.battle_weary, no_xp=unit.no_xp)


def out_of_action_options(*, battle_honours: int, battle_scars: int) -> frozenset[OutOfAction]:
    """R5.2/R5.3: outcomes open to a unit that failed (honours include relics)."""
    require_non_negative(battle_honours=battle_honours, battle_scars=battle_scars)
    if battle_scars >= MAX_BATTLE_SCARS:
        if battle_honours:
            return frozenset({OutOfAction.DEVASTATING_BLOW})
        return frozenset({OutOfAction.REMOVED})
    if not battle_honours:
        return frozenset({OutOfAction.BATTLE_SCAR})
    return frozenset({OutOfAction.DEVASTATING_BLOW, OutOfAction.BATTLE_SCAR})


def out_of_action_refusal(
    choice: OutOfAction, *, battle_honours: int, battle_scars: int
) -> str | None:
    """R5.2/R5.3: why ``choice`` isn't allowed for this unit, or None if it is."""
    choice = OutOfAction(choice)
    if choice is OutOfAction.PASSED:
        return "The test was failed: choose what happens to the unit."
    options = out_of_action_options(battle_honours=battle_honours, battle_scars=battle_scars)
    if choice in options:
        return None
    if OutOfAction.REMOVED in options:
        return REMOVED_FOR_GOOD
    if choice is OutOfAction.DEVASTATING_BLOW:
        return "It has no Battle Honours to lose, so it must take a Battle Scar."
    if choice is OutOfAction.BATTLE_SCAR:
        return (
            f"It already has {MAX_BATTLE_SCARS} Battle Scars, so it must take a Devastating Blow."
        )
    return (
        f"Only a unit with {MAX_BATTLE_SCARS} Battle Scars and no Battle Honours "
        "is removed from the Order of Battle."
    )
