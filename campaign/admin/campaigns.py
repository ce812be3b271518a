"""Campaigns, their members and the content packs they enable."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from campaign import services
from campaign.models import Campaign

from .base import (
    OrganiserAdmin,
    ServiceForm,
    reason_field,
    save_inline_forms,
)
from .members import InvitationInline, MembershipInline
from .packs import EnabledPackInline
from .phases import (
    SCORING_FIELDS,
    SCORING_FIELDSET,
    PhaseInline,
    advance_phase_action,
    scoring_reason_field,
)
from .scope import (
    can_organise,
    forget_organised_campaigns,
    is_superuser,
)

HOUSE_RULE_FIELDS = list(Campaign.HOUSE_RULE_FIELDS)


class CampaignAddForm(ServiceForm):
    """A new campaign, created by `services.create_campaign` with the actor as organiser."""

    tracked_fields = Campaign.HOUSE_RULE_FIELDS

    class Meta:
        model = Campaign
        fields = Campaign.DETAIL_FIELDS

    def apply(self) -> Campaign:
        return services.create_campaign(actor=self.actor, **self.cleaned_data)


class CampaignChangeForm(ServiceForm):
    """Details through `update_campaign_details`, house rules through `set_house_rules`,
    Campaign Points through `set_scoring`, the map's rules through `set_map_rules`."""

    tracked_fields = (
        *Campaign.HOUSE_RULE_FIELDS,
        *Campaign.SCORING_FIELDS,
        *Campaign.MAP_RULE_FIELDS,
    )
    reason = reason_field(
        "Reason for the house rule change",
        "Optional; kept in the history. A lower RP cap trims every force's RP to it.",
    )
    scoring_reason = scoring_reason_field()

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
        scoring = self.changed(SCORING_FIELDS)
        if scoring:
            campaign = services.set_scoring(
                actor=self.actor,
                campaign=campaign,
                reason=self.cleaned_data.get("scoring_reason", "").strip(),
                **scoring,
            )
        map_rules = self.changed(Campaign.MAP_RULE_FIELDS)
        if map_rules:
            campaign = services.set_map_rules(
                actor=self.actor,
                campaign=campaign,
                reason=self.cleaned_data.get("reason", "").strip(),
                **map_rules,
            )
        details = self.changed(Campaign.DETAIL_FIELDS)
        if details:
            campaign = services.update_campaign_details(
                actor=self.actor, campaign=campaign, **details
            )
        return campaign


@admin.register(Campaign)
class CampaignAdmin(OrganiserAdmin):
    form = CampaignChangeForm
    add_form = CampaignAddForm
    list_display = ["name", "created_at", "member_count", "force_count", "house_rules"]
    search_fields = ["name", "description"]
    readonly_fields = ["invite_code", "created_at"]
    inlines = [MembershipInline, InvitationInline, EnabledPackInline, PhaseInline]
    actions = [advance_phase_action]
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
        SCORING_FIELDSET,
        (
            "Map",
            {
                "fields": list(Campaign.MAP_RULE_FIELDS),
                "description": "How battles over territories change who holds them; kept in "
                "the history. The territories are on the Territories pages.",
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
