"""Battles at the gaming table: start (inviting opponents), answer an invitation, the
battle page, muster an army, record my side of the end, withdraw or cancel.

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

from campaign import notifications, rules, selectors, services
from campaign.access import (
    get_battle_for_user,
    get_participant_for_user,
    get_watched_battle_for_user,
)
from campaign.bounds import fits_column
from campaign.forms import add_service_errors
from campaign.forms import agendas as agenda_forms
from campaign.forms.battle_start import BattleCreateForm
from campaign.forms.battles import SideRecordForm
from campaign.forms.blessings import BlessingPickForm
from campaign.forms.muster import MusterForm
from campaign.models import Battle, BattleParticipant, CrusadeForce
from campaign.selectors import live
from campaign.services.blessings import offered_blessings
from campaign.services.phases import off_phase_size

from ._common import (
    STOP_POLLING,
    kept,
    kept_part,
    posted,
    render_page,
    render_part,
    unchanged,
    watched,
)

MUSTER = "battles/army_muster.html"
RECORD = "battles/battle_record.html"


@require_http_methods(["GET", "POST"])
@login_required
def battle_create(request: HttpRequest) -> HttpResponse:
    """Start a battle; ``?force=<pk>`` (from a campaign page) picks which of my forces."""
    force = request.GET.get("force", "")
    initial = {"force": int(force)} if fits_column(CrusadeForce._meta.pk, force) else {}
    form = BattleCreateForm(posted(request), user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        force = data["force"]
        try:
            battle = services.start_battle(
                actor=request.user,
                force=force,
                opponents=list(data["opponents"]),
                battle_size=data["battle_size"],
                mission=data["mission"],
                campaign=force.campaign,
                date=data["date"],
                territory=data.get("territory"),
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            if data["opponents"]:
                notifications.invitations_sent(request, battle)
                messages.success(
                    request,
                    "Battle started and your opponents invited: each joins once they accept. "
                    "Muster your army meanwhile.",
                )
            else:
                messages.success(request, "Battle started. Muster your army.")
            if off_size := off_phase_size(battle):
                messages.warning(request, off_size)
            return redirect(battle)
    return render_page(request, "battles/battle_create.html", {"form": form})


@require_safe
@login_required
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # The battle, the access check and the poll's version in one query, read before
    # anything else the page shows: the page is at least as new as its ETag says.
    battle, can_write = get_battle_for_user(request.user, pk, battles=live.shown_battles)
    watch = live.battle_watch(battle, request.user)

    def build() -> str:
        page = selectors.battle_page(battle, user=request.user, can_write=can_write)
        return render_part(
            request, f"{DETAIL}#live", _detail_context(battle, page) | {"watch": watch}
        )

    # Once it holds no form (a battle over, say), the region is kept under the version of
    # all it shows: looking again reads nothing of the armies.
    region = kept_part(live.battle_region_key(battle, watch), build)
    return render_page(request, DETAIL, {"battle": battle, "region": region})


@require_safe
@login_required
def battle_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The battle page's poll: a 304 while nothing it shows changed (one query), else its
    region as it is now; once the battle is over, that region without a poll, and for
    htmx the status that stops polling."""
    watch = _battle_watch(request, pk)
    if (same := unchanged(request, watch)) is not None:
        return same
    battle, can_write = get_battle_for_user(request.user, pk)
    page = selectors.battle_page(battle, user=request.user, can_write=can_write)
    status = STOP_POLLING if request.htmx and not battle.is_open else 200
    context = _detail_context(battle, page) | {"watch": watch}
    return watched(render_page(request, f"{DETAIL}#live", context, status=status), watch)


def _battle_watch(request: HttpRequest, pk: int) -> live.Watch:
    """The battle page's poll, read before anything the page shows: the page is then at
    least as new as its ETag says, so no change is ever missed (one query, which also
    turns away whoever may not see the battle)."""
    battle = get_watched_battle_for_user(request.user, pk, battles=live.watched_battles)
    return live.battle_watch(battle, request.user)


DETAIL = "battles/battle_detail.html"
BLESSINGS = "battles/_blessings.html"


def _detail_context(battle: Battle, page: selectors.BattlePage, form=None) -> dict:
    """The battle page's context; ``form`` is the Blessings form as posted (else a fresh
    one for the user's underdog side, when it may pick)."""
    picker = page.blessings.picker if page.blessings else None
    if form is None and picker is not None:
        form = blessing_form(battle, picker)
    return {"battle": battle, "page": page, "blessing_form": form}


@require_POST
@login_required
def army_blessings(request: HttpRequest, pk: int) -> HttpResponse:
    """The underdog's player picks its Crusade Blessings. Refused: the Blessings
    panel (the whole page without htmx) with the reason beside the choices, and a 400."""
    participant, _ = get_participant_for_user(request.user, pk, write=True)
    battle = participant.battle
    page = selectors.battle_page(battle, user=request.user, can_write=True)
    army = next((a for a in page.blessings.armies if a.participant.pk == participant.pk), None)
    form = blessing_form(battle, army if army and army.can_pick else None, request.POST)
    if form.is_valid():
        try:
            services.pick_blessings(
                actor=request.user,
                participant=participant,
                blessings=form.cleaned_data["blessings"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            if not request.htmx:
                messages.success(request, f"{participant.force.name} has its Blessings.")
                return redirect(battle)
            page = selectors.battle_page(battle, user=request.user, can_write=True)
            return render_page(request, BLESSINGS, _detail_context(battle, page))
    template = BLESSINGS if request.htmx else DETAIL
    return render_page(request, template, _detail_context(battle, page, form), status=400)


def blessing_form(battle: Battle, army, data=None) -> BlessingPickForm:
    """The Blessings form for ``army`` (a side that may pick; None: the count is left to
    the service, which says why the side can't pick)."""
    return BlessingPickForm(
        data,
        offered=offered_blessings(battle.campaign_id),
        allowed=army.place.allowed if army else None,
        picked=army.picks if army else (),
    )


def _muster_context(
    page: selectors.MusterPage, form: MusterForm, report: rules.MusterReport | None
) -> dict:
    page.with_details()
    return {
        "page": page,
        "participant": page.participant,
        "battle": page.battle,
        "form": form,
        "rows": form.unit_rows(page),
        "summary": page.summary(form.selected(), report),
    }


def _muster_form(page: selectors.MusterPage, data) -> MusterForm:
    return MusterForm(
        data,
        initial=page.initial,
        participant=page.participant,
        units=page.units,
        agendas=page.agendas,
    )


@require_http_methods(["GET", "POST"])
@login_required
def army_muster(request: HttpRequest, pk: int) -> HttpResponse:
    participant, _ = get_participant_for_user(
        request.user, pk, write=True, participants=selectors.versioned_sides
    )
    refusal = services.muster_refusal(participant)
    if refusal:
        messages.error(request, refusal)
        return redirect(participant.battle)
    if request.method != "POST":
        return _muster_form_page(request, participant)
    page = selectors.muster_page(participant, initial=False)
    form = _muster_form(page, request.POST)
    valid = form.is_valid()
    army = form.army()
    if valid:
        try:
            report = services.muster_army(
                actor=request.user,
                participant=participant,
                detachment=form.cleaned_data["detachment"],
                agendas=agenda_forms.picked(form),
                **army,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            return _mustered(request, participant, report)
    # Refused: the rules' check of the army as posted, shown beside the form.
    page.with_details()
    report = services.check_army(participant=participant, **army)
    return render_page(request, MUSTER, _muster_context(page, form, report))


def _muster_form_page(request: HttpRequest, participant: BattleParticipant) -> HttpResponse:
    """The muster form as first shown. Its boxes and summary (all but its tokens) are
    kept under the version of all they show (`selectors.side_form_key`): opening it again
    reads none of the force's cards."""

    def build() -> str:
        page = selectors.muster_page(participant, initial=True)
        context = _muster_context(page, _muster_form(page, None), None)
        return render_part(request, f"{MUSTER}#boxes", context)

    boxes = kept(selectors.side_form_key(participant, "muster-form"), build)
    context = {"participant": participant, "battle": participant.battle, "boxes": boxes}
    return render_page(request, MUSTER, context)


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
    page.with_details()
    report = services.check_army(participant=participant, **form.army())
    return render_page(request, f"{MUSTER}#summary", _muster_context(page, form, report))


@require_http_methods(["GET", "POST"])
@login_required
def army_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Record my side of the end: preview what my units would gain, then confirm. The
    battle completes once every side has recorded and the results agree."""
    participant, _ = get_participant_for_user(
        request.user, pk, write=True, participants=selectors.versioned_sides
    )
    if request.method != "POST":
        return _record_form(request, participant)
    page = selectors.record_page(participant)
    if page.refusal:
        messages.warning(request, page.refusal)
        return redirect(page.battle)
    form = SideRecordForm(
        posted(request),
        participant=page.participant,
        army=page.army,
        agenda_picks=page.agenda_picks,
    )
    context = {"battle": page.battle, "participant": page.participant, "form": form}
    if request.method == "POST" and "edit" not in request.POST and form.is_valid():
        try:
            if "confirm" in request.POST:
                battle = services.record_side(
                    actor=request.user, participant=participant, **form.service_kwargs()
                )
                notifications.side_recorded(request, battle, participant)
                _say_what_happened(request, battle)
                return redirect(battle)
            context["gain"] = services.preview_side(participant, **form.service_kwargs())
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            return render_page(request, "battles/battle_record_preview.html", context)
    return render_page(request, RECORD, context)


def _record_form(request: HttpRequest, participant: BattleParticipant) -> HttpResponse:
    """The record form as first shown. Its boxes are kept under the version of all they
    show (`selectors.side_form_key`), and why the side may not record, if it may not:
    opening it again reads none of the army."""

    def build() -> tuple[str | None, str]:
        page = selectors.record_page(participant)
        if page.refusal:
            return page.refusal, ""
        form = SideRecordForm(
            None, participant=page.participant, army=page.army, agenda_picks=page.agenda_picks
        )
        return None, render_part(request, f"{RECORD}#boxes", {"form": form})

    refusal, boxes = kept(selectors.side_form_key(participant, "record-form"), build)
    if refusal:
        messages.warning(request, refusal)
        return redirect(participant.battle)
    context = {"battle": participant.battle, "participant": participant, "boxes": boxes}
    return render_page(request, RECORD, context)


def _say_what_happened(request: HttpRequest, battle: Battle) -> None:
    if battle.status == Battle.Status.COMPLETED:
        story = f" {TELL_THE_STORY}" if battle.campaign_id else ""
        messages.success(
            request, f"{RECORDED} Take any Out of Action tests and promotions below.{story}"
        )
    elif battle.status == Battle.Status.DISPUTED:
        messages.warning(
            request,
            "Your side is recorded, but the results disagree. Either player can change "
            "their side, or an organiser settles it.",
        )
    else:
        messages.success(
            request, "Your side is recorded. The battle ends when every side has recorded."
        )


RECORDED = "Battle recorded: every side agrees."
TELL_THE_STORY = "Then tell the story of this battle in the campaign's log (the button below)."


def _answer(request: HttpRequest, battle: Battle, change, done: str) -> HttpResponse:
    """Make a change to a battle through a service; say what happened, back to the battle."""
    try:
        change()
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done)
    return redirect(battle)


def _invitation_view(service, done: str, *, starter: bool = False):
    """A POST-only view that answers (or, for the ``starter``, withdraws) the invitation of
    one side through ``service``; ``done`` names the force as ``{force}``."""

    @require_POST
    @login_required
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        side, _ = get_participant_for_user(request.user, pk, write=True, starter=starter)
        return _answer(
            request,
            side.battle,
            lambda: service(actor=request.user, participant=side),
            done.format(force=side.force.name),
        )

    return view


army_accept = _invitation_view(
    services.accept_invitation, "{force} joins the battle. Muster your army."
)
army_decline = _invitation_view(
    services.decline_invitation, "Declined: {force} stays out of this battle."
)
army_withdraw = _invitation_view(
    services.withdraw_invitation, "{force} is no longer invited.", starter=True
)


@require_POST
@login_required
def battle_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    battle, _ = get_battle_for_user(request.user, pk, write=True, starter=True)
    return _answer(
        request,
        battle,
        lambda: services.cancel_battle(actor=request.user, battle=battle),
        "Battle cancelled. No force changed.",
    )
