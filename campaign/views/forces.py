"""Forces: create, the Order of Battle page, edit, banner, history, force requisitions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign import rules, selectors, services
from campaign.access import campaigns_for_user, get_force_for_user
from campaign.forms import add_service_errors
from campaign.forms.forces import (
    BannerForm,
    ForceCreateForm,
    ForceDetailsForm,
)
from campaign.models import CrusadeForce

DETAIL = "forces/detail.html"


def _posted(request: HttpRequest):
    """The submitted data on POST (even when empty, so the form is bound), else None."""
    return request.POST if request.method == "POST" else None


@require_http_methods(["GET", "POST"])
@login_required
def force_create(request: HttpRequest) -> HttpResponse:
    form = ForceCreateForm(_posted(request), campaigns=campaigns_for_user(request.user))
    if request.method == "POST" and form.is_valid():
        try:
            force = services.create_force(
                actor=request.user, player=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                f"{force.name} is ready: {force.supply_limit} points of Supply Limit "
                f"and {force.rp}RP to spend. Add your first unit.",
            )
            return redirect(force)
    return render(request, "forces/create.html", {"form": form})


def force_page_context(
    request: HttpRequest, force: CrusadeForce, *, banner_form=None, requisition_error: str = ""
) -> dict:
    """Everything the Order of Battle page shows, in a fixed number of queries."""
    oob = selectors.order_of_battle(force)
    force = oob.force
    tests_by_unit: dict[int, list] = {}
    for test in oob.pending_tests:
        tests_by_unit.setdefault(test.unit_id, []).append(test)
    for unit in oob.units:
        unit.pending_tests = tests_by_unit.get(unit.pk, [])
    enhancements = sum(1 for u in oob.units if u.enhancement)
    options = services.requisition_options(
        force, in_battle=oob.in_battle, enhancements=enhancements
    )
    return {
        "force": force,
        "oob": oob,
        "is_owner": force.player_id == request.user.pk,
        "rp_pips": [i < force.rp for i in range(force.rp_cap)],
        "requisition_options": options,
        "requisition_error": requisition_error,
        "banner_form": banner_form or BannerForm(),
        "crusade_points": sum(u.crusade_points for u in oob.units),
    }


@require_safe
@login_required
def force_detail(request: HttpRequest, pk: int) -> HttpResponse:
    force = get_force_for_user(request.user, pk)
    return render(request, DETAIL, force_page_context(request, force))


@require_http_methods(["GET", "POST"])
@login_required
def force_edit(request: HttpRequest, pk: int) -> HttpResponse:
    force = get_force_for_user(request.user, pk, write=True)
    initial = {name: getattr(force, name) for name in ForceDetailsForm.base_fields}
    form = ForceDetailsForm(_posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        changed = {k: v for k, v in form.cleaned_data.items() if k in form.changed_data}
        try:
            force = services.update_force_details(actor=request.user, force=force, **changed)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Saved." if changed else "Nothing to change.")
            return redirect(force)
    return render(request, "forces/edit.html", {"force": force, "form": form})


@require_POST
@login_required
def force_banner(request: HttpRequest, pk: int) -> HttpResponse:
    force = get_force_for_user(request.user, pk, write=True)
    form = BannerForm(request.POST, request.FILES)
    if form.is_valid():
        picture, thumbnail = form.processed
        services.set_force_banner(
            actor=request.user, force=force, banner=picture, thumbnail=thumbnail
        )
        messages.success(request, "New banner saved.")
        return redirect(force)
    context = force_page_context(request, force, banner_form=form)
    return render(request, DETAIL, context, status=400)


@require_safe
@login_required
def force_history(request: HttpRequest, pk: int) -> HttpResponse:
    force = get_force_for_user(request.user, pk)
    entries = selectors.force_history(force)
    for entry in entries:
        entry.change_rows = change_rows(entry.changes)
    return render(request, "forces/history.html", {"force": force, "entries": entries})


def change_rows(changes: dict) -> list[tuple[str, str, str]]:
    """History `changes` as readable (what, before, after) rows."""
    rows = []
    for key, pair in (changes or {}).items():
        before, after = (pair + [None, None])[:2] if isinstance(pair, list) else (None, pair)
        rows.append((key.replace("_", " ").capitalize(), _show(before), _show(after)))
    return rows


def _show(value) -> str:
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


@require_POST
@login_required
def force_requisition(request: HttpRequest, pk: int, requisition: str) -> HttpResponse:
    force = get_force_for_user(request.user, pk, write=True)
    if requisition != rules.Requisition.INCREASE_SUPPLY_LIMIT:
        raise Http404("Not a requisition for the whole force.")
    try:
        purchase = services.increase_supply_limit(actor=request.user, force=force)
    except ValidationError as error:
        message = " ".join(error.messages)
        if request.htmx:
            return _summary_regions(request, force, requisition_error=message, status=400)
        messages.error(request, message)
        return redirect(force)
    force.refresh_from_db()
    message = (
        f"Bought {purchase.get_requisition_display()} for {purchase.cost}RP: "
        f"your Supply Limit is now {force.supply_limit}."
    )
    if request.htmx:
        return _summary_regions(request, force, notice=message)
    messages.success(request, message)
    return redirect(force)


def _summary_regions(
    request: HttpRequest,
    force: CrusadeForce,
    *,
    requisition_error: str = "",
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    """The force summary (supply, RP) and, out of band, the requisitions region."""
    context = force_page_context(request, force, requisition_error=requisition_error)
    context["notice"] = notice
    summary = render_to_string(f"{DETAIL}#force-summary", context, request=request)
    context["oob_swap"] = True
    requisitions = render_to_string(f"{DETAIL}#force-requisitions", context, request=request)
    return HttpResponse(summary + requisitions, status=status)
