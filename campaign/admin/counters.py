"""Pack counters: an organiser corrects what a force (or unit) holds, with a reason,
through `services.correct_counter`; pack Requisitions bought, to look at."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from campaign import services
from campaign.models import CounterValue, CustomContent, PackRequisitionPurchase

from .base import OrganiserAdmin, ReadOnlyAdmin, ServiceForm, reason_field
from .scope import campaign_filter, is_superuser, organised_campaign_ids

REASON_HELP = "Required: it is kept in the history with the value before and after."


class CounterForm(ServiceForm):
    """A counter's value set by an organiser, with a reason; new rows name what they count."""

    reason = reason_field("Reason for correction", REASON_HELP)
    tracked_fields = ("value",)

    class Meta:
        model = CounterValue
        fields = ["force", "unit", "counter"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = True

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        unit, force = cleaned.get("unit"), cleaned.get("force") or self.instance_force()
        if unit is not None and force is not None and unit.force_id != force.pk:
            self.add_error("unit", f"{unit.name} is not in {force.name}.")
        return cleaned

    def instance_force(self):
        return self.instance.force if self.instance.pk else None

    def apply(self) -> CounterValue:
        obj, data = self.instance, self.cleaned_data
        return services.correct_counter(
            actor=self.actor,
            force=data.get("force") or obj.force,
            unit=data.get("unit") if obj.pk is None else obj.unit,
            counter=data.get("counter") or obj.counter,
            value=data["value"],
            reason=data.get("reason", ""),
        )


def campaign_counters(request: HttpRequest):
    """The counters of the packs the organiser's campaigns enable (a library pack's too)."""
    counters = CustomContent.objects.available().filter(kind=CustomContent.Kind.COUNTER)
    if is_superuser(request):
        return counters
    enabled = counters.filter(pack__enabled_in__campaign_id__in=organised_campaign_ids(request))
    return enabled.distinct()


@admin.register(CounterValue)
class CounterValueAdmin(OrganiserAdmin):
    form = CounterForm
    list_display = ["counter", "force", "unit", "value", "changed_at"]
    list_filter = [campaign_filter(CounterValue)]
    list_select_related = ["counter", "force", "unit"]
    search_fields = ["counter__name", "force__name", "unit__name"]
    fieldsets = [(None, {"fields": ["value", "reason"]})]
    add_fieldsets = [(None, {"fields": ["force", "unit", "counter", "value", "reason"]})]
    readonly_fields = ["force", "unit", "counter"]

    def get_fieldsets(self, request: HttpRequest, obj=None):
        if obj is not None:
            return [(None, {"fields": ["force", "unit", "counter", "value", "reason"]})]
        return super().get_fieldsets(request, obj)

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs: Any):
        if db_field.name == "counter":
            kwargs["queryset"] = campaign_counters(request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(PackRequisitionPurchase)
class PackRequisitionPurchaseAdmin(ReadOnlyAdmin):
    list_display = ["name", "force", "unit", "cost_label", "created_at"]
    list_filter = [campaign_filter(PackRequisitionPurchase)]
    list_select_related = ["force", "unit"]
    search_fields = ["name", "force__name", "unit__name"]
