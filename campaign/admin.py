"""The organisers' admin: scoped to the campaigns a user organises, writing through services.

An organiser is an active staff user with an organiser membership in at least
one campaign. They see and change only their campaigns' data, and they need no
Django model permissions. Superusers see everything. Tracked numbers change
only through `services.correct_force` and `services.correct_unit`, with a reason.
Removing is a status, so forces, units, honours, scars, battles and history are
never deleted here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Count, Model, Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from campaign import rules, services
from campaign.admin_forms import (
    CampaignAddForm,
    CampaignChangeForm,
    CustomContentForm,
    ForceAddForm,
    ForceChangeForm,
    MembershipForm,
    MembershipInlineFormSet,
    ReasonForm,
    UnitAddForm,
    UnitChangeForm,
)
from campaign.models import (
    Battle,
    BattleHonour,
    BattleParticipant,
    BattleScar,
    BattleUnit,
    Campaign,
    CrusadeForce,
    CustomContent,
    HistoryEntry,
    Membership,
    Unit,
)
from campaign.services._common import record
from campaign.services.forces import HOUSE_RULE_FIELDS

admin.site.site_header = "Crusade Tracker — organisers"
admin.site.site_title = "Crusade Tracker admin"
admin.site.index_title = "Campaigns you organise"

ORGANISER = Membership.Role.ORGANISER


# --- Who may see what --------------------------------------------------------------------


def organised_campaign_ids(request: HttpRequest) -> frozenset[int]:
    """The campaigns the user organises (cached on the request)."""
    cached = getattr(request, "_organised_campaign_ids", None)
    if cached is None:
        user = request.user
        if user.is_active and user.is_staff:
            cached = frozenset(
                Membership.objects.filter(user=user, role=ORGANISER)
                .order_by()
                .values_list("campaign_id", flat=True)
            )
        else:
            cached = frozenset()
        request._organised_campaign_ids = cached
    return cached


def forget_organised_campaigns(request: HttpRequest) -> None:
    request.__dict__.pop("_organised_campaign_ids", None)


def is_superuser(request: HttpRequest) -> bool:
    return request.user.is_active and request.user.is_superuser


def can_organise(request: HttpRequest) -> bool:
    return is_superuser(request) or bool(organised_campaign_ids(request))


CAMPAIGN_PATHS: dict[type[Model], str] = {
    Campaign: "pk",
    Membership: "campaign",
    CustomContent: "campaign",
    CrusadeForce: "campaign",
    Unit: "force__campaign",
    BattleHonour: "unit__force__campaign",
    BattleScar: "unit__force__campaign",
    Battle: "campaign",
    BattleParticipant: "battle__campaign",
    HistoryEntry: "campaign",
}
"""How each kind of row reaches the campaign it belongs to."""


def scoped(queryset: QuerySet, request: HttpRequest) -> QuerySet:
    """Only the rows of campaigns the user organises (every row for a superuser)."""
    if is_superuser(request):
        return queryset
    campaign_path = CAMPAIGN_PATHS[queryset.model]
    return queryset.filter(**{f"{campaign_path}__in": organised_campaign_ids(request)})


def campaign_id_of(obj: Model) -> int | None:
    *hops, last = CAMPAIGN_PATHS[type(obj)].split("__")
    for hop in hops:
        obj = getattr(obj, hop)
    return obj.pk if last == "pk" else getattr(obj, f"{last}_id")


def scoped_choices(db_field, request: HttpRequest) -> QuerySet | None:
    """Foreign-key choices limited to the organiser's campaigns."""
    model = db_field.related_model
    if model is CrusadeForce:
        return scoped(CrusadeForce.objects.select_related("player", "campaign"), request)
    if model in CAMPAIGN_PATHS:
        return scoped(model._default_manager.all(), request)
    if model is get_user_model() and not is_superuser(request):
        members = get_user_model().objects.filter(
            memberships__campaign__in=organised_campaign_ids(request)
        )
        return members.distinct().order_by("username")
    return None


def force_label(force: CrusadeForce) -> str:
    """Forces in a choice list: with 30 players, the name alone is ambiguous."""
    where = force.campaign.name if force.campaign_id else "no campaign"
    return f"{force.name} ({force.player.username}, {where})"


class OrganiserScope:
    """Permissions and querysets of an admin whose rows belong to a campaign."""

    view_on_site = False

    def in_scope(self, request: HttpRequest, obj: Model | None) -> bool:
        """For an admin, obj is its row; for an inline, the parent row."""
        if obj is None or is_superuser(request):
            return True
        return campaign_id_of(obj) in organised_campaign_ids(request)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return scoped(super().get_queryset(request), request)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return can_organise(request) and self.in_scope(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self.has_view_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs: Any):
        choices = scoped_choices(db_field, request)
        if choices is not None:
            kwargs["queryset"] = choices
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is not None and db_field.related_model is CrusadeForce:
            field.label_from_instance = force_label
        return field


class OrganiserAdmin(OrganiserScope, admin.ModelAdmin):
    """A scoped admin that saves through a `ServiceForm` (add and change forms)."""

    add_form = None
    add_fieldsets: list | None = None
    add_readonly_fields: list[str] = []

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def get_form(self, request: HttpRequest, obj: Model | None = None, change=False, **kwargs):
        if obj is None and self.add_form is not None:
            kwargs["form"] = self.add_form
        form = super().get_form(request, obj, change=change, **kwargs)
        form.actor = request.user
        return form

    def get_exclude(self, request: HttpRequest, obj: Model | None = None):
        excluded = list(super().get_exclude(request, obj) or [])
        if obj is not None:
            # Tracked numbers are never model-form fields: only a service changes them.
            excluded += self.form.tracked_fields
        return excluded or None

    def get_fieldsets(self, request: HttpRequest, obj: Model | None = None):
        if obj is None and self.add_fieldsets is not None:
            return self.add_fieldsets
        return super().get_fieldsets(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None):
        if obj is None:
            return self.add_readonly_fields
        return super().get_readonly_fields(request, obj)

    def get_inlines(self, request: HttpRequest, obj: Model | None):
        return self.inlines if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Model, form, change: bool) -> None:
        """The form's services save; a new object takes the identity of the one they made."""
        saved = form.apply()
        if not change:
            obj.__dict__.update(saved.__dict__)


class ReadOnlyAdmin(OrganiserScope, admin.ModelAdmin):
    """Rows only services write: organisers look, nobody adds, changes or deletes here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ScopedInline(OrganiserScope):
    """An inline: its rows are scoped like its model's admin, its permissions by the parent."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None) -> bool:
        return can_organise(request) and self.in_scope(request, obj)


class ReadOnlyInline(ScopedInline, admin.TabularInline):
    extra = 0
    max_num = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


# --- Filters -----------------------------------------------------------------------------


class CampaignFilter(admin.SimpleListFilter):
    """The organiser's campaigns only (the built-in filter would list every campaign)."""

    title = "campaign"
    parameter_name = "campaign"
    campaign_path = "campaign"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[int, str]]:
        campaigns = scoped(Campaign.objects.only("pk", "name"), request)
        return [(c.pk, c.name) for c in campaigns]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value():
            return queryset.filter(**{self.campaign_path: self.value()})
        return queryset


def campaign_filter(model: type[Model]) -> type[CampaignFilter]:
    return type("CampaignFilter", (CampaignFilter,), {"campaign_path": CAMPAIGN_PATHS[model]})


class RankFilter(admin.SimpleListFilter):
    """R3.5: filter cards by rank, using the rules' XP thresholds."""

    title = "rank"
    parameter_name = "rank"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[str, str]]:
        return [(str(rank.value), rank.label) for rank in rules.Rank]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() not in {str(rank.value) for rank in rules.Rank}:
            return queryset
        rank = rules.Rank(int(self.value()))
        queryset = queryset.filter(xp__gte=rank.min_xp)
        if rank < max(rules.Rank):
            queryset = queryset.filter(xp__lt=rules.Rank(rank + 1).min_xp)
        return queryset


KEYWORD_FLAGS = {
    "is_character": "CHARACTER",
    "is_epic_hero": "EPIC HERO",
    "is_titanic": "TITANIC",
    "is_fortification": "FORTIFICATION",
    "is_swarm": "SWARM",
    "is_battleline": "BATTLELINE",
    "is_dedicated_transport": "DEDICATED TRANSPORT",
    "legendary_veteran": "Legendary Veterans",
}


class KeywordFilter(admin.SimpleListFilter):
    """R2.2: cards with a keyword that changes the rules (or Legendary Veterans, R6.3)."""

    title = "keyword"
    parameter_name = "keyword"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[str, str]]:
        return list(KEYWORD_FLAGS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() in KEYWORD_FLAGS:
            return queryset.filter(**{self.value(): True})
        return queryset


# --- Actions that need a reason ----------------------------------------------------------


@dataclass(frozen=True)
class ReasonStep:
    """A service applied to each chosen object, after asking for the reason."""

    title: str
    button: str
    done: str
    service: Callable[..., Any]
    initial_reason: str = ""


VOID_BATTLE = ReasonStep(
    title="Void battles",
    button="Void this battle",
    done="Voided {count} battle(s); their results are undone.",
    service=lambda *, actor, obj, reason: services.void_battle(
        actor=actor, battle=obj, reason=reason
    ),
)
REMOVE_UNIT = ReasonStep(
    title="Remove from the Order of Battle",
    button="Remove from the Order of Battle",
    done="Removed {count} unit(s) from the Order of Battle.",
    service=lambda *, actor, obj, reason: services.remove_unit(
        actor=actor, unit=obj, reason=reason
    ),
    initial_reason="Removed by organiser",
)


def run_reason_step(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    objects: Iterable[Model],
    step: ReasonStep,
    *,
    action: str | None = None,
    cancel_url: str,
) -> HttpResponse | None:
    """Ask for the reason; once it is posted back, call the service on each object.

    Returns None when the service calls are done; the caller then redirects.
    """
    objects = list(objects)
    if request.method == "POST" and request.POST.get("apply") == "yes":
        form = ReasonForm(request.POST)
        if form.is_valid():
            done = 0
            for obj in objects:
                try:
                    step.service(actor=request.user, obj=obj, reason=form.cleaned_data["reason"])
                except ValidationError as error:
                    model_admin.message_user(
                        request, f"{obj}: {' '.join(error.messages)}", messages.ERROR
                    )
                else:
                    done += 1
            if done:
                model_admin.message_user(request, step.done.format(count=done), messages.SUCCESS)
            return None
    else:
        form = ReasonForm(initial={"reason": step.initial_reason})
    context = {
        **model_admin.admin_site.each_context(request),
        "title": step.title,
        "subtitle": None,
        "opts": model_admin.model._meta,
        "objects": objects,
        "form": form,
        "button": step.button,
        "action": action,
        "cancel_url": cancel_url,
    }
    return TemplateResponse(request, "admin/campaign/confirm_with_reason.html", context)


class ObjectToolMixin:
    """A per-object page (GET asks for the reason, POST applies) and its change-page button."""

    change_form_template = "admin/campaign/change_form_with_tool.html"
    object_tool_path = ""
    object_tool_step: ReasonStep

    def object_tool_allowed(self, request: HttpRequest, obj: Model) -> bool:
        raise NotImplementedError

    def object_tool_url_name(self) -> str:
        opts = self.model._meta
        return f"{opts.app_label}_{opts.model_name}_{self.object_tool_path}"

    def get_urls(self):
        view = self.admin_site.admin_view(self.object_tool_view)
        route = f"<path:object_id>/{self.object_tool_path}/"
        return [path(route, view, name=self.object_tool_url_name()), *super().get_urls()]

    def object_tool_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.object_tool_allowed(request, obj):
            raise Http404
        opts = self.model._meta
        change_url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
        response = run_reason_step(
            self, request, [obj], self.object_tool_step, cancel_url=change_url
        )
        return response or HttpResponseRedirect(change_url)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if obj is not None and self.object_tool_allowed(request, obj):
            url = reverse(f"admin:{self.object_tool_url_name()}", args=[obj.pk])
            extra_context = {
                **(extra_context or {}),
                "object_tool": {"url": url, "label": self.object_tool_step.button},
            }
        return super().change_view(request, object_id, form_url, extra_context)


# --- Campaigns, members, custom content --------------------------------------------------


def save_memberships(request: HttpRequest, formset) -> None:
    """New members join through `join_campaign`; a role change is recorded."""
    formset.save(commit=False)
    campaign = formset.instance
    for form in formset.forms:
        if not form.has_changed():
            continue
        if form.instance.pk is None:
            services.join_campaign(
                actor=request.user,
                user=form.cleaned_data["user"],
                campaign=campaign,
                role=form.cleaned_data["role"],
            )
        elif "role" in form.changed_data:
            save_role_change(request, form)


def save_role_change(request: HttpRequest, form) -> None:
    membership = form.instance
    before = form.initial["role"]
    Membership.objects.filter(pk=membership.pk).update(role=membership.role)
    record(
        actor=request.user,
        action="member_role_changed",
        summary=f"{membership.user.username} is now {membership.get_role_display()} "
        f"in {membership.campaign.name}",
        campaign=membership.campaign,
        changed={"role": [before, membership.role]},
    )


def save_custom_content_form(request: HttpRequest, form) -> CustomContent:
    """Save one custom honour or scar and record it in the campaign's history."""
    content = form.instance
    added = content.pk is None
    before = {name: form.initial.get(name) for name in form.changed_data}
    content.save()
    record(
        actor=request.user,
        action="custom_content_added" if added else "custom_content_changed",
        summary=f"{content.get_kind_display()} {content.name} "
        + ("added to" if added else "changed in")
        + f" {content.campaign.name}",
        campaign=content.campaign,
        changed={
            name: [before[name], form.cleaned_data[name]]
            for name in form.changed_data
            if name != "campaign"
        },
    )
    return content


def delete_custom_content(request: HttpRequest, content: CustomContent) -> None:
    record(
        actor=request.user,
        action="custom_content_removed",
        summary=f"{content.get_kind_display()} {content.name} removed from {content.campaign.name}",
        campaign=content.campaign,
    )
    content.delete()


def save_custom_content_formset(request: HttpRequest, formset) -> None:
    formset.save(commit=False)
    for content in formset.deleted_objects:
        delete_custom_content(request, content)
    for form in formset.forms:
        if form.has_changed() and not formset._should_delete_form(form):
            save_custom_content_form(request, form)


class MembershipInline(ScopedInline, admin.TabularInline):
    model = Membership
    form = MembershipForm
    formset = MembershipInlineFormSet
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    extra = 1
    can_delete = False
    verbose_name = "member"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("user")


class CustomContentInline(ScopedInline, admin.StackedInline):
    model = CustomContent
    form = CustomContentForm
    fields = [("kind", "name"), "effect", ("relic_category", "trait_table")]
    extra = 0

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return can_organise(request) and self.in_scope(request, obj)


@admin.register(Campaign)
class CampaignAdmin(OrganiserAdmin):
    form = CampaignChangeForm
    add_form = CampaignAddForm
    list_display = ["name", "created_at", "member_count", "force_count", "house_rules"]
    search_fields = ["name", "description"]
    readonly_fields = ["invite_code", "created_at"]
    inlines = [MembershipInline, CustomContentInline]
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
        (None, {"fields": ["name", "description"]}),
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

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Any staff user may start a campaign; they become its organiser.
        return request.user.is_active and request.user.is_staff

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
        if formset.model is Membership:
            save_memberships(request, formset)
        elif formset.model is CustomContent:
            save_custom_content_formset(request, formset)


@admin.register(Membership)
class MembershipAdmin(OrganiserScope, admin.ModelAdmin):
    form = MembershipForm
    list_display = ["user", "campaign", "role", "joined_at"]
    list_select_related = ["user", "campaign"]
    list_filter = ["role", campaign_filter(Membership)]
    search_fields = ["user__username"]
    readonly_fields = ["joined_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def get_readonly_fields(self, request: HttpRequest, obj: Membership | None = None):
        return ["joined_at"] if obj is None else ["campaign", "joined_at"]

    def save_model(self, request: HttpRequest, obj: Membership, form, change: bool) -> None:
        if change:
            if "role" in form.changed_data:
                save_role_change(request, form)
            return
        membership = services.join_campaign(
            actor=request.user, user=obj.user, campaign=obj.campaign, role=obj.role
        )
        obj.__dict__.update(membership.__dict__)


@admin.register(CustomContent)
class CustomContentAdmin(OrganiserScope, admin.ModelAdmin):
    form = CustomContentForm
    list_display = ["name", "kind", "campaign", "relic_category", "trait_table"]
    list_select_related = ["campaign"]
    list_filter = ["kind", campaign_filter(CustomContent), "relic_category"]
    search_fields = ["name", "effect"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        # Unused content may go (history keeps a row); content a card holds is protected.
        return can_organise(request) and self.in_scope(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: CustomContent | None = None):
        return [] if obj is None else ["campaign"]

    def save_model(self, request: HttpRequest, obj: CustomContent, form, change: bool) -> None:
        save_custom_content_form(request, form)

    def delete_model(self, request: HttpRequest, obj: CustomContent) -> None:
        delete_custom_content(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for content in queryset.select_related("campaign"):
            delete_custom_content(request, content)


# --- Forces and cards --------------------------------------------------------------------


class UnitInline(ReadOnlyInline):
    model = Unit
    fields = ["card", "datasheet", "points", "xp_shown", "rank", "crusade_points", "status"]
    readonly_fields = fields
    ordering = ["status", "name"]
    verbose_name = "unit"
    verbose_name_plural = "Order of Battle"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).with_card_details()

    @admin.display(description="unit")
    def card(self, unit: Unit) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:campaign_unit_change", args=[unit.pk]), unit.name
        )

    @admin.display(description="XP")
    def xp_shown(self, unit: Unit) -> str:
        return unit.xp_display

    @admin.display(description="rank")
    def rank(self, unit: Unit) -> str:
        return unit.rank.label

    @admin.display(description="Crusade points")
    def crusade_points(self, unit: Unit) -> int:
        return unit.crusade_points


@admin.register(CrusadeForce)
class ForceAdmin(OrganiserAdmin):
    form = ForceChangeForm
    add_form = ForceAddForm
    list_display = [
        "name",
        "player",
        "faction",
        "campaign",
        "supply",
        "requisition_points",
        "battle_tally",
        "victories",
    ]
    list_select_related = ["player", "campaign"]
    list_filter = [campaign_filter(CrusadeForce), "faction"]
    search_fields = ["name", "player__username", "faction"]
    search_help_text = "Force name, player username or faction."
    readonly_fields = [
        "player",
        "campaign",
        "supply_used",
        "rp_cap",
        "banner",
        "created_at",
    ]
    inlines = [UnitInline]
    fieldsets = [
        (None, {"fields": ["name", "faction", "player", "campaign", "created_at"]}),
        (
            "Tracked numbers (organiser corrections)",
            {
                "fields": [
                    ("supply_limit", "supply_used"),
                    ("rp", "rp_cap"),
                    ("battle_tally", "victories"),
                    "reason",
                ],
                "description": "Changing any of these is a correction: say why. The "
                "reason and the numbers before and after are kept in the history.",
            },
        ),
        (
            "Narrative",
            {"fields": ["goals", "victories_notes", "vendettas", "background", "banner"]},
        ),
    ]
    add_fieldsets = [
        (
            None,
            {
                "fields": ["player", "campaign", "name", "faction"],
                "description": "The force starts with the campaign's starting Supply Limit "
                "and RP. The player must already be a member of the campaign.",
            },
        ),
        ("Narrative", {"fields": ["goals", "victories_notes", "vendettas", "background"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).with_supply_used()

    @admin.display(description="Supply Used / Limit", ordering="supply_used_total")
    def supply(self, force: CrusadeForce) -> str:
        return f"{force.supply_used} / {force.supply_limit}"

    @admin.display(description="Supply Used")
    def supply_used(self, force: CrusadeForce) -> int:
        return force.supply_used

    @admin.display(description="RP / cap", ordering="rp")
    def requisition_points(self, force: CrusadeForce) -> str:
        return f"{force.rp} / {force.rp_cap}"

    def save_formset(self, request: HttpRequest, form, formset, change: bool) -> None:
        """The Order of Battle inline is read-only: cards change through their own page."""
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []


class HonourInline(ReadOnlyInline):
    model = BattleHonour
    fields = ["name", "category", "relic_category", "effect", "status", "gained_at"]
    readonly_fields = fields
    verbose_name_plural = "Battle Honours"


class ScarInline(ReadOnlyInline):
    model = BattleScar
    fields = ["name", "effect", "status", "gained_at"]
    readonly_fields = fields
    verbose_name_plural = "Battle Scars"


UNIT_TRACKED_FIELDSETS = [
    (
        "Tracked numbers (organiser corrections)",
        {
            "fields": [
                "datasheet",
                ("points", "counts_towards_supply"),
                ("model_count", "max_model_count"),
                "models_description",
                "wargear",
                ("enhancement", "enhancement_points"),
                "faction_keywords",
                "trait_table",
                "xp",
                ("battles_played", "battles_survived", "units_destroyed"),
            ],
            "description": "Changing any of these is a correction: say why below. XP, "
            "honours and scars stay with the card (a datasheet change keeps them).",
        },
    ),
    (
        "Keywords (organiser corrections)",
        {
            "fields": [
                ("is_character", "is_epic_hero", "is_titanic", "is_fortification"),
                ("is_swarm", "is_battleline", "is_dedicated_transport", "legendary_veteran"),
            ]
        },
    ),
    ("Reason for correction", {"fields": ["reason"]}),
]


@admin.register(Unit)
class UnitAdmin(ObjectToolMixin, OrganiserAdmin):
    form = UnitChangeForm
    add_form = UnitAddForm
    object_tool_path = "remove"
    object_tool_step = REMOVE_UNIT
    list_display = [
        "name",
        "force",
        "player",
        "datasheet",
        "points",
        "xp_column",
        "rank_column",
        "crusade_points_column",
        "status",
    ]
    list_select_related = ["force", "force__player"]
    list_filter = [
        "status",
        campaign_filter(Unit),
        RankFilter,
        KeywordFilter,
        "counts_towards_supply",
    ]
    search_fields = ["name", "datasheet", "force__name", "force__player__username"]
    search_help_text = "Unit name, datasheet, force name or player username."
    actions = ["remove_from_order_of_battle"]
    inlines = [HonourInline, ScarInline]
    readonly_fields = [
        "force",
        "status",
        "removed_at",
        "removed_reason",
        "rank_column",
        "xp_column",
        "crusade_points_column",
        "picture",
        "created_at",
    ]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "name",
                    "force",
                    ("status", "removed_at", "removed_reason"),
                    ("xp_column", "rank_column", "crusade_points_column"),
                    "created_at",
                ]
            },
        ),
        *UNIT_TRACKED_FIELDSETS,
        ("Card details", {"fields": ["selectable_keywords", "crusade_rules", "notes", "picture"]}),
    ]
    add_fieldsets = [
        (
            None,
            {
                "fields": [
                    "force",
                    "name",
                    "datasheet",
                    ("points", "counts_towards_supply"),
                    "faction_keywords",
                    "selectable_keywords",
                ],
                "description": "The card joins the force within its Supply Limit and "
                "starts at 0XP with empty tallies.",
            },
        ),
        (
            "Models and wargear",
            {
                "fields": [
                    ("model_count", "max_model_count"),
                    "models_description",
                    "wargear",
                    ("enhancement", "enhancement_points"),
                    "trait_table",
                    "crusade_rules",
                ]
            },
        ),
        UNIT_TRACKED_FIELDSETS[1],
        ("Notes", {"fields": ["notes"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).with_card_details()

    def has_change_permission(self, request: HttpRequest, obj: Unit | None = None) -> bool:
        # A removed card stays readable but never changes again (R1.4).
        return super().has_change_permission(request, obj) and (obj is None or obj.is_active)

    def get_fieldsets(self, request: HttpRequest, obj: Unit | None = None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and not self.has_change_permission(request, obj):
            return [fs for fs in fieldsets if fs[0] != "Reason for correction"]
        return fieldsets

    def object_tool_allowed(self, request: HttpRequest, obj: Unit) -> bool:
        return self.has_change_permission(request, obj)

    @admin.display(description="player", ordering="force__player__username")
    def player(self, unit: Unit) -> str:
        return unit.force.player.username

    @admin.display(description="XP", ordering="xp")
    def xp_column(self, unit: Unit) -> str:
        return unit.xp_display

    @admin.display(description="rank", ordering="xp")
    def rank_column(self, unit: Unit) -> str:
        return unit.rank.label

    @admin.display(description="Crusade points")
    def crusade_points_column(self, unit: Unit) -> int:
        return unit.crusade_points

    @admin.action(description="Remove from the Order of Battle", permissions=["change"])
    def remove_from_order_of_battle(self, request: HttpRequest, queryset: QuerySet):
        return run_reason_step(
            self,
            request,
            queryset,
            REMOVE_UNIT,
            action="remove_from_order_of_battle",
            cancel_url=request.get_full_path(),
        )


@admin.register(BattleHonour)
class BattleHonourAdmin(ReadOnlyAdmin):
    list_display = ["name", "category", "relic_category", "unit", "force", "status", "gained_at"]
    list_select_related = ["unit", "unit__force"]
    list_filter = ["category", "status", campaign_filter(BattleHonour)]
    search_fields = ["name", "unit__name", "unit__force__name"]

    @admin.display(description="force", ordering="unit__force__name")
    def force(self, honour: BattleHonour) -> str:
        return honour.unit.force.name


@admin.register(BattleScar)
class BattleScarAdmin(ReadOnlyAdmin):
    list_display = ["name", "unit", "force", "status", "gained_at"]
    list_select_related = ["unit", "unit__force"]
    list_filter = ["status", campaign_filter(BattleScar)]
    search_fields = ["name", "unit__name", "unit__force__name"]

    @admin.display(description="force", ordering="unit__force__name")
    def force(self, scar: BattleScar) -> str:
        return scar.unit.force.name


# --- Battles and history -----------------------------------------------------------------


class ParticipantInline(ReadOnlyInline):
    model = BattleParticipant
    fields = ["force", "faction", "detachment", "warlord", "mustered", "result", "rp"]
    readonly_fields = fields
    verbose_name_plural = "participants"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("force", "warlord")

    @admin.display(description="RP before → after")
    def rp(self, participant: BattleParticipant) -> str:
        if participant.rp_before is None:
            return "—"
        return f"{participant.rp_before} → {participant.rp_after}"


def battle_label(battle: Battle) -> str:
    """A battle's name without a query for its participants."""
    return f"{battle.battle_size} on {battle.date:%d %b %Y}"


@admin.register(Battle)
class BattleAdmin(ObjectToolMixin, ReadOnlyAdmin):
    object_tool_path = "void"
    object_tool_step = VOID_BATTLE
    list_display = ["date", "battle_size", "mission", "campaign", "forces", "status"]
    list_select_related = ["campaign"]
    list_filter = ["status", campaign_filter(Battle), "battle_size"]
    date_hierarchy = "date"
    search_fields = [
        "mission",
        "participants__force__name",
        "participants__force__player__username",
    ]
    search_help_text = "Mission, force name or player username."
    actions = ["void_battles"]
    inlines = [ParticipantInline]
    fieldsets = [
        (None, {"fields": ["campaign", "date", "battle_size", "mission", "status", "created_by"]}),
        ("Armies and results", {"fields": ["armies"]}),
        ("Timeline", {"fields": ["created_at", "completed_at", "voided_at", "void_reason"]}),
    ]
    readonly_fields = ["armies"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        participants = BattleParticipant.objects.select_related("force").order_by("pk")
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("participants", queryset=participants))
        )

    def has_void_permission(self, request: HttpRequest, obj: Battle | None = None) -> bool:
        return can_organise(request) and self.in_scope(request, obj)

    def object_tool_allowed(self, request: HttpRequest, obj: Battle) -> bool:
        return obj.status != Battle.Status.VOIDED and self.has_void_permission(request, obj)

    @admin.display(description="forces")
    def forces(self, battle: Battle) -> str:
        return " vs ".join(p.force.name for p in battle.participants.all())

    @admin.display(description="armies")
    def armies(self, battle: Battle) -> str:
        entries = (
            BattleUnit.objects.filter(participant__battle=battle)
            .select_related("unit", "participant__force")
            .order_by("participant", "pk")
        )
        if not entries:
            return "No army mustered yet."
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    entry.participant.force.name,
                    entry.unit.name,
                    "destroyed" if entry.destroyed else "survived",
                    entry.enemy_units_destroyed,
                    "yes" if entry.marked_for_greatness else "",
                    _xp_result(entry),
                    entry.promotions_earned or "",
                )
                for entry in entries
            ),
        )
        return format_html(
            "<table><thead><tr><th>Force</th><th>Unit</th><th>Fate</th>"
            "<th>Enemy units destroyed</th><th>Marked for Greatness</th><th>XP</th>"
            "<th>Promotions</th></tr></thead><tbody>{}</tbody></table>",
            rows,
        )

    @admin.action(description="Void this battle", permissions=["void"])
    def void_battles(self, request: HttpRequest, queryset: QuerySet):
        return run_reason_step(
            self,
            request,
            queryset,
            VOID_BATTLE,
            action="void_battles",
            cancel_url=request.get_full_path(),
        )


def _xp_result(entry: BattleUnit) -> str:
    if entry.xp_before is None:
        return "—"
    bonus = f" (bonus {entry.bonus_xp}: {entry.bonus_xp_reason})" if entry.bonus_xp else ""
    return f"{entry.xp_before} → {entry.xp_after}{bonus}"


@admin.register(HistoryEntry)
class HistoryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action", "summary", "force", "unit", "battle_column"]
    list_select_related = ["actor", "force", "unit", "battle"]
    list_filter = ["action", campaign_filter(HistoryEntry)]
    search_fields = ["summary", "force__name", "unit__name", "actor__username"]
    search_help_text = "Summary, force name, unit name or username."
    date_hierarchy = "created_at"
    fields = [
        "created_at",
        "actor",
        "action",
        "summary",
        "reason",
        "changes_table",
        "campaign",
        "force",
        "unit",
        "battle",
    ]
    readonly_fields = ["changes_table"]

    @admin.display(description="battle", ordering="battle__date")
    def battle_column(self, entry: HistoryEntry) -> str:
        return battle_label(entry.battle) if entry.battle_id else "—"

    @admin.display(description="numbers before → after")
    def changes_table(self, entry: HistoryEntry) -> str:
        if not entry.changes:
            return "—"
        return format_html(
            "<table>{}</table>",
            format_html_join(
                "",
                "<tr><th>{}</th><td>{}</td></tr>",
                ((name, _before_after(value)) for name, value in entry.changes.items()),
            ),
        )


def _before_after(value: Any) -> str:
    if isinstance(value, list) and len(value) == 2:
        return f"{value[0]} → {value[1]}"
    return str(value)
