"""The history: every change, who made it, and the numbers before and after."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import admin
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import cached_property
from django.utils.html import format_html, format_html_join

from campaign.models import HistoryEntry
from campaign.prepared import Prepared
from campaign.selectors.versions import FRAGMENT_SECONDS, campaigns_with_versions

from .base import ReadOnlyAdmin
from .battles import battle_label
from .scope import (
    campaign_filter,
    choice_column,
    is_superuser,
    organised_by,
    organised_campaign_ids,
)


class VersionedCountPaginator(Paginator):
    """A paginator whose count is cached under `version`: counting a league's history
    (some 80,000 rows) was a sixth of the list's time, on every look."""

    def __init__(self, *args: Any, version: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.version = version

    @cached_property
    def count(self) -> int:
        key = f"admin-history-count:{self.version}"
        found = cache.get(key)
        if found is None:
            found = super().count
            cache.set(key, found, FRAGMENT_SECONDS)
        return found


UNCOUNTED = {"p", "o"}
"""A list's page and its order: what changes no count."""


_VERSIONS = Prepared(
    lambda user: (
        campaigns_with_versions(organised_by(user))
        .order_by("pk")
        .values_list("pk", "revision", "forces_revision")
    ),
    user=int,
)
"""The versions of the campaigns an organiser organises, compiled once (`campaign.prepared`)."""


def history_version(request: HttpRequest) -> str:
    """What the count of the organiser's list depends on: the list's filters and search,
    and each of their campaigns' revision and the sum of its forces', which every history
    row moves on (`selectors.versions`). Read before the count, so a count cached under
    it holds at least that state."""
    campaigns = _VERSIONS.fetch(user=request.user.pk) if organised_campaign_ids(request) else []
    state = ";".join(f"{pk}-{revision}-{forces}" for pk, revision, forces in campaigns)
    asked = sorted((k, v) for k, v in request.GET.lists() if k not in UNCOUNTED)
    return f"{state}:{hashlib.sha256(repr(asked).encode()).hexdigest()}"


@admin.register(HistoryEntry)
class HistoryAdmin(ReadOnlyAdmin):
    list_display = [
        "created_at",
        "actor",
        choice_column(HistoryEntry, "action"),
        "summary",
        "force",
        "unit",
        "battle_column",
    ]
    list_select_related = ["actor", "force", "unit", "battle"]
    list_filter = ["action", campaign_filter(HistoryEntry), "created_at"]
    search_fields = ["summary", "force__name", "unit__name", "actor__username"]
    search_help_text = "Summary, force name, unit name or username."
    # A date list over every row would cost a scan of the whole history; filter by
    # period instead (and, like every list here, no second count: `OrganiserScope`).
    fields = [
        "created_at",
        "actor",
        "action",
        "summary",
        "reason",
        "changes_table",
        "campaign",
        "force",
        "unit",
        "battle",
    ]
    readonly_fields = ["changes_table"]

    def page_rows(self, queryset: QuerySet) -> QuerySet:
        """Only the columns the list shows, of the row and of what it names (a unit has
        some forty columns, a force twenty-five: building them was half the list's time)."""
        return queryset.only(
            "created_at",
            "action",
            "summary",
            "campaign_id",
            "actor__username",
            "force__name",
            "unit__name",
            "battle__battle_size",
            "battle__date",
        )

    def get_paginator(
        self,
        request: HttpRequest,
        queryset: QuerySet,
        per_page: int,
        orphans: int = 0,
        allow_empty_first_page: bool = True,
    ) -> Paginator:
        """An organiser's count is cached under their campaigns' version (a superuser
        sees rows of no campaign too, which no revision follows: counted each look)."""
        if is_superuser(request):
            return super().get_paginator(
                request, queryset, per_page, orphans, allow_empty_first_page
            )
        return VersionedCountPaginator(
            queryset,
            per_page,
            orphans,
            allow_empty_first_page,
            version=history_version(request),
        )

    @admin.display(description="battle", ordering="battle__date")
    def battle_column(self, entry: HistoryEntry) -> str:
        return battle_label(entry.battle) if entry.battle_id else "—"

    @admin.display(description="numbers before → after")
    def changes_table(self, entry: HistoryEntry) -> str:
        if not entry.changes:
            return "—"
        return format_html(
            "<table>{}</table>",
            format_html_join(
                "",
                "<tr><th>{}</th><td>{}</td></tr>",
                ((name, _before_after(value)) for name, value in entry.changes.items()),
            ),
        )


def _before_after(value: Any) -> str:
    if isinstance(value, list) and len(value) == 2:
        return f"{value[0]} → {value[1]}"
    return str(value)
