"""The campaign's log: the newest entries for its page, and the log's own pages."""

from __future__ import annotations

from campaign.models import Campaign


def latest_entries(campaign: Campaign) -> list:
    """The newest shown entries, for the campaign page."""
    return []
