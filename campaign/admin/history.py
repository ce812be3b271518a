"""The history: every change, who made it, and the numbers before and after."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.utils.html import format_html, format_html_join

from campaign.models import HistoryEntry

from .base import ReadOnlyAdmin
from .battles import battle_label
from .scope import campaign_filter, choice_column


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
    counted_by_version = True
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
