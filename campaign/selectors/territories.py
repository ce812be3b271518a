"""The campaign's map as its page draws it: territories, who holds them (now, or at the
end of a phase), and the battles fought over each."""

from __future__ import annotations

from campaign.models import Campaign


def campaign_map(campaign: Campaign, phase: int | str | None = None):
    """The map the campaign page draws (None for a campaign without one)."""
    return None
