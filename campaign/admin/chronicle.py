"""The campaign's log: organisers read their campaigns' entries and hide one (or show it
again) with a reason kept in the history. Nobody adds, edits or deletes an entry here:
players write and edit their own on the site."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse

from campaign import services
from campaign.models import LogEntry

from .base import ReadOnlyAdmin, ReasonStep, reason_action, run_reason_step
from .scope import campaign_filter

HIDE_ENTRY = ReasonStep(
    "Hide log entries",
    "Hide from the log",
    "Hid {count} log entr(y/ies); their players still see them.",
).of(services.hide_log_entry, "entry")
SHOW_ENTRY = ReasonStep(
    "Show log entries again", "Show in the log again", "Showed {count} log entr(y/ies) again."
).of(services.show_log_entry, "entry")


TOOLS = {"hide": HIDE_ENTRY, "show": SHOW_ENTRY}
"""The entry's own page's tool: hide a shown entry, show a hidden one."""


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnlyAdmin):
    change_form_template = "admin/campaign/change_form_with_tool.html"
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

    def _tool(self, entry: LogEntry) -> str:
        return "show" if entry.is_hidden else "hide"

    def get_urls(self):
        view = self.admin_site.admin_view(self.tool_view)
        routes = [
            path(
                f"<path:object_id>/{tool}/", view, {"tool": tool}, name=f"campaign_logentry_{tool}"
            )
            for tool in TOOLS
        ]
        return [*routes, *super().get_urls()]

    def tool_view(self, request: HttpRequest, object_id: str, tool: str) -> HttpResponse:
        """Hide (or show) one entry from its own page, after asking for the reason."""
        entry = self.get_object(request, unquote(object_id))
        if entry is None or not self.has_moderate_permission(request, entry):
            raise Http404
        change_url = reverse("admin:campaign_logentry_change", args=[entry.pk])
        if self._tool(entry) != tool:
            return HttpResponseRedirect(change_url)
        response = run_reason_step(self, request, [entry], TOOLS[tool], cancel_url=change_url)
        return response or HttpResponseRedirect(change_url)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        entry = self.get_object(request, unquote(object_id))
        tools = []
        if entry is not None and self.has_moderate_permission(request, entry):
            tool = self._tool(entry)
            url = reverse(f"admin:campaign_logentry_{tool}", args=[entry.pk])
            tools.append({"url": url, "label": TOOLS[tool].button})
        extra_context = {**(extra_context or {}), "object_tools": tools}
        return super().change_view(request, object_id, form_url, extra_context)
