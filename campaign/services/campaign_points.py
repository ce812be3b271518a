"""Campaign Points: what a completed battle scores for each side, its force and its
alliance, by the campaign's scoring (`Campaign.SCORING_FIELDS`), and moved back exactly by
a void."""

from __future__ import annotations

from campaign.models import Battle, BattleParticipant, CrusadeForce


def score(battle: Battle, sides: list[BattleParticipant], ground: dict[int, str]) -> None:
    """Inside the battle's end (forces locked): each side's Campaign Points and alliance.
    ``ground`` is `territories.after_battle`'s answer: side pk -> "took" or "held"."""


def unscore(
    battle: Battle, sides: list[BattleParticipant], forces: dict[int, CrusadeForce]
) -> None:
    """Inside a void (forces locked): take back what `score` gave."""
