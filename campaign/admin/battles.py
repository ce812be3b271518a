"""Battles: read-only, with the organiser's one tool, voiding a battle (with a reason)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from campaign import services
from campaign.models import Battle, BattleParticipant, BattleUnit

from .base import ObjectToolMixin, ReadOnlyAdmin, ReasonStep, reason_action
from .scope import ReadOnlyInline, campaign_filter, can_organise

VOID_BATTLE = ReasonStep(
    "Void battles", "Void this battle", "Voided {count} battle(s); their results are undone."
).of(services.void_battle, "battle")


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

    void_battles = reason_action(VOID_BATTLE, "void_battles", permission="void")


def _xp_result(entry: BattleUnit) -> str:
    if entry.xp_before is None:
        return "—"
    bonus = f" (bonus {entry.bonus_xp}: {entry.bonus_xp_reason})" if entry.bonus_xp else ""
    return f"{entry.xp_before} → {entry.xp_after}{bonus}"
