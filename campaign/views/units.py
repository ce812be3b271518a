"""Crusade cards: add, the card page, edit, picture, remove, unit requisitions."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from campaign import rules, selectors, services
from campaign.access import get_force_for_user, get_unit_for_user
from campaign.forms import add_service_errors
from campaign.forms.forces import (
    PictureForm,
    RemoveUnitForm,
    SupplyCheckForm,
    UnitCreateForm,
    UnitEditForm,
)
from campaign.forms.requisitions import UNIT_REQUISITION_FORMS
from campaign.models import Unit

from ._common import Editing, edit_details, page_number, posted, render_page, save_picture

CARD = "units/detail.html"

UNIT_REQUISITION_SERVICES = {
    rules.Requisition.RENOWNED_HEROES: services.renowned_heroes,
    rules.Requisition.LEGENDARY_VETERANS: services.legendary_veterans,
    rules.Requisition.REARM_AND_RESUPPLY: services.rearm_and_resupply,
    rules.Requisition.REPAIR_AND_RECUPERATE: services.repair_and_recuperate,
    rules.Requisition.FRESH_RECRUITS: services.fresh_recruits,
}


@require_http_methods(["GET", "POST"])
@login_required
def unit_create(request: HttpRequest, pk: int) -> HttpResponse:
    force, _ = get_force_for_user(request.user, pk, write=True)
    form = UnitCreateForm(
        posted(request),
        initial={"faction_keywords": force.faction},
        supply_check_url=reverse("unit_supply_check", args=[force.pk]),
    )
    if request.method == "POST" and form.is_valid():
        try:
            unit = services.add_unit(
                actor=request.user, force=force, unit=services.NewUnit(**form.new_unit_values())
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"{unit.name} joined {force.name} ({unit.points} points).")
            if "add_another" in request.POST:
                return redirect("unit_create", pk=force.pk)
            return redirect(force)
    context = {"force": force, "form": form, "supply": None}
    return render_page(request, "units/create.html", context)


@require_safe
@login_required
def unit_supply_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The live supply check as the player types the points of a new unit."""
    force, _ = get_force_for_user(request.user, pk, write=True)
    points, counts = SupplyCheckForm(request.GET).status_args()
    status = selectors.supply_status(force, points, counts=counts)
    return render_page(
        request, "units/create.html#supply-status", {"force": force, "supply": status}
    )


def _card(request: HttpRequest, unit, can_write: bool, **extra) -> dict:
    card = selectors.card_page(unit, can_write=can_write, page=page_number(request))
    return {"card": card, "unit": card.unit, "force": card.force, **extra}


@require_safe
@login_required
def unit_detail(request: HttpRequest, pk: int) -> HttpResponse:
    unit, can_write = get_unit_for_user(request.user, pk)
    context = _card(request, unit, can_write, picture_form=PictureForm())
    return render_page(request, CARD, context)


def _active_unit(view: Callable[[HttpRequest, Unit], HttpResponse]):
    """For pages that change a card: the player's own unit, while it is still active."""

    @wraps(view)
    def with_unit(request: HttpRequest, pk: int) -> HttpResponse:
        unit, _ = get_unit_for_user(request.user, pk, write=True)
        if not unit.is_active:
            messages.info(request, f"{unit.name} has been removed and can no longer change.")
            return redirect(unit)
        return view(request, unit)

    return with_unit


UNIT_DETAILS = Editing(UnitEditForm, services.update_unit_details, "unit", "units/edit.html")


@require_http_methods(["GET", "POST"])
@login_required
@_active_unit
def unit_edit(request: HttpRequest, unit: Unit) -> HttpResponse:
    return edit_details(request, unit, UNIT_DETAILS)


@require_POST
@login_required
def unit_picture(request: HttpRequest, pk: int) -> HttpResponse:
    unit, can_write = get_unit_for_user(request.user, pk, write=True)
    form = PictureForm(request.POST, request.FILES)
    save = partial(services.set_unit_picture, actor=request.user, unit=unit)
    if save_picture(request, form, save, f"New picture saved for {unit.name}."):
        return redirect(unit)
    context = _card(request, unit, can_write, picture_form=form)
    return render_page(request, CARD, context, status=400)


@require_http_methods(["GET", "POST"])
@login_required
@_active_unit
def unit_remove(request: HttpRequest, unit: Unit) -> HttpResponse:
    form = RemoveUnitForm(posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            services.remove_unit(actor=request.user, unit=unit, reason=form.cleaned_data["reason"])
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"{unit.name} has been removed from the Order of Battle.")
            return redirect(unit.force)
    return render_page(request, "units/remove.html", {"unit": unit, "form": form})


@require_http_methods(["GET", "POST"])
@login_required
def unit_requisition(request: HttpRequest, pk: int, requisition: str) -> HttpResponse:
    """Buy a Requisition for one unit: its form, then its service."""
    if requisition not in UNIT_REQUISITION_FORMS:
        raise Http404("No such unit requisition.")
    req = rules.Requisition(requisition)
    unit, _ = get_unit_for_user(request.user, pk, write=True)
    option = selectors.requisition_option(unit, req)
    form = UNIT_REQUISITION_FORMS[req].for_unit(posted(request), unit)
    if request.method == "POST" and form.is_valid():
        buy = UNIT_REQUISITION_SERVICES[req]
        try:
            purchase = buy(actor=request.user, unit=unit, **form.service_kwargs())
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Bought {req.label} for {purchase.cost}RP.")
            if request.htmx:
                return HttpResponseClientRedirect(unit.get_absolute_url())
            return redirect(unit)
    context = {"unit": unit, "force": unit.force, "option": option, "form": form}
    status = 400 if form.is_bound else 200
    return render_page(request, "units/requisition.html", context, status=status)
