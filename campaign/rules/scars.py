"""Out of Action tests and their outcomes (R5)."""

from __future__ import annotations

from enum import StrEnum

from ._checks import require_non_negative

OUT_OF_ACTION_PASS = 2
"""R5.1: an Out of Action test passes on this D6 result or higher."""

BATTLE_WEARY_MODIFIER = -1
"""R5.1/R5.4: Battle-weary units subtract 1 from Out of Action tests."""

MAX_BATTLE_SCARS = 3
"""R5.3: a unit holds at most this many Battle Scars."""


class OutOfAction(StrEnum):
    """R5.2/R5.3: what happens to a unit that failed its Out of Action test."""

    DEVASTATING_BLOW = "devastating_blow"
    BATTLE_SCAR = "battle_scar"
    REMOVED = "removed"

    @property
    def label(self) -> str:
        """Name shown to players."""
        return _OOA_LABELS[self]


_OOA_LABELS: dict[OutOfAction, str] = {
    OutOfAction.DEVASTATING_BLOW: "Devastating Blow",
    OutOfAction.BATTLE_SCAR: "Battle Scar",
    OutOfAction.REMOVED: "Removed from the Order of Battle",
}


def out_of_action_passes(roll: int, *, battle_weary: bool = False, no_xp: bool = False) -> bool:
    """R5.1: whether a D6 ``roll`` passes; no-XP units (R2.6) always pass."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise ValueError(f"a D6 roll is 1 to 6, got {roll!r}")
    if no_xp:
        return True
    modifier = BATTLE_WEARY_MODIFIER if battle_weary else 0
    return roll + modifier >= OUT_OF_ACTION_PASS


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
    options = out_of_action_options(battle_honours=battle_honours, battle_scars=battle_scars)
    if choice in options:
        return None
    if OutOfAction.REMOVED in options:
        return (
            f"With {MAX_BATTLE_SCARS} Battle Scars and no Battle Honours left, "
            "the unit is removed from the Order of Battle."
        )
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
