"""Versions of what a page shows, for caching its long parts.

Every change to a force, its units or its campaign is a service call that writes a
history row (`services._common.record`), and a history only grows (no row is deleted). So
a version of what a page shows can be read from the database, and a fragment cached under
it can never be stale, in any process. Pages cache their long tables this way
(`{% cache %}` keyed by a version), so that looking again at a league's pages costs the
same however large the league: only a change makes the next look build the table again.

**A force's version** is its `revision`, the number of its history rows, which the
history writer moves on in the change's own transaction. Every change to a force holds
the force's row (locked, or updated), so its changes commit one after the other and the
number names one state exactly. It comes with the force: the Order of Battle asks
nothing more for it.

**A campaign's version** cannot be kept that way: changes to two forces of one campaign
commit side by side, and a number on the campaign's row would make every change in the
league wait for the one before it. It is read from the campaign's history instead. On
PostgreSQL two such changes can commit in the other order than they began: the later
one's rows become visible first, and the earlier one's rows, older, arrive after a page
was cached under the later one. So the version also counts the rows written in the ten
seconds before the newest: a row that arrives late changes the count. (A change that
takes longer than that to commit, which no service does, is caught when its fragment
expires.) The window is short so that the count stays small however busy the league.
"""

from __future__ import annotations

import datetime

from django.db.models import Count, DateTimeField, ExpressionWrapper, Max, Subquery, Value

from campaign.models import HistoryEntry

FRAGMENT_SECONDS = 600
"""How long a cached fragment lives: shorter than a picture's signed address in a bucket,
and long enough for the players at a table to look again and again."""

LATE_COMMIT_WINDOW = datetime.timedelta(seconds=10)
"""How far before the newest row a late-arriving row is still noticed."""


def campaign_version(campaign_id: int) -> str:
    """The version of the campaign's history (its forces' and battles' rows included):
    the newest row's time, and how many rows (and the highest id) since
    `LATE_COMMIT_WINDOW` before it, in one query over those rows only (by the history's
    indexes on time)."""
    rows = HistoryEntry.objects.filter(campaign_id=campaign_id)
    newest = rows.order_by("-created_at", "-pk").values("created_at")[:1]
    since = ExpressionWrapper(
        Subquery(newest) - Value(LATE_COMMIT_WINDOW), output_field=DateTimeField()
    )
    recent = rows.filter(created_at__gte=since).aggregate(
        last=Max("created_at"), rows=Count("pk"), top=Max("pk")
    )
    if recent["last"] is None:
        return "0"
    return f"{recent['last'].timestamp():.6f}-{recent['rows']}-{recent['top']}"
