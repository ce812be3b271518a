"""A campaign's alliances: organisers define, edit and retire them through
`services.alliances`; a force's alliance is changed on the force's page, with a reason."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from campaign import services
from campaign.models import Alliance

from .base import ObjectToolMixin, OrganiserAdmin, ReasonStep, ServiceForm, reason_action
from .scope import campaign_filter

ALLIANCE_HELP = (
    "Changing it is a correction: say why in the reason above. The player picks the "
    "alliance once on their force's page; after that only an organiser changes it."
)


class AllianceForm(ServiceForm):
    """An alliance formed or edited through `services.define_alliance`."""

    class Meta:
        model = Alliance
        fields = ["campaign", "name", "colour", "description"]

    def apply(self) -> Alliance:
        data, obj = self.cleaned_data, self.instance
        return services.define_alliance(
            actor=self.actor,
            campaign=data.get("campaign") or obj.campaign,
            name=data["name"],
            colour=data["colour"],
            description=data.get("description", ""),
            alliance=obj if obj.pk else None,
        )


RETIRE = ReasonStep(
    title="Retire alliances",
    button="Retire alliance",
    done="{count} alliance(s) retired: no force picks them now; their forces keep them.",
).of(services.retire_alliance, "alliance")


def swatch(colour: str):
    """The alliance's colour as a small square (an SVG fill: no inline style)."""
    return format_html(
        '<svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">'
        '<rect width="14" height="14" rx="2" fill="{}"/></svg> {}',
        colour,
        colour,
    )


@admin.register(Alliance)
class AllianceAdmin(ObjectToolMixin, OrganiserAdmin):
    form = AllianceForm
    list_display = ["name", "campaign", "shown_colour", "forces", "retired"]
    list_filter = [campaign_filter(Alliance), "retired"]
    list_select_related = ["campaign"]
    search_fields = ["name", "campaign__name"]
    actions = [reason_action(RETIRE, "retire_alliance")]
    readonly_fields = ["campaign", "pack_item", "retired", "created_at"]
    fieldsets = [
        (None, {"fields": ["campaign", "name", "colour", "description"]}),
        ("Where it came from", {"fields": ["pack_item", "retired", "created_at"]}),
    ]
    add_fieldsets = [(None, {"fields": ["campaign", "name", "colour", "description"]})]
    object_tool_path = "retire"
    object_tool_step = RETIRE

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(force_count=Count("forces"))

    def object_tool_allowed(self, request: HttpRequest, obj: Alliance) -> bool:
        return not obj.retired and self.has_change_permission(request, obj)

    @admin.display(description="colour")
    def shown_colour(self, alliance: Alliance) -> str:
        return swatch(alliance.colour)

    @admin.display(description="forces", ordering="force_count")
    def forces(self, alliance: Alliance) -> int:
        return alliance.force_count


class ForceAllianceField(forms.BaseForm):
    """Mixed into the force's change form: its alliance, one of its campaign's, changed
    through `services.change_force_alliance` with the form's reason (required then)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields.get("alliance")
        if field is not None:
            field.queryset = Alliance.objects.filter(campaign_id=self.instance.campaign_id)
            field.help_text = ALLIANCE_HELP
            field.empty_label = "None"

    def apply(self):
        force = super().apply()
        if "alliance" in self.changed_data:
            force = services.change_force_alliance(
                actor=self.actor,
                force=force,
                alliance=self.cleaned_data.get("alliance"),
                reason=self.cleaned_data.get("reason", ""),
            )
        return force


def with_alliance(form_class: type) -> type:
    """The force change form ``form_class`` with the force's alliance on it."""
    return type(form_class.__name__, (ForceAllianceField, form_class), {"__module__": __name__})
