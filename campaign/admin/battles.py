"""Battles: read-only, with the organiser's tools: voiding a battle (with a reason), and
settling one, after a dispute or for an absent player (the results, with a reason)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from campaign import rules, services
from campaign.forms import add_service_errors
from campaign.models import Battle, BattleParticipant, BattleUnit

from .base import ObjectToolMixin, ReadOnlyAdmin, ReasonForm, ReasonStep, reason_action
from .scope import ReadOnlyInline, campaign_filter, can_organise, choice_column

SETTLE = "Settle the battle (or record for an absent player)"
VOID_BATTLE = ReasonStep(
    "Void battles", "Void this battle", "Voided {count} battle(s); their results are undone."
).of(services.void_battle, "battle")


class ParticipantInline(ReadOnlyInline):
    model = BattleParticipant
    fields = [
        "force",
        "invitation",
        "faction",
        "detachment",
        "warlord",
        "mustered",
        "recorded",
        "result",
        "rp",
        "blessings",
    ]
    readonly_fields = fields
    verbose_name_plural = "participants"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .select_related("force", "warlord", "recorded_by")
            .prefetch_related("blessing_picks__blessing")
        )

    @admin.display(description="Crusade Blessings")
    def blessings(self, participant: BattleParticipant) -> str:
        """The Blessings the side picked as the underdog."""
        picks = list(participant.blessing_picks.all())
        if not picks:
            return "—"
        return f"{', '.join(p.blessing.name for p in picks)} (underdog by {picks[0].gap})"

    @admin.display(description="recorded")
    def recorded(self, participant: BattleParticipant) -> str:
        """What the side's player claimed, who recorded it and when."""
        if not participant.has_recorded:
            return "—"
        by = participant.recorded_by.get_username() if participant.recorded_by else "?"
        return (
            f"{participant.get_claimed_result_display()} (by {by}, "
            f"{participant.recorded_at:%d %b %Y %H:%M})"
        )

    @admin.display(description="RP before → after")
    def rp(self, participant: BattleParticipant) -> str:
        if participant.rp_before is None:
            return "—"
        return f"{participant.rp_before} → {participant.rp_after}"


class SettleForm(ReasonForm):
    """The organiser's results for each side that fights, and why (kept in history)."""

    def __init__(self, *args, sides: list[BattleParticipant], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sides = sides
        for side in sides:
            if side.has_recorded:
                help_text = f"Its player recorded {side.get_claimed_result_display()}."
            else:
                help_text = (
                    "Not recorded: recording it for the absent player counts its units as "
                    "not destroyed, with no kills."
                )
            self.fields[f"result_{side.pk}"] = forms.ChoiceField(
                label=f"Result for {side.force.name}",
                choices=[("", "Choose…"), *rules.choices(rules.BattleResult)],
                initial=side.claimed_result,
                help_text=help_text,
            )
        self.order_fields([*(f"result_{side.pk}" for side in sides), "reason"])

    def results(self) -> dict[int, str]:
        return {side.pk: self.cleaned_data[f"result_{side.pk}"] for side in self.sides}


def battle_label(battle: Battle) -> str:
    """A battle's name without a query for its participants."""
    return f"{battle.battle_size} on {battle.date:%d %b %Y}"


@admin.register(Battle)
class BattleAdmin(ObjectToolMixin, ReadOnlyAdmin):
    object_tool_path = "void"
    object_tool_step = VOID_BATTLE
    counted_by_version = True
    list_display = [
        "date",
        choice_column(Battle, "battle_size"),
        "mission",
        "campaign",
        "forces",
        "status",
    ]
    list_select_related = ["campaign"]
    # By period rather than a date hierarchy, whose list of years, months and days is a
    # scan of every battle (as the history's).
    list_filter = ["status", campaign_filter(Battle), "battle_size", "date"]
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
        (
            "Timeline",
            {"fields": ["created_at", "completed_at", "cancelled_at", "voided_at", "void_reason"]},
        ),
    ]
    readonly_fields = ["armies"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        participants = BattleParticipant.objects.select_related("force").order_by("pk")
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("participants", queryset=participants))
        )

    def page_rows(self, queryset: QuerySet) -> QuerySet:
        """Only the columns the list shows (its sides' forces: `page_extras`)."""
        return queryset.prefetch_related(None).only(
            "date", "battle_size", "mission", "campaign__name", "status"
        )

    def page_extras(self, rows: list[Battle]) -> None:
        """The names of each battle's forces, by side, as plain values in one query (as a
        prefetch of the sides, it built a side and a force for each: a third of the
        list's time)."""
        names: dict[int, list[str]] = {battle.pk: [] for battle in rows}
        sides = (
            BattleParticipant.objects.filter(battle_id__in=list(names))
            .order_by("pk")
            .values_list("battle_id", "force__name")
        )
        for battle, name in sides:
            names[battle].append(name)
        for battle in rows:
            battle.force_names = names[battle.pk]

    def has_void_permission(self, request: HttpRequest, obj: Battle | None = None) -> bool:
        return can_organise(request) and self.in_scope(request, obj)

    def object_tool_allowed(self, request: HttpRequest, obj: Battle) -> bool:
        over = obj.status in (Battle.Status.VOIDED, Battle.Status.CANCELLED)
        return not over and self.has_void_permission(request, obj)

    def can_settle(self, request: HttpRequest, battle: Battle) -> bool:
        return battle.is_open and self.has_void_permission(request, battle)

    def get_urls(self):
        settle = self.admin_site.admin_view(self.settle_view)
        route = path("<path:object_id>/settle/", settle, name="campaign_battle_settle")
        return [route, *super().get_urls()]

    def more_object_tools(self, request: HttpRequest, obj: Battle) -> list[dict[str, str]]:
        if not self.can_settle(request, obj):
            return []
        url = reverse("admin:campaign_battle_settle", args=[obj.pk])
        return [{"url": url, "label": SETTLE}]

    def settle_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Choose each fighting side's result, with a reason: the battle then completes."""
        battle = self.get_object(request, unquote(object_id))
        if battle is None or not self.can_settle(request, battle):
            raise Http404
        sides = list(battle.participants.select_related("force__player").order_by("pk"))
        fighting = [side for side in sides if side.is_accepted]
        form = SettleForm(request.POST or None, sides=fighting)
        change_url = reverse("admin:campaign_battle_change", args=[battle.pk])
        if request.method == "POST" and form.is_valid():
            try:
                services.settle_battle(
                    actor=request.user,
                    battle=battle,
                    results=form.results(),
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                self.message_user(
                    request, "Battle settled: its results now count.", messages.SUCCESS
                )
                return HttpResponseRedirect(change_url)
        context = {
            **self.admin_site.each_context(request),
            "title": SETTLE,
            "subtitle": None,
            "opts": self.model._meta,
            "objects": [battle],
            "button": "Settle the battle",
            "form": form,
            "dispute": services.disagreement(sides),
            "unanswered": [side for side in sides if side.is_invited],
            "cancel_url": change_url,
        }
        return TemplateResponse(request, "admin/campaign/settle_battle.html", context)

    @admin.display(description="forces")
    @staticmethod
    def _force_names(battle: Battle) -> list[str]:
        names = getattr(battle, "force_names", None)
        return [side.force.name for side in battle.participants.all()] if names is None else names

    def forces(self, battle: Battle) -> str:
        return " vs ".join(self._force_names(battle))

    def row_label(self, battle: Battle) -> str:
        """The battle's name (`Battle.__str__`), from the page's force names."""
        return battle.named(self._force_names(battle))

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
