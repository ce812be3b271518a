"""The campaign's log: the newest entries for its page, and the log's own pages."""

from __future__ import annotations

from django.core.paginator import Page
from django.db.models import QuerySet

from campaign.models import Campaign, LogEntry

from .paging import paginate

LATEST = 3
"""Entries the campaign page shows, above its link to the whole log."""
PER_PAGE = 20
"""Entries a page of the log shows."""


def log_entries(campaign: Campaign, *, with_hidden: bool = False) -> QuerySet[LogEntry]:
    """The campaign's entries, newest first, with what each shows joined in (one query);
    hidden ones only ``with_hidden`` (an organiser's view)."""
    entries = LogEntry.objects.filter(campaign=campaign).select_related(
        "author", "battle", "territory", "phase", "hidden_by"
    )
    if not with_hidden:
        entries = entries.filter(status=LogEntry.Status.SHOWN)
    return entries.order_by("-created_at", "-pk")


def latest_entries(campaign: Campaign) -> list:
    """The newest shown entries, for the campaign page (the same for every viewer: the
    page is cached under the campaign's revision, which every change of the log moves)."""
    return list(log_entries(campaign)[:LATEST])


def log_page(campaign: Campaign, number: int | str | None, *, with_hidden: bool) -> Page:
    """One page of the campaign's log (three queries: the count, the slice, nothing per
    entry)."""
    return paginate(log_entries(campaign, with_hidden=with_hidden), number, per_page=PER_PAGE)
