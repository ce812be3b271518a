"""The campaign map in the admin: territories added and edited (neighbours from the same
campaign's territories), handed to an alliance with a reason, a map file imported into a
campaign with no territories (or an enabled pack's map applied), and exported.

Organisers see only their campaigns' territories (`scope`); every change goes through
`campaign.services.territories`, with a history row; nothing is deleted here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from campaign import maps, services
from campaign.models import (
    Alliance,
    Campaign,
    ContentPack,
    EnabledPack,
    Territory,
    TerritoryChange,
)
from campaign.selectors.territories import map_file_text

from .base import OrganiserAdmin, ServiceForm, reason_field
from .packs import organised_campaigns
from .scope import ReadOnlyInline, campaign_filter, can_organise, scoped


class TerritoryForm(ServiceForm):
    """A territory through `define_territory`; a new holder through
    `set_territory_holder`, with the reason it asks for."""

    holder = forms.ModelChoiceField(
        queryset=Alliance.objects.none(),
        required=False,
        label="Held by",
        empty_label="Nobody",
        help_text="Who holds it now. A change is kept in the map's history, with the reason.",
    )
    holder_reason = reason_field(
        "Reason for the change of hands", "Required when you change who holds it."
    )

    class Meta:
        model = Territory
        fields = ["campaign", "key", "name", "description", "column", "row", "neighbours"]
        labels = {"key": "Id"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # One territory per hex and per id: `define_territory` refuses them next to their
        # fields (like `validate_unique`); the database constraints stay the last line.
        self.instance.validate_constraints = lambda exclude=None: None
        campaign_id = self.instance.campaign_id
        if campaign_id is not None:
            self.fields["campaign"].disabled = True
            self.fields["holder"].queryset = Alliance.objects.filter(campaign_id=campaign_id)
            self.fields["neighbours"].queryset = Territory.objects.filter(
                campaign_id=campaign_id
            ).exclude(pk=self.instance.pk)
            self.initial["holder"] = self.instance.held_by_id
        else:
            self.fields["holder"].queryset = Alliance.objects.filter(
                campaign__in=self.fields["campaign"].queryset
            )
        self.fields["neighbours"].help_text = "The territories of the same campaign it borders."

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if "holder" in self.changed_data and not (cleaned.get("holder_reason") or "").strip():
            self.add_error("holder_reason", "Say why the territory changes hands.")
        return cleaned

    def apply(self) -> Territory:
        data = self.cleaned_data
        existing = self.instance if self.instance.pk is not None else None
        campaign = existing.campaign if existing is not None else data["campaign"]
        territory = services.define_territory(
            actor=self.actor,
            campaign=campaign,
            territory=existing,
            key=data["key"],
            name=data["name"],
            description=data.get("description") or "",
            column=data["column"],
            row=data["row"],
            neighbours=list(data.get("neighbours") or []),
        )
        if "holder" in self.changed_data:
            holder = data.get("holder")
            if holder is not None and holder.campaign_id != campaign.pk:
                raise ValidationError({"holder": ["That alliance is not one of this campaign's."]})
            territory = services.set_territory_holder(
                actor=self.actor, territory=territory, alliance=holder, reason=data["holder_reason"]
            )
        return territory


class TerritoryChangeInline(ReadOnlyInline):
    model = TerritoryChange
    fk_name = "territory"
    fields = ["created_at", "held_before", "held_after", "battle", "phase", "actor", "reason"]
    readonly_fields = fields
    verbose_name = "change of hands"
    verbose_name_plural = "changes of hands (newest first)"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .select_related("held_before", "held_after", "battle", "phase", "actor")
        )


class MapImportForm(forms.Form):
    """A map file, imported by `services.import_map` into a campaign with no map yet."""

    file = forms.FileField(
        label="Map file",
        help_text=f"A campaign map (JSON, at most {maps.MAX_BYTES // 1000} kB); see "
        "docs/campaign-map.schema.json.",
    )
    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.none(),
        empty_label=None,
        help_text="One of your campaigns with no territories yet.",
    )

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.fields["campaign"].queryset = organised_campaigns(request)

    def clean_file(self) -> bytes:
        data = self.cleaned_data["file"].read(maps.MAX_BYTES + 1)
        try:
            maps.load_map(data)
        except maps.MapError as error:
            raise ValidationError(list(error.problems)) from None
        return data

    def apply(self) -> list[Territory]:
        try:
            return services.import_map(
                actor=self.request.user,
                campaign=self.cleaned_data["campaign"],
                data=self.cleaned_data["file"],
            )
        except ValidationError as error:
            lines = [line for message in error.messages for line in message.splitlines()]
            self.add_error("file", lines)
            raise


def pack_maps(request: HttpRequest) -> list[tuple[Campaign, ContentPack]]:
    """(campaign, pack) for each pack with a map enabled in a campaign the user organises
    that has no territories yet."""
    campaigns = {
        c.pk: c for c in organised_campaigns(request).filter(territories__isnull=True).distinct()
    }
    enabled = (
        EnabledPack.objects.filter(campaign__in=list(campaigns), pack__map__isnull=False)
        .select_related("pack")
        .order_by("pack__name", "pk")[:200]
    )
    return [(campaigns[e.campaign_id], e.pack) for e in enabled]


class PackMapForm(forms.Form):
    """An enabled pack's map, applied by `services.apply_pack_map`."""

    pack_map = forms.ChoiceField(
        label="Pack map",
        help_text="A map an enabled pack carries, for one of your campaigns with no "
        "territories yet.",
    )

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.pairs = {f"{c.pk}-{p.pk}": (c, p) for c, p in pack_maps(request)}
        self.fields["pack_map"].choices = [
            (key, f"{pack.name} into {campaign.name}")
            for key, (campaign, pack) in self.pairs.items()
        ]

    def apply(self) -> list[Territory]:
        campaign, pack = self.pairs[self.cleaned_data["pack_map"]]
        try:
            return services.apply_pack_map(actor=self.request.user, campaign=campaign, pack=pack)
        except ValidationError as error:
            self.add_error("pack_map", error.messages)
            raise


@admin.register(Territory)
class TerritoryAdmin(OrganiserAdmin):
    form = TerritoryForm
    change_list_template = "admin/campaign/territory/change_list.html"
    list_display = ["name", "key", "campaign", "column", "row", "held_by"]
    list_filter = [campaign_filter(Territory)]
    list_select_related = ["campaign", "held_by"]
    search_fields = ["name", "key"]
    fieldsets = [
        (None, {"fields": ["campaign", "key", "name", "description", "column", "row"]}),
        ("Borders", {"fields": ["neighbours"]}),
        ("Held by", {"fields": ["holder", "holder_reason"]}),
    ]
    filter_horizontal = []
    inlines = [TerritoryChangeInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("campaign", "held_by")

    def formfield_for_manytomany(self, db_field, request: HttpRequest, **kwargs: Any):
        if db_field.name == "neighbours":
            kwargs["queryset"] = scoped(Territory.objects.select_related("campaign"), request)
            kwargs["widget"] = forms.SelectMultiple(attrs={"size": 10})
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("import/", wrap(self.import_view), name="campaign_territory_import"),
            path(
                "export/<int:campaign_id>/",
                wrap(self.export_view),
                name="campaign_territory_export",
            ),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        campaigns = organised_campaigns(request).filter(territories__isnull=False).distinct()
        extra_context = {
            **(extra_context or {}),
            "may_import": can_organise(request),
            "map_campaigns": list(campaigns[:50]),
        }
        return super().changelist_view(request, extra_context)

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not can_organise(request):
            raise PermissionDenied
        status = 200
        form = MapImportForm(request=request)
        pack_form = PackMapForm(request=request)
        if request.method == "POST":
            from_pack = "pack_map" in request.POST
            if from_pack:
                pack_form = PackMapForm(request.POST, request=request)
                chosen = pack_form
            else:
                form = MapImportForm(request.POST, request.FILES, request=request)
                chosen = form
            if chosen.is_valid():
                try:
                    made = chosen.apply()
                except ValidationError:
                    status = 400
                else:
                    self.message_user(
                        request, f"Imported a map of {len(made)} territories.", messages.SUCCESS
                    )
                    return HttpResponseRedirect(reverse("admin:campaign_territory_changelist"))
            else:
                status = 400
        context = {
            **self.admin_site.each_context(request),
            "title": "Import a map",
            "subtitle": None,
            "opts": self.model._meta,
            "form": form,
            "pack_form": pack_form if pack_form.pairs else None,
        }
        return TemplateResponse(
            request, "admin/campaign/territory/import.html", context, status=status
        )

    def export_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        if request.method != "GET":
            return HttpResponse(status=405, headers={"Allow": "GET"})
        campaign = organised_campaigns(request).filter(pk=campaign_id).first()
        if campaign is None or not can_organise(request):
            raise Http404
        response = HttpResponse(
            map_file_text(campaign), content_type="application/json; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="map-{campaign.pk}.json"'
        return response

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)
