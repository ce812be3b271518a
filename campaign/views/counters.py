"""Buying a pack Requisition, for the whole force or for one unit."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from campaign import services
from campaign.access import get_force_for_user, get_unit_for_user
from campaign.forms.forces import PictureForm

from ._common import render_page
from .forces import DETAIL, _detail_context
from .units import CARD, _card


def _bought(purchase) -> str:
    what = f": {purchase.effect}" if purchase.effect else "."
    return f"Bought {purchase.name} for {purchase.cost_label}{what}"


@require_POST
@login_required
def force_pack_requisition(request: HttpRequest, pk: int, item: int) -> HttpResponse:
    force, can_write = get_force_for_user(request.user, pk, write=True)
    try:
        purchase = services.buy_pack_requisition(actor=request.user, force=force, requisition=item)
    except ValidationError as error:
        context = _detail_context(force, can_write, pack_requisition_error=" ".join(error.messages))
        return render_page(request, DETAIL, context, status=400)
    messages.success(request, _bought(purchase))
    return redirect(force)


@require_POST
@login_required
def unit_pack_requisition(request: HttpRequest, pk: int, item: int) -> HttpResponse:
    unit, can_write = get_unit_for_user(request.user, pk, write=True)
    try:
        purchase = services.buy_pack_requisition(actor=request.user, unit=unit, requisition=item)
    except ValidationError as error:
        context = _card(
            request,
            unit,
            can_write,
            picture_form=PictureForm(),
            pack_requisition_error=" ".join(error.messages),
        )
        return render_page(request, CARD, context, status=400)
    messages.success(request, _bought(purchase))
    return redirect(unit)
