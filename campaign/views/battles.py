"""Battles at the gaming table: start, the battle page, muster an army, record the end.

Thin views: objects come through `campaign.access`, page data from
`campaign.selectors`, input through the forms in `campaign.forms.battles`, and every
change through `campaign.services`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign import rules, selectors, services
from campaign.access import get_battle_for_user, get_participant_for_user
from campaign.forms import add_service_errors
from campaign.forms.battles import BattleCreateForm, BattleRecordForm, MusterForm
from campaign.models import Battle, BattleParticipant

from ._common import posted, render_page

MUSTER = "battles/army_muster.html"
OVER = "This battle is over; its armies can no longer change."


@require_http_methods(["GET", "POST"])
@login_required
def battle_create(request: HttpRequest) -> HttpResponse:
    form = BattleCreateForm(posted(request), user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        force = data["force"]
        try:
            battle = services.start_battle(
                actor=request.user,
                forces=[force, *data["opponents"]],
                battle_size=data["battle_size"],
                mission=data["mission"],
                campaign=force.campaign,
                date=data["date"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Battle started. Now each player musters an army.")
            return redirect(battle)
    return render_page(request, "battles/battle_create.html", {"form": form})


@require_safe
@login_required
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    battle, can_write = get_battle_for_user(request.user, pk)
    page = selectors.battle_page(battle, user=request.user, can_write=can_write)
    return render_page(request, "battles/battle_detail.html", {"battle": battle, "page": page})


def _muster_context(
    page: selectors.MusterPage, form: MusterForm, report: rules.MusterReport | None
) -> dict:
    return {
        "page": page,
        "participant": page.participant,
        "battle": page.battle,
        "form": form,
        "rows": form.rows(page),
        "summary": page.summary(form.selected(), report),
    }


def _muster_form(page: selectors.MusterPage, data) -> MusterForm:
    return MusterForm(data, initial=page.initial, participant=page.participant, units=page.units)


@require_http_methods(["GET", "POST"])
@login_required
def army_muster(request: HttpRequest, pk: int) -> HttpResponse:
    participant, _ = get_participant_for_user(request.user, pk, write=True)
    if participant.battle.status != Battle.Status.IN_PROGRESS:
        messages.error(request, OVER)
        return redirect(participant.battle)
    page = selectors.muster_page(participant, initial=request.method == "GET")
    form = _muster_form(page, posted(request))
    report = None
    if request.method == "POST":
        valid = form.is_valid()
        report = services.check_army(participant=participant, **form.army())
        if valid:
            try:
                report = services.muster_army(
                    actor=request.user,
                    participant=participant,
                    detachment=form.cleaned_data["detachment"],
                    **form.army(),
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                return _mustered(request, participant, report)
    return render_page(request, MUSTER, _muster_context(page, form, report))


def _mustered(
    request: HttpRequest, participant: BattleParticipant, report: rules.MusterReport
) -> HttpResponse:
    messages.success(
        request,
        f"{participant.force.name} is mustered: {report.points} of {report.limit} points.",
    )
    for warning in report.warnings:
        messages.warning(request, warning)
    return redirect(participant.battle)


@require_POST
@login_required
def army_muster_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The live muster check: reads the muster form, changes nothing, returns the summary."""
    participant, _ = get_participant_for_user(request.user, pk, write=True)
    page = selectors.muster_page(participant, initial=False)
    form = _muster_form(page, request.POST)
    form.is_valid()
    report = services.check_army(participant=participant, **form.army())
    return render_page(request, f"{MUSTER}#summary", _muster_context(page, form, report))


@require_http_methods(["GET", "POST"])
@login_required
def battle_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the end: preview what every unit gains, then confirm."""
    battle, _ = get_battle_for_user(request.user, pk, write=True)
    if battle.status != Battle.Status.IN_PROGRESS:
        messages.info(request, "This battle has already been recorded.")
        return redirect(battle)
    page = selectors.record_page(battle)
    if page.waiting:
        messages.warning(request, f"Waiting for {', '.join(page.waiting)} to muster an army.")
        return redirect(battle)
    form = BattleRecordForm(posted(request), participants=page.participants)
    context = {"battle": battle, "form": form}
    if request.method == "POST" and "edit" not in request.POST and form.is_valid():
        args = {"results": form.results(), "outcomes": form.outcomes()}
        try:
            if "confirm" in request.POST:
                services.record_battle_end(actor=request.user, battle=battle, **args)
                messages.success(
                    request, "Battle recorded. Take any Out of Action tests and promotions below."
                )
                return redirect(battle)
            plan = services.preview_battle_end(battle, **args)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            context["plan"] = plan
            return render_page(request, "battles/battle_record_preview.html", context)
    return render_page(request, "battles/battle_record.html", context)
