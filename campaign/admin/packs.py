"""Content packs in the admin: the library and each campaign's own packs, importing and
exporting pack files, and enabling packs in a campaign (their items: `pack_content`).

Organisers see the library's packs and their own campaigns' packs; they import into a
campaign they organise, and only a superuser imports into the library. Every change goes
through `campaign.services` (history rows); nothing is deleted here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Model, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from campaign import packs, services
from campaign.models import (
    Campaign,
    ContentPack,
    CustomContent,
    EnabledPack,
)
from campaign.selectors.packs import export_pack

from .base import (
    RefusalForm,
    ServiceInline,
    reason_field,
)
from .scope import (
    CampaignFilter,
    ScopedInline,
    can_organise,
    is_superuser,
    organised_campaign_ids,
)

Kind = CustomContent.Kind
KIND_LABELS = {
    Kind.AGENDA: ("Agenda", "Agendas"),
    Kind.BLESSING: ("Blessing", "Blessings"),
    Kind.REQUISITION: ("Requisition", "Requisitions"),
    Kind.UPGRADE: ("upgrade", "upgrades"),
    Kind.BATTLE_TRAIT: ("Battle Trait", "Battle Traits"),
    Kind.CRUSADE_RELIC: ("Relic", "Relics"),
    Kind.BATTLE_SCAR: ("Scar", "Scars"),
    Kind.COUNTER: ("counter", "counters"),
    Kind.ALLIANCE: ("alliance", "alliances"),
}


def visible_packs(request: HttpRequest) -> QuerySet:
    """The library's packs and the packs of the campaigns the user organises (all for a
    superuser)."""
    queryset = ContentPack.objects.all()
    if is_superuser(request):
        return queryset
    return queryset.filter(
        Q(campaign__isnull=True) | Q(campaign__in=organised_campaign_ids(request))
    )


def organised_campaigns(request: HttpRequest) -> QuerySet:
    if is_superuser(request):
        return Campaign.objects.order_by("name", "pk")
    return Campaign.objects.filter(pk__in=organised_campaign_ids(request)).order_by("name", "pk")


def may_edit_pack(request: HttpRequest, pack: ContentPack) -> bool:
    """A campaign's pack by its organisers; a library pack by a superuser only."""
    if is_superuser(request):
        return True
    return pack.campaign_id is not None and pack.campaign_id in organised_campaign_ids(request)


# --- Importing a pack file ---------------------------------------------------------------


class PackImportForm(forms.Form):
    """A pack file, stored by `services.import_pack` in a campaign (or the library)."""

    file = forms.FileField(
        label="Pack file",
        help_text=f"A content pack (JSON, at most {packs.MAX_BYTES // 1000} kB); see "
        "docs/content-pack.schema.json.",
    )
    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.none(),
        required=False,
        help_text="The campaign it belongs to (it is enabled there at once). Empty: the "
        "library, for any campaign to enable (superusers only).",
    )

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.fields["campaign"].queryset = organised_campaigns(request)
        if not is_superuser(request):
            self.fields["campaign"].required = True
            self.fields["campaign"].empty_label = None

    def clean_file(self):
        upload = self.cleaned_data["file"]
        data = upload.read(packs.MAX_BYTES + 1)
        try:
            packs.load_pack(data)
        except packs.PackError as error:
            raise ValidationError(list(error.problems)) from None
        return data

    def clean_campaign(self):
        campaign = self.cleaned_data.get("campaign")
        if campaign is None and not is_superuser(self.request):
            raise ValidationError("Pick one of your campaigns: only a superuser fills the library.")
        return campaign

    def apply(self) -> ContentPack:
        try:
            return services.import_pack(
                actor=self.request.user,
                data=self.cleaned_data["file"],
                campaign=self.cleaned_data.get("campaign"),
            )
        except ValidationError as error:
            lines = [line for message in error.messages for line in message.splitlines()]
            self.add_error("file", lines)
            raise


# --- The packs ---------------------------------------------------------------------------


class PackItemInline(admin.TabularInline):
    """What a pack holds, read only: items change on the pack content pages."""

    model = CustomContent
    fields = [
        "kind",
        "key",
        "name",
        "effect",
        "details",
        "trait_table",
        "relic_category",
        "retired_at",
    ]
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True
    verbose_name = "item"
    verbose_name_plural = "what the pack holds"

    def has_add_permission(self, request: HttpRequest, obj: Model | None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return can_organise(request)


class PackCampaignFilter(CampaignFilter):
    """A campaign's own packs, or the library's."""

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[str, str]]:
        return [("library", "library"), *super().lookups(request, model_admin)]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "library":
            return queryset.filter(campaign__isnull=True)
        return super().queryset(request, queryset)


@admin.register(ContentPack)
class ContentPackAdmin(admin.ModelAdmin):
    """Packs are imported from files, never typed in: the page shows one and its items."""

    change_form_template = "admin/campaign/change_form_with_tool.html"
    change_list_template = "admin/campaign/contentpack/change_list.html"
    list_display = ["name", "slug", "belongs_to", "holds", "enabled_count"]
    list_filter = [PackCampaignFilter]
    search_fields = ["name", "slug", "source"]
    list_per_page = 50
    view_on_site = False
    fields = [
        "name",
        "slug",
        "belongs_to",
        "source",
        "description",
        "agendas_per_battle",
        "underdog_thresholds",
        "trait_tables",
        "imported_at",
        "imported_by",
    ]
    readonly_fields = fields
    inlines = [PackItemInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        counts = {
            f"count_{kind}": Count("items", filter=Q(items__kind=kind), distinct=True)
            for kind in Kind.values
        }
        return (
            visible_packs(request)
            .select_related("campaign", "imported_by")
            .annotate(enabled=Count("enabled_in", distinct=True), **counts)
        )

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        if not can_organise(request):
            return False
        return obj is None or visible_packs(request).filter(pk=obj.pk).exists()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @admin.display(description="campaign", ordering="campaign__name")
    def belongs_to(self, pack: ContentPack) -> str:
        return pack.campaign.name if pack.campaign_id else "library"

    @admin.display(description="holds")
    def holds(self, pack: ContentPack) -> str:
        counts = {kind: getattr(pack, f"count_{kind}", 0) for kind in KIND_LABELS}
        filled = [f"{n} {KIND_LABELS[kind][n != 1]}" for kind, n in counts.items() if n]
        return ", ".join(filled) or "nothing yet"

    @admin.display(description="enabled in", ordering="enabled")
    def enabled_count(self, pack: ContentPack) -> str:
        n = getattr(pack, "enabled", 0)
        return f"{n} campaign{'s' if n != 1 else ''}"

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("import/", wrap(self.import_view), name="campaign_contentpack_import"),
            path(
                "<path:object_id>/export/",
                wrap(self.export_view),
                name="campaign_contentpack_export",
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        tools = []
        if self.get_object(request, unquote(object_id)) is not None:
            url = reverse("admin:campaign_contentpack_export", args=[unquote(object_id)])
            tools.append({"url": url, "label": "Export (download the pack file)"})
        extra_context = {**(extra_context or {}), "object_tools": tools}
        return super().change_view(request, object_id, form_url, extra_context)

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "may_import": can_organise(request)}
        return super().changelist_view(request, extra_context)

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not can_organise(request):
            raise PermissionDenied
        status = 200
        if request.method == "POST":
            form = PackImportForm(request.POST, request.FILES, request=request)
            if form.is_valid():
                try:
                    stored = form.apply()
                except ValidationError:
                    status = 400
                else:
                    self.message_user(request, f"Imported {stored.name}.", messages.SUCCESS)
                    change = reverse("admin:campaign_contentpack_change", args=[stored.pk])
                    return HttpResponseRedirect(change)
            else:
                status = 400
        else:
            form = PackImportForm(request=request)
        context = {
            **self.admin_site.each_context(request),
            "title": "Import a pack file",
            "subtitle": None,
            "opts": self.model._meta,
            "form": form,
        }
        return TemplateResponse(
            request, "admin/campaign/contentpack/import.html", context, status=status
        )

    def export_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if request.method != "GET":
            return HttpResponse(status=405, headers={"Allow": "GET"})
        pack = self.get_object(request, unquote(object_id))
        if pack is None:
            raise Http404
        try:
            text = export_pack(pack)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            change = reverse("admin:campaign_contentpack_change", args=[pack.pk])
            return HttpResponseRedirect(change)
        response = HttpResponse(text, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{pack.slug}.json"'
        return response


# --- Packs enabled in a campaign (an inline of the campaign's page) ----------------------


class EnabledPackForm(RefusalForm, forms.ModelForm):
    """A pack to enable (a library pack or one of the campaign's own), or one to turn off."""

    turn_off = forms.BooleanField(
        required=False, label="Turn off", help_text="Cards keep what they were given from it."
    )
    reason = reason_field("Reason", "Why it is turned off; kept in the history.")

    class Meta:
        model = EnabledPack
        fields = ["pack"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["pack"].disabled = True
        else:
            self.fields["turn_off"].disabled = True
            self.fields["reason"].disabled = True

    def apply(self, campaign: Campaign) -> EnabledPack:
        if self.instance.pk is None:
            return services.enable_pack(
                actor=self.actor, campaign=campaign, pack=self.cleaned_data["pack"]
            )
        if self.cleaned_data.get("turn_off"):
            services.disable_pack(
                actor=self.actor,
                campaign=campaign,
                pack=self.instance.pack,
                reason=self.cleaned_data.get("reason") or "",
            )
        return self.instance


class EnabledPackInline(ServiceInline, ScopedInline, admin.TabularInline):
    model = EnabledPack
    form = EnabledPackForm
    fields = ["pack", "enabled_at", "turn_off", "reason"]
    readonly_fields = ["enabled_at"]
    extra = 0
    can_delete = False
    verbose_name = "enabled pack"
    verbose_name_plural = "enabled packs (the core rules are always on)"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("pack")

    def get_formset(self, request: HttpRequest, obj: Model | None = None, **kwargs: Any):
        formset = super().get_formset(request, obj, **kwargs)
        choices = ContentPack.objects.filter(campaign__isnull=True)
        if obj is not None:
            choices = ContentPack.objects.filter(Q(campaign__isnull=True) | Q(campaign=obj))
        formset.form.base_fields["pack"].queryset = choices.order_by("name", "pk")
        return formset
