"""Announcements to the group's chat: an organiser adds webhooks to their campaigns,
chooses the news each one announces, pauses and resumes them, and reads how each message
went (the deliveries, read-only). Saved through `services.webhooks`."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from campaign import services
from campaign.models import Webhook, WebhookDelivery

from .base import (
    ObjectToolMixin,
    OrganiserAdmin,
    ReadOnlyAdmin,
    ReasonStep,
    ServiceForm,
    reason_action,
)
from .scope import campaign_filter, scoped

EDITABLE = ["name", "kind", "url", *Webhook.EVENT_FIELDS]
RECENT = 10
"""Deliveries listed on a webhook's own page (the rest are on the deliveries' list)."""


class WebhookForm(ServiceForm):
    """A webhook added through `services.add_webhook` or changed through `change_webhook`;
    the address is checked by the model (next to the field) and again by the service."""

    site_url = ""

    class Meta:
        model = Webhook
        fields = ["campaign", *EDITABLE]

    def apply(self) -> Webhook:
        data, obj = self.cleaned_data, self.instance
        if obj.pk is None:
            return services.add_webhook(
                actor=self.actor,
                campaign=data["campaign"],
                site_url=self.site_url,
                **{name: data[name] for name in EDITABLE},
            )
        return services.change_webhook(
            actor=self.actor, webhook=obj, site_url=self.site_url, **self.changed(EDITABLE)
        )


PAUSE = ReasonStep(
    title="Pause announcements",
    button="Pause announcements",
    done="{count} webhook(s) paused: nothing is sent to them until they are resumed.",
).of(services.pause_webhook, "webhook")
RESUME = ReasonStep(
    title="Resume announcements",
    button="Resume announcements",
    done="{count} webhook(s) resumed: news from now on is sent to them.",
    initial_reason="The address works again",
).of(services.resume_webhook, "webhook")

NEWS = "News it announces"


@admin.register(Webhook)
class WebhookAdmin(ObjectToolMixin, OrganiserAdmin):
    form = WebhookForm
    list_display = ["name", "campaign", "kind", "host", "state"]
    list_filter = [campaign_filter(Webhook), "kind"]
    list_select_related = ["campaign"]
    search_fields = ["name", "campaign__name"]
    actions = [reason_action(PAUSE, "pause_webhooks"), reason_action(RESUME, "resume_webhooks")]
    readonly_fields = [
        "campaign",
        "shown_secret",
        "state",
        "paused_at",
        "paused_reason",
        "failures_in_row",
        "site_url",
        "created_at",
        "recent_deliveries",
    ]
    fieldsets = [
        (None, {"fields": ["campaign", "name", "kind", "url", "shown_secret"]}),
        (NEWS, {"fields": list(Webhook.EVENT_FIELDS)}),
        (
            "How it goes",
            {
                "fields": [
                    "state",
                    "paused_reason",
                    "paused_at",
                    "failures_in_row",
                    "site_url",
                    "created_at",
                    "recent_deliveries",
                ]
            },
        ),
    ]
    add_fieldsets = [
        (
            None,
            {
                "fields": ["campaign", "name", "kind", "url"],
                "description": "For Discord: in the channel's settings, Integrations → "
                "Webhooks → New Webhook → Copy Webhook URL, and paste it here. For any other "
                "address, choose JSON: the signing secret is shown once it is saved.",
            },
        ),
        (NEWS, {"fields": list(Webhook.EVENT_FIELDS)}),
    ]
    object_tool_path = "resume"
    object_tool_step = RESUME

    def get_form(self, request: HttpRequest, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.site_url = request.build_absolute_uri("/").rstrip("/")
        return form

    def object_tool_allowed(self, request: HttpRequest, obj: Webhook) -> bool:
        return obj.is_paused and self.has_change_permission(request, obj)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        webhook = self.get_object(request, unquote(object_id))
        if webhook is not None and webhook.is_paused and request.method == "GET":
            self.message_user(
                request,
                f"Paused because: {webhook.paused_reason.rstrip('.')}. Nothing is sent until "
                "you resume it (the button above).",
                messages.WARNING,
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def changelist_view(self, request, extra_context=None):
        if request.method == "GET":
            paused = list(
                self.get_queryset(request)
                .exclude(paused_at=None)
                .order_by("name")
                .values_list("name", flat=True)[:5]
            )
            if paused:
                self.message_user(
                    request,
                    f"Paused, so nothing is sent to them: {', '.join(paused)}. Open one to "
                    "see why, and resume it once its address works.",
                    messages.WARNING,
                )
        return super().changelist_view(request, extra_context)

    def response_post_save_add(self, request: HttpRequest, obj: Webhook):
        """To the new webhook's page, where its signing secret is."""
        return HttpResponseRedirect(reverse("admin:campaign_webhook_change", args=[obj.pk]))

    @admin.display(description="host")
    def host(self, webhook: Webhook) -> str:
        """The address's host only: the rest of a Discord address is its password."""
        return urlsplit(webhook.url).hostname or "-"

    @admin.display(description="state")
    def state(self, webhook: Webhook) -> str:
        if webhook.is_paused:
            return f"Paused because: {webhook.paused_reason}"
        return "Active"

    @admin.display(description="signing secret")
    def shown_secret(self, webhook: Webhook) -> str:
        if not webhook.signs:
            return "Not used: Discord messages are not signed."
        return format_html(
            "<code>{}</code><br>Each message carries the header "
            "<code>X-Crusade-Signature: sha256=</code> and the HMAC-SHA256 of the raw body "
            "with this secret, in hex: compare it before trusting a message.",
            webhook.secret,
        )

    @admin.display(description="recent messages")
    def recent_deliveries(self, webhook: Webhook) -> str:
        recent = list(webhook.deliveries.order_by("-created_at", "-pk")[:RECENT])
        if not recent:
            return "None yet."
        rows = format_html_join(
            "",
            "<li>{}: {} ({}){}</li>",
            (
                (
                    f"{d.created_at:%d %b %Y %H:%M}",
                    d.title,
                    d.get_status_display(),
                    f" {d.error}" if d.error else "",
                )
                for d in recent
            ),
        )
        everything = reverse("admin:campaign_webhookdelivery_changelist")
        return format_html(
            '<ul>{}</ul><a href="{}?webhook={}">Every message to it</a>',
            rows,
            everything,
            webhook.pk,
        )


class WebhookFilter(admin.SimpleListFilter):
    """The organiser's webhooks only (the built-in filter would list every campaign's)."""

    title = "webhook"
    parameter_name = "webhook"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[int, str]]:
        hooks = scoped(Webhook.objects.select_related("campaign"), request)
        return [(h.pk, f"{h.name} ({h.campaign.name})") for h in hooks]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if not self.value():
            return queryset
        offered = {str(pk): pk for pk, _ in self.lookup_choices}
        if self.value() not in offered:
            return queryset.none()
        return queryset.filter(webhook_id=offered[self.value()])


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    list_display = [
        "created_at",
        "webhook",
        "title",
        "status",
        "tries",
        "response_code",
        "error",
        "next_try_at",
    ]
    list_filter = ["status", WebhookFilter, campaign_filter(WebhookDelivery)]
    list_select_related = ["webhook"]
    search_fields = ["title"]
    fields = [
        "webhook",
        "event",
        "title",
        "status",
        "tries",
        "response_code",
        "error",
        "created_at",
        "last_tried_at",
        "next_try_at",
        "delivered_at",
        "body",
    ]
    readonly_fields = fields
