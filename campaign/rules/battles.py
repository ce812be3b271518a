"""The end of a battle (R9): results that agree, and credit for Attached units."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .enums import BattleResult


def results_refusal(results: Sequence[BattleResult | str]) -> str | None:
    """R9: why these sides' results can't all be true, or None if they can.

    Two players: one Victory and one Defeat, or both Draw. With more players, never two
    victors, and a Victory means somebody was defeated. One side alone (an opponent the
    app doesn't track) may record any result.
    """
    counts = Counter(BattleResult(result) for result in results)
    wins, losses, draws = (counts[r] for r in BattleResult)
    if len(results) < 2:
        return None
    if wins > 1:
        return "Only one side can win a battle: two sides can't both claim a Victory."
    if len(results) == 2 and draws == 1:
        return "A draw is a draw for both sides: record a Draw on each, or a Victory and a Defeat."
    if wins and not losses:
        return "A Victory needs a defeated side: record a Defeat for the side that lost."
    if losses and not wins and not draws:
        return "Somebody won: record a Victory for the side that won."
    return None


def attached_credit_refusal(
    *, leader: str, bodyguard: str, leader_credited: bool, bodyguard_credited: bool
) -> str | None:
    """R9: the kills and bonus XP of an Attached unit go to its Leader or its Bodyguard,
    never to both."""
    if leader_credited and bodyguard_credited:
        return (
            f"{leader} and {bodyguard} fought as one Attached unit: give its enemy units "
            f"destroyed and bonus XP to one of them, not both."
        )
    return None
