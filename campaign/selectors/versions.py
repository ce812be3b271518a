"""Versions of what a page shows, for caching its long parts.

Every change to a force, its units or its campaign is a service call that writes a
history row (`services._common.record`), and a history only grows (no row is deleted). So
the history of a force (or of a campaign) names the state its pages show, and a
fragment cached under that name can never be stale, in any process. Pages cache their
long tables this way (`{% cache %}` keyed by a version), so that looking again at a
league's pages costs the same however large the league: only a change makes the next look
build the table again.

The version is not just the newest row. On PostgreSQL two changes in one campaign (to two
forces, which lock only their own rows) can commit in the other order than they began: the
later one's rows become visible first, and the earlier one's rows, older, arrive after a
page was cached under the later one. So the version also counts the rows written in the
ten seconds before the newest: a row that arrives late changes the count. (A change that
takes longer than that to commit, which no service does, is caught when its fragment
expires.) The window is short so that the count stays small however busy the league.
"""

from __future__ import annotations

import datetime

from django.db.models import (
    Count,
    DateTimeField,
    ExpressionWrapper,
    Max,
    OuterRef,
    Subquery,
    Value,
)

from campaign.models import Campaign, CrusadeForce, HistoryEntry

FRAGMENT_SECONDS = 600
"""How long a cached fragment lives: shorter than a picture's signed address in a bucket,
and long enough for the players at a table to look again and again."""

LATE_COMMIT_WINDOW = datetime.timedelta(seconds=10)
"""How far before the newest row a late-arriving row is still noticed."""


def version_annotations(owner: str) -> dict[str, Subquery]:
    """The version of each force's (``owner="force"``) or campaign's history as three
    annotations, so a page can read it with the row it shows: the newest row's time, and
    how many rows (and the highest id) since `LATE_COMMIT_WINDOW` before it. Each reads
    only those rows, by the history's indexes on time."""
    field = f"{owner}_id"

    def history(outer):
        return HistoryEntry.objects.filter(**{field: outer}).order_by()

    newest = history(OuterRef("pk")).order_by("-created_at", "-pk").values("created_at")[:1]
    inner_newest = (
        history(OuterRef(OuterRef("pk"))).order_by("-created_at", "-pk").values("created_at")[:1]
    )
    since = ExpressionWrapper(
        Subquery(inner_newest) - Value(LATE_COMMIT_WINDOW), output_field=DateTimeField()
    )
    window = history(OuterRef("pk")).filter(created_at__gte=since).values(field)
    return {
        "history_last": Subquery(newest),
        "history_rows": Subquery(window.annotate(n=Count("pk")).values("n")),
        "history_top": Subquery(window.annotate(top=Max("pk")).values("top")),
    }


def version_of(row) -> str:
    """The version a row annotated by `version_annotations` names ("0": no history)."""
    if row.history_last is None:
        return "0"
    return f"{row.history_last.timestamp():.6f}-{row.history_rows}-{row.history_top}"


def _version(model, owner: str, pk: int) -> str:
    row = model.objects.filter(pk=pk).annotate(**version_annotations(owner)).first()
    return version_of(row) if row is not None else "0"


def force_version(force_id: int) -> str:
    """The version of the force's history (its units' rows included)."""
    return _version(CrusadeForce, "force", force_id)


def campaign_version(campaign_id: int) -> str:
    """The version of the campaign's history (its forces' and battles' rows included)."""
    return _version(Campaign, "campaign", campaign_id)
