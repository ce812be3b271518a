"""History rows as the history lists show them (the force's history, a card's timeline):
plain values of the columns shown, with the names of their actor and card, a page at a
time."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.core.paginator import Page
from django.db.models import QuerySet

from campaign.models import HistoryEntry

from .paging import paginate

LINE_COLUMNS = (
    "pk",
    "created_at",
    "action",
    "summary",
    "reason",
    "changes",
    "imported_from",
    "battle_id",
    "unit_id",
    "unit__name",
    "actor__username",
)


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One history row as a list shows it: read as a tuple of values, not a model (a
    page of the force's history has 50, each with its actor's and its card's names)."""

    pk: int
    created_at: datetime.datetime
    action: str
    summary: str
    reason: str
    changes: dict[str, Any]
    imported_from: dict[str, Any]
    battle_id: int | None
    unit_id: int | None
    unit_name: str | None
    actor_name: str | None
    """None for a row the app wrote (or whose user is gone)."""

    @property
    def is_imported(self) -> bool:
        return bool(self.imported_from)


def history_rows(entries: QuerySet[HistoryEntry]) -> QuerySet:
    """``entries`` as the rows of `HistoryLine`s, newest first."""
    return entries.order_by("-created_at", "-pk").values_list(*LINE_COLUMNS)


def history_page(
    entries: Callable[[], QuerySet[HistoryEntry]],
    number: int | str | None,
    *,
    per_page: int,
    count: int | None = None,
    first_page: Callable[[], list] | None = None,
) -> Page:
    """One page of what ``entries()`` gives, newest first, as `HistoryLine`s (two queries:
    the count and the page; ``count`` and ``first_page`` as `paginate` takes them). With
    ``first_page``, ``entries`` is called only for another page: building the query costs
    more than shaping a page of rows."""
    rows = history_rows(entries()) if first_page is None else partial(_rows_of, entries)
    page = paginate(rows, number, per_page=per_page, count=count, first_page=first_page)
    page.object_list = [HistoryLine(*row) for row in page.object_list]
    return page


def _rows_of(entries: Callable[[], QuerySet[HistoryEntry]]) -> QuerySet:
    return history_rows(entries())
