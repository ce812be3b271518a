"""Pack content in the admin: the items of the packs, each an Agenda, Blessing, Requisition,
upgrade, Battle Trait, Crusade Relic, Battle Scar or counter.

Organisers add Battle Traits, Battle Scars and Crusade Relics to a campaign's house rules
pack, and change or retire the items of their campaigns' packs; they read, but don't
change, the library's (superusers do). Every change goes through `campaign.services`.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from campaign import services
from campaign.models import CORE_TRAIT_TABLES, Campaign, CustomContent

from .base import ObjectToolMixin, ReasonStep, RefusalForm, ServiceAdmin, reason_action
from .packs import may_edit_pack, organised_campaigns, visible_packs
from .scope import (
    OrganiserScope,
    campaign_filter,
    can_organise,
    is_superuser,
    organised_campaign_ids,
)

CUSTOM_FIELDS = ["name", "effect", "relic_category", "trait_table"]
CORE_TABLE_CHOICES = [(key, str(table)) for key, table in CORE_TRAIT_TABLES.items()]


def trait_table_choices(tables: list[dict[str, str]]) -> list[tuple[str, str]]:
    own = [(t["id"], t["name"]) for t in tables if t["id"] not in CORE_TRAIT_TABLES]
    return [("", "Any unit"), *CORE_TABLE_CHOICES, *own]


class CustomContentForm(RefusalForm, forms.ModelForm):
    """One item of a pack: a new one is a Battle Trait, Battle Scar or Crusade Relic of a
    campaign's house rules pack; edits and retiring go through the services."""

    retire = forms.BooleanField(
        required=False, label="Retire", help_text="Stop offering it; cards keep theirs."
    )
    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.none(),
        required=False,
        help_text="Added to this campaign's house rules pack (made the first time).",
    )
    trait_table = forms.ChoiceField(
        required=False,
        choices=trait_table_choices([]),
        label="Battle Traits table",
        help_text="Battle Traits only: the units it suits. Any unit when empty.",
    )

    class Meta:
        model = CustomContent
        fields = ["kind", *CUSTOM_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None or self.instance.is_retired:
            self.fields["retire"].disabled = True
        if self.instance.pk is not None:
            if "kind" in self.fields:
                self.fields["kind"].disabled = True
            tables = self.instance.pack.trait_tables
        else:
            self.fields["kind"].choices = [(k.value, k.label) for k in CustomContent.HONOUR_KINDS]
            tables = []
        self.fields["trait_table"].choices = trait_table_choices(tables)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.instance.pk is None and not cleaned.get("campaign") and "campaign" in self.fields:
            self.add_error("campaign", "Pick the campaign it is for.")
        return cleaned

    def apply(self, campaign: Campaign | None) -> CustomContent:
        data = self.cleaned_data
        if self.instance.pk is None:
            return services.add_custom_content(
                actor=self.actor,
                campaign=campaign,
                kind=data["kind"],
                **{name: data.get(name) or "" for name in CUSTOM_FIELDS},
            )
        content = self.instance
        changed = {k: v or "" for k, v in self.changed(CUSTOM_FIELDS).items()}
        if changed:
            content = services.update_custom_content(actor=self.actor, content=content, **changed)
        if data.get("retire"):
            content = services.retire_custom_content(actor=self.actor, content=content)
        return content


RETIRE_CONTENT = ReasonStep(
    "Retire pack content", "Retire", "Retired {count} item(s): no longer offered to players."
).of(services.retire_custom_content, "content")


class PackFilter(admin.SimpleListFilter):
    """The packs the user sees (the built-in filter would list every pack)."""

    title = "pack"
    parameter_name = "pack"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[int, str]]:
        return [(p.pk, str(p)) for p in visible_packs(request).only("pk", "name")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if not self.value():
            return queryset
        offered = {str(pk): pk for pk, _ in self.lookup_choices}
        if self.value() not in offered:
            return queryset.none()
        return queryset.filter(pack_id=offered[self.value()])


@admin.register(CustomContent)
class CustomContentAdmin(ObjectToolMixin, OrganiserScope, ServiceAdmin):
    form = CustomContentForm
    object_tool_path = "retire"
    object_tool_step = RETIRE_CONTENT
    list_display = ["name", "kind", "pack", "relic_category", "trait_table", "retired_at"]
    list_select_related = ["pack"]
    list_filter = ["kind", PackFilter, campaign_filter(CustomContent), "relic_category"]
    search_fields = ["name", "effect"]
    actions = [reason_action(RETIRE_CONTENT, "retire_content")]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = CustomContent.objects.select_related("pack", "pack__campaign")
        if is_superuser(request):
            return queryset
        return queryset.filter(pack__in=visible_packs(request))

    def in_scope(self, request: HttpRequest, obj: Model | None) -> bool:
        if obj is None or is_superuser(request):
            return True
        return obj.pack.campaign_id in (None, *organised_campaign_ids(request))

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        if obj is not None and not may_edit_pack(request, obj.pack):
            return False
        return super().has_change_permission(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def get_form(self, request: HttpRequest, obj: CustomContent | None = None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if "campaign" in form.base_fields:
            form.base_fields["campaign"].queryset = organised_campaigns(request)
        return form

    def get_readonly_fields(self, request: HttpRequest, obj: CustomContent | None = None):
        return ["retired_at"] if obj is None else ["pack", "retired_at"]

    def get_fields(self, request: HttpRequest, obj: CustomContent | None = None):
        where = ["campaign"] if obj is None else ["pack"]
        return [*where, "kind", *CUSTOM_FIELDS, "retire", "retired_at"]

    def object_tool_allowed(self, request: HttpRequest, obj: CustomContent) -> bool:
        return not obj.is_retired and self.has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: CustomContent, form, change: bool) -> None:
        content = form.apply(form.cleaned_data.get("campaign") if not change else obj.campaign)
        obj.__dict__.update(content.__dict__)
