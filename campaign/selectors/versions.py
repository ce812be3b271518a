"""Versions of what a page shows, for caching its long parts.

Every change to a force, its units or its campaign is a service call that writes a
history row (`services._common.record`). So the newest history row of a force (or of a
campaign) names the state its pages show: a fragment cached under that version can never
be stale, in any process. Pages cache their long tables this way (`{% cache %}` keyed by
a version), so that looking again at a league's pages costs the same however large the
league: only a change makes the next look build the table again.
"""

from __future__ import annotations

from campaign.models import HistoryEntry

FRAGMENT_SECONDS = 600
"""How long a cached fragment lives: shorter than a picture's signed address in a bucket,
and long enough for the players at a table to look again and again."""


def _newest(**where) -> int:
    rows = HistoryEntry.objects.filter(**where).order_by("-created_at", "-pk")
    return rows.values_list("pk", flat=True).first() or 0


def force_version(force_id: int) -> int:
    """The newest history row of the force (its units' rows included)."""
    return _newest(force_id=force_id)


def campaign_version(campaign_id: int) -> int:
    """The newest history row of the campaign (its forces' and battles' rows included)."""
    return _newest(campaign_id=campaign_id)
