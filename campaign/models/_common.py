"""Helpers and limits the model modules share."""

from __future__ import annotations

import secrets
from functools import partial

from campaign import rules
from campaign.bounds import (
    BoundedPositiveIntegerField,
    count,
)


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def rules_choices(enum) -> partial:
    """Choices for a field whose values are named by the rules: computed from the enum
    when needed, so migrations refer to the rules instead of copying their labels."""
    return partial(rules.choices, enum)


HOUSE = rules.DEFAULT_HOUSE_RULES

NOTE_LENGTH = 4000
"""Most characters in a narrative or notes field: a few long paragraphs."""
EFFECT_LENGTH = 1000
"""Most characters in a rule's effect or a card's wargear list."""


MOST_POINTS = 10_000
"""Points of one unit: a Knight or a Titan costs hundreds, never ten thousand."""
MOST_ENHANCEMENT_POINTS = 1000
"""Points of one Enhancement: tens in the rulebook."""
MOST_MODELS = 200
LEAST_MODELS = 1
"""A card has models (the `unit_has_models` constraint)."""
MOST_SUPPLY = 1_000_000
MOST_RP = 100
LEAST_RP_CAP = 1
"""A force can hold some RP (the `campaign_rp_cap_positive` constraint)."""
MOST_TALLY = 100_000
D6 = (1, 6)
"""What a D6 rolls (the `ooa_roll_is_a_d6` constraint)."""


def house_rule(name: str, meaning: str) -> BoundedPositiveIntegerField:
    """A number of a campaign's house rules, defaulting to the rulebook's."""
    most = MOST_RP if "rp" in name else MOST_SUPPLY
    least = LEAST_RP_CAP if name == "rp_cap" else 0
    rulebook = getattr(HOUSE, name)
    label = name.replace("_", " ").replace("rp", "RP")
    return count(
        most, label, least=least, default=rulebook, help_text=f"{meaning} (rulebook: {rulebook})."
    )
