"""A narrative campaign's phases on its page: the current phase, standings per phase and
overall, alliance standings and their chart."""

from __future__ import annotations

from campaign.models import Campaign


def phase_overview(campaign: Campaign, phase: int | str | None = None):
    """What the campaign page shows of its phases and alliances (None without any)."""
    return None
