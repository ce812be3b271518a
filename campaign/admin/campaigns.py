"""Campaigns, their members and their own content (custom honours and scars)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.db.models import Count, Model, QuerySet
from django.http import HttpRequest

from campaign import services
from campaign.models import Campaign, CustomContent

from .base import (
    ObjectToolMixin,
    OrganiserAdmin,
    ReasonStep,
    RefusalForm,
    ServiceAdmin,
    ServiceForm,
    ServiceInline,
    reason_action,
    reason_field,
    save_inline_forms,
)
from .members import InvitationInline, MembershipInline
from .scope import (
    OrganiserScope,
    ScopedInline,
    campaign_filter,
    can_organise,
    forget_organised_campaigns,
    is_superuser,
)

HOUSE_RULE_FIELDS = list(Campaign.HOUSE_RULE_FIELDS)
CUSTOM_FIELDS = ["name", "effect", "relic_category", "trait_table"]


class CampaignAddForm(ServiceForm):
    """A new campaign, created by `services.create_campaign` with the actor as organiser."""

    tracked_fields = Campaign.HOUSE_RULE_FIELDS

    class Meta:
        model = Campaign
        fields = Campaign.DETAIL_FIELDS

    def apply(self) -> Campaign:
        return services.create_campaign(actor=self.actor, **self.cleaned_data)


class CampaignChangeForm(ServiceForm):
    """Details through `update_campaign_details`, house rules through `set_house_rules`."""

    tracked_fields = Campaign.HOUSE_RULE_FIELDS
    reason = reason_field(
        "Reason for the house rule change",
        "Optional; kept in the history. A lower RP cap trims every force's RP to it.",
    )

    class Meta:
        model = Campaign
        fields = Campaign.DETAIL_FIELDS

    def apply(self) -> Campaign:
        campaign = self.instance
        house_rules = self.changed(HOUSE_RULE_FIELDS)
        if house_rules:
            campaign = services.set_house_rules(
                actor=self.actor,
                campaign=campaign,
                reason=self.cleaned_data.get("reason", "").strip(),
                **house_rules,
            )
        details = self.changed(Campaign.DETAIL_FIELDS)
        if details:
            campaign = services.update_campaign_details(
                actor=self.actor, campaign=campaign, **details
            )
        return campaign


class CustomContentForm(RefusalForm, forms.ModelForm):
    """A campaign's own Battle Trait, Battle Scar or Crusade Relic, saved by the services."""

    retire = forms.BooleanField(
        required=False, label="Retire", help_text="Stop offering it; cards keep theirs."
    )

    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.none(),
        required=False,
        help_text="Added to this campaign's house rules pack (made the first time).",
    )

    class Meta:
        model = CustomContent
        fields = ["kind", *CUSTOM_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None or self.instance.is_retired:
            self.fields["retire"].disabled = True
        if self.instance.pk is not None and "kind" in self.fields:
            self.fields["kind"].disabled = True

    def apply(self, campaign: Campaign) -> CustomContent:
        data = self.cleaned_data
        if self.instance.pk is None:
            return services.add_custom_content(
                actor=self.actor,
                campaign=campaign,
                kind=data["kind"],
                **{name: data.get(name) or "" for name in CUSTOM_FIELDS},
            )
        content = self.instance
        changed = self.changed(CUSTOM_FIELDS)
        if changed:
            content = services.update_custom_content(actor=self.actor, content=content, **changed)
        if data.get("retire"):
            content = services.retire_custom_content(actor=self.actor, content=content)
        return content


class CustomContentInline(ServiceInline, ScopedInline, admin.StackedInline):
    model = CustomContent
    form = CustomContentForm
    fields = [("kind", "name"), "effect", ("relic_category", "trait_table"), "retire"]
    readonly_fields = ["retired_at"]
    extra = 0
    can_delete = False

    def get_fields(self, request: HttpRequest, obj: Model | None = None):
        return [*self.fields, "retired_at"]


@admin.register(Campaign)
class CampaignAdmin(OrganiserAdmin):
    form = CampaignChangeForm
    add_form = CampaignAddForm
    list_display = ["name", "created_at", "member_count", "force_count", "house_rules"]
    search_fields = ["name", "description"]
    readonly_fields = ["invite_code", "created_at"]
    inlines = [MembershipInline, InvitationInline]
    fieldsets = [
        (None, {"fields": ["name", "description", "invite_code", "created_at"]}),
        (
            "House rules",
            {
                "fields": [*HOUSE_RULE_FIELDS, "reason"],
                "description": "Changed through the house rules service: the change is "
                "kept in the history, and a new RP cap applies to every force at once.",
            },
        ),
    ]
    add_fieldsets = [
        (None, {"fields": list(Campaign.DETAIL_FIELDS)}),
        ("House rules", {"fields": HOUSE_RULE_FIELDS}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .annotate(
                member_count=Count("memberships", distinct=True),
                force_count=Count("forces", distinct=True),
            )
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        """A superuser starts campaigns here; so does an organiser while campaigns are
        self-service (`CRUSADE_SELF_SERVICE_CAMPAIGNS`). The one who adds it organises it."""
        if is_superuser(request):
            return True
        return settings.CRUSADE_SELF_SERVICE_CAMPAIGNS and can_organise(request)

    @admin.display(description="members", ordering="member_count")
    def member_count(self, campaign: Campaign) -> int:
        return campaign.member_count

    @admin.display(description="forces", ordering="force_count")
    def force_count(self, campaign: Campaign) -> int:
        return campaign.force_count

    @admin.display(description="house rules")
    def house_rules(self, campaign: Campaign) -> str:
        return (
            f"{campaign.starting_supply_limit} pts, {campaign.starting_rp}RP to start; "
            f"RP cap {campaign.rp_cap}; +{campaign.supply_limit_increase} pts per increase"
        )

    def save_model(self, request: HttpRequest, obj: Campaign, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            forget_organised_campaigns(request)

    def save_formset(self, request: HttpRequest, form, formset, change: bool) -> None:
        save_inline_forms(formset, form.instance)


RETIRE_CONTENT = ReasonStep(
    "Retire custom content", "Retire", "Retired {count} item(s): no longer offered to players."
).of(services.retire_custom_content, "content")


@admin.register(CustomContent)
class CustomContentAdmin(ObjectToolMixin, OrganiserScope, ServiceAdmin):
    form = CustomContentForm
    object_tool_path = "retire"
    object_tool_step = RETIRE_CONTENT
    list_display = ["name", "kind", "pack", "relic_category", "trait_table", "retired_at"]
    list_select_related = ["pack"]
    list_filter = ["kind", campaign_filter(CustomContent), "relic_category"]
    search_fields = ["name", "effect"]
    actions = [reason_action(RETIRE_CONTENT, "retire_content")]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def get_readonly_fields(self, request: HttpRequest, obj: CustomContent | None = None):
        return ["retired_at"] if obj is None else ["campaign", "retired_at"]

    def object_tool_allowed(self, request: HttpRequest, obj: CustomContent) -> bool:
        return not obj.is_retired and self.has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: CustomContent, form, change: bool) -> None:
        content = form.apply(form.cleaned_data["campaign"] if not change else obj.campaign)
        obj.__dict__.update(content.__dict__)
