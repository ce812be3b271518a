"""The rules' names and numbers that pages print, all read from `campaign.rules`.

Templates get them as ``labels`` (see `campaign.views._common.render_page`), so a
page never types a rule's name or number itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from campaign import rules


def _by_value(enum) -> dict[str, str]:
    return {member.value: member.label for member in enum}


@dataclass(frozen=True)
class Labels:
    requisitions: dict[str, str] = field(default_factory=lambda: _by_value(rules.Requisition))
    """Requisition value -> its name, e.g. ``labels.requisitions.fresh_recruits``."""
    unit_requisitions: tuple[str, ...] = tuple(r.label for r in rules.Requisition if r.needs_unit)
    honours: dict[str, str] = field(default_factory=lambda: _by_value(rules.HonourCategory))
    outcomes: dict[str, str] = field(default_factory=lambda: _by_value(rules.OutOfAction))
    rewards: dict[str, str] = field(default_factory=lambda: _by_value(rules.PromotionReward))
    results: dict[str, str] = field(default_factory=lambda: _by_value(rules.BattleResult))
    marked_for_greatness_xp: int = rules.MARKED_FOR_GREATNESS_XP
    out_of_action_pass: int = rules.OUT_OF_ACTION_PASS
    max_battle_scars: int = rules.MAX_BATTLE_SCARS
    removed_for_good: str = rules.REMOVED_FOR_GOOD
    battle_weary_note: str = (
        f"{rules.BATTLE_WEARY}: {abs(rules.BATTLE_WEARY_MODIFIER)} is taken off the roll"
    )


LABELS = Labels()


def keyword_labels(unit) -> list[str]:
    """The rule-changing keywords ticked on a card, as the rules print them, in rule order."""
    return [keyword.label for keyword in rules.Keyword if keyword in unit.keywords]
