"""The campaign's log: organisers read their campaigns' entries and hide one (or show it
again) with a reason kept in the history. Nobody adds, edits or deletes an entry here:
players write and edit their own on the site."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from campaign import services
from campaign.models import LogEntry

from .base import ReadOnlyAdmin, ReasonStep, reason_action
from .scope import campaign_filter

HIDE_ENTRY = ReasonStep(
    "Hide log entries",
    "Hide from the log",
    "Hid {count} log entr(y/ies); their players still see them.",
).of(services.hide_log_entry, "entry")
SHOW_ENTRY = ReasonStep(
    "Show log entries again", "Show in the log again", "Showed {count} log entr(y/ies) again."
).of(services.show_log_entry, "entry")


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnlyAdmin):
    list_display = ["title", "campaign", "author", "created_at", "status"]
    list_select_related = ["campaign", "author"]
    list_filter = ["status", campaign_filter(LogEntry)]
    search_fields = ["title", "author__username"]
    date_hierarchy = "created_at"
    fields = [
        "campaign",
        "author",
        "title",
        "text",
        "picture",
        "battle",
        "territory",
        "phase",
        "status",
        "hidden_reason",
        "hidden_by",
        "hidden_at",
        "created_at",
        "edited_at",
    ]
    readonly_fields = fields
    actions = [
        reason_action(HIDE_ENTRY, "hide_log_entries", permission="moderate"),
        reason_action(SHOW_ENTRY, "show_log_entries", permission="moderate"),
    ]

    def has_moderate_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        """Organisers hide and show their campaigns' entries (the queryset is scoped)."""
        return self.has_view_permission(request, obj)
