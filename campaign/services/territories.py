"""The campaign's map: which territory a battle may be fought over, and how a battle's end
(or its void) changes who holds it. Every change is a `TerritoryChange` and a history row."""

from __future__ import annotations

from campaign.models import Battle, BattleParticipant, Campaign, CrusadeForce, Territory


def check_battle_ground(
    *, campaign: Campaign | None, force: CrusadeForce, territory: Territory | None
) -> None:
    """Refuse a territory that is not the campaign's, or (under the campaign's
    ``attack_from_held`` rule) one the force's alliance can't reach."""


def after_battle(actor, battle: Battle, sides: list[BattleParticipant]) -> dict[int, str]:
    """Inside the battle's end: change who holds its territory by the campaign's rule.
    Returns side pk -> "took" or "held" for the side whose alliance took or kept it."""
    return {}


def after_void(actor, battle: Battle, reason: str) -> None:
    """Inside a void: put the battle's territory back as the battle found it."""
