"""Forces (Orders of Battle) and their cards, with honours and scars to look at."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from campaign import rules, services
from campaign.models import (
    CARD_FIELDS,
    BattleHonour,
    BattleScar,
    CrusadeForce,
    Provenance,
    Unit,
)
from campaign.models import KEYWORD_FIELDS as CARD_KEYWORDS

from .alliances import with_alliance
from .base import (
    CORRECTION_HELP,
    ObjectToolMixin,
    OrganiserAdmin,
    ReadOnlyAdmin,
    ReasonStep,
    ServiceForm,
    reason_action,
    reason_field,
)
from .scope import KeptValuesFilter, ReadOnlyInline, campaign_filter


class ForceAddForm(ServiceForm):
    """A new Order of Battle via `services.create_force`, with the campaign's starting numbers."""

    class Meta:
        model = CrusadeForce
        fields = ["player", "campaign", "name", "faction", *CrusadeForce.STORY_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "campaign" in self.fields and not getattr(self.actor, "is_superuser", False):
            self.fields["campaign"].required = True

    def apply(self) -> CrusadeForce:
        return services.create_force(actor=self.actor, **self.cleaned_data)


class CorrectionForm(ServiceForm):
    """Tracked numbers through a correction service (with a reason), the rest through the
    service that edits what the player may change."""

    reason = reason_field("Reason for correction", CORRECTION_HELP)
    editable_fields: tuple[str, ...] = ()
    service_calls: tuple[Any, Any, str] = (None, None, "")
    """The correction service, the edit service and the name they give the object."""

    def apply(self):
        obj = self.instance
        correct, edit, key = self.service_calls
        corrections = self.changed(self.tracked_fields)
        if corrections:
            reason = self.cleaned_data.get("reason", "")
            obj = correct(actor=self.actor, reason=reason, **{key: obj}, **corrections)
        details = self.changed(self.editable_fields)
        if details:
            obj = edit(actor=self.actor, **{key: obj}, **details)
        return obj


def correction_form(model, tracked, editable, *services_and_name) -> type[CorrectionForm]:
    """The change form of ``model``: ``tracked`` fields corrected, ``editable`` ones edited."""
    meta = type("Meta", (), {"model": model, "fields": editable})
    attrs = {"Meta": meta, "tracked_fields": tracked, "editable_fields": editable}
    attrs |= {"service_calls": services_and_name, "__module__": __name__}
    return type(f"{model.__name__}ChangeForm", (CorrectionForm,), attrs)


ForceChangeForm = with_alliance(
    correction_form(
        CrusadeForce,
        CrusadeForce.TRACKED_FIELDS,
        CrusadeForce.NARRATIVE_FIELDS,
        services.correct_force,
        services.update_force_details,
        "force",
    )
)


class UnitAddForm(ServiceForm):
    """A new Crusade card through `services.add_unit` (within the Supply Limit, no XP yet)."""

    class Meta:
        model = Unit
        fields = ["force", *CARD_FIELDS.new]

    def apply(self) -> Unit:
        data = dict(self.cleaned_data)
        force = data.pop("force")
        return services.add_unit(actor=self.actor, force=force, unit=services.NewUnit(**data))


UnitChangeForm = correction_form(
    Unit,
    CARD_FIELDS.tracked,
    CARD_FIELDS.player,
    services.correct_unit,
    services.update_unit_details,
    "unit",
)


class RankFilter(admin.SimpleListFilter):
    """Filter cards by rank, using the rules' XP thresholds."""

    title = "rank"
    parameter_name = "rank"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[str, str]]:
        return [(str(rank.value), rank.label) for rank in rules.Rank]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() not in {str(rank.value) for rank in rules.Rank}:
            return queryset
        rank = rules.Rank(int(self.value()))
        queryset = queryset.filter(xp__gte=rank.min_xp)
        if rank.next is not None:
            queryset = queryset.filter(xp__lt=rank.next.min_xp)
        return queryset


KEYWORD_FLAGS = {
    **{keyword.field: keyword.label for keyword in rules.Keyword},
    "legendary_veteran": rules.Requisition.LEGENDARY_VETERANS.label,
}


class KeywordFilter(admin.SimpleListFilter):
    """Cards with a keyword that changes the rules (or whose XP cap was lifted)."""

    title = "keyword"
    parameter_name = "keyword"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[str, str]]:
        return list(KEYWORD_FLAGS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() in KEYWORD_FLAGS:
            return queryset.filter(**{self.value(): True})
        return queryset


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


APPROVE_RESTORED = ReasonStep(
    title="Approve restored forces",
    button="Approve restored force",
    done="{count} restored force(s) approved: they may now play.",
).of(services.approve_restored_force, "force")
REFUSE_RESTORED = ReasonStep(
    title="Refuse restored forces",
    button="Refuse restored force",
    done="{count} restored force(s) refused: they stay on record but won't play.",
).of(services.refuse_restored_force, "force")


class RestoredFilter(admin.SimpleListFilter):
    """Forces restored from an export, by what the organiser decided."""

    title = "restored"
    parameter_name = "restored"

    def lookups(self, request: HttpRequest, model_admin) -> list[tuple[str, str]]:
        return list(Provenance.Approval.choices)

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() in Provenance.Approval.values:
            return queryset.filter(provenance__approval=self.value())
        return queryset


@admin.register(CrusadeForce)
class ForceAdmin(OrganiserAdmin):
    form = ForceChangeForm
    add_form = ForceAddForm
    counted_by_version = True
    list_display = [
        "name",
        "player",
        "faction",
        "campaign_name",
        "supply",
        "requisition_points",
        "battles",
        "restored",
    ]
    """Short headers, one column for the battles and a campaign name that may wrap (a
    foreign key's column never does): every column shows beside the filter at 1280
    pixels."""
    list_select_related = ["player", "campaign", "provenance"]
    list_filter = [campaign_filter(CrusadeForce), RestoredFilter, ("faction", KeptValuesFilter)]
    actions = ["approve_restored_force", "refuse_restored_force"]
    search_fields = ["name", "player__username", "faction"]
    search_help_text = "Force name, player username or faction."
    readonly_fields = [
        "player",
        "campaign",
        "supply_used",
        "rp_cap",
        "banner",
        "created_at",
        "restored_source",
    ]
    inlines = [UnitInline]
    fieldsets = [
        (
            None,
            {"fields": ["name", "faction", "player", "campaign", "created_at", "restored_source"]},
        ),
        (
            "Tracked numbers (organiser corrections)",
            {
                "fields": [
                    ("supply_limit", "supply_used"),
                    ("rp", "rp_cap"),
                    ("battle_tally", "victories"),
                    "alliance",
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

    def page_rows(self, queryset: QuerySet) -> QuerySet:
        """Only the columns the list shows, of the force and of its player, campaign and
        provenance (a player's row holds a password hash and a dozen more)."""
        return queryset.only(
            "name",
            "faction",
            "supply_used",
            "supply_limit",
            "rp",
            "rp_cap",
            "battle_tally",
            "victories",
            "player__username",
            "campaign__name",
            "provenance__approval",
        )

    @admin.display(description="Supply", ordering="supply_used")
    def supply(self, force: CrusadeForce) -> str:
        """Supply Used / Supply Limit."""
        return f"{force.supply_used} / {force.supply_limit}"

    @admin.display(description="RP", ordering="rp")
    def requisition_points(self, force: CrusadeForce) -> str:
        """RP / RP cap."""
        return f"{force.rp} / {force.rp_cap}"

    @admin.display(description="Battles", ordering="battle_tally")
    def battles(self, force: CrusadeForce) -> str:
        """The battle tally and the victories among them."""
        return f"{force.battle_tally} ({force.victories} won)"

    @admin.display(description="campaign", ordering="campaign__name")
    def campaign_name(self, force: CrusadeForce) -> str:
        return force.campaign.name if force.campaign_id else "-"

    @admin.display(description="restored")
    def restored(self, force: CrusadeForce) -> str:
        """What the organiser decided about a restored force ("-": made here)."""
        provenance = force.restored_from
        return "-" if provenance is None else provenance.get_approval_display()

    @admin.display(description="restored from")
    def restored_source(self, force: CrusadeForce) -> str:
        """Where a restored force came from, and the organiser's decision with its reason."""
        provenance = force.restored_from
        if provenance is None:
            return "-"
        reason = f" ({provenance.decision_reason})" if provenance.decision_reason else ""
        return f"{provenance.source} {provenance.get_approval_display()}{reason}."

    approve_restored_force = reason_action(APPROVE_RESTORED, "approve_restored_force")
    refuse_restored_force = reason_action(REFUSE_RESTORED, "refuse_restored_force")

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


KEYWORD_FIELDS = [*CARD_FIELDS.keywords, "legendary_veteran"]
UNIT_TRACKED_FIELDSETS = [
    (
        "Tracked numbers (organiser corrections)",
        {
            "fields": [f for f in CARD_FIELDS.tracked if f not in KEYWORD_FIELDS],
            "description": "Changing any of these is a correction: say why below. XP, "
            "honours and scars stay with the card (a datasheet change keeps them).",
        },
    ),
    ("Keywords (organiser corrections)", {"fields": KEYWORD_FIELDS}),
    ("Reason for correction", {"fields": ["reason"]}),
]
REMOVED = "Remove from the Order of Battle"
REMOVE_UNIT = ReasonStep(
    REMOVED, REMOVED, "Removed {count} unit(s) from the Order of Battle.", "Removed by organiser"
).of(services.remove_unit, "unit")


UNIT_ROW_FIELDS = (
    "name",
    "force__name",
    "force__player__username",
    "datasheet",
    "points",
    "xp",
    "status",
    *(field for _, field in CARD_KEYWORDS),
)
"""What a row of the units' list reads: its columns, and the keywords its XP shown
depends on (`Unit.no_xp`)."""


@admin.register(Unit)
class UnitAdmin(ObjectToolMixin, OrganiserAdmin):
    form = UnitChangeForm
    add_form = UnitAddForm
    counted_by_version = True
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
        "status",
    ]
    """The Crusade points are on each card's page: derived from its honours, scars and
    upgrades, three more reads a page for a column organisers don't look rows up by."""
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
        ("Card details", {"fields": [*CARD_FIELDS.player[1:], "picture"]}),
    ]
    add_fieldsets = [
        (
            None,
            {
                "fields": ["force", *(f for f in CARD_FIELDS.new if f not in KEYWORD_FIELDS)],
                "description": "The card joins the force within its Supply Limit and "
                "starts with no XP and empty tallies.",
            },
        ),
        ("Keywords", {"fields": list(CARD_FIELDS.keywords)}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).with_card_details()

    def page_rows(self, queryset: QuerySet) -> QuerySet:
        """Only the columns the list shows (a card has some forty), and none of the
        card's prefetches (`with_card_details`), which its page reads."""
        return queryset.prefetch_related(None).only(*UNIT_ROW_FIELDS)

    def has_change_permission(self, request: HttpRequest, obj: Unit | None = None) -> bool:
        # A removed card stays readable but never changes again.
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

    remove_from_order_of_battle = reason_action(REMOVE_UNIT, "remove_from_order_of_battle")


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
