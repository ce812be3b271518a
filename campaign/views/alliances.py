"""A player's force picks the alliance it fights for (once; then only an organiser
changes it, in the admin)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from campaign import services
from campaign.access import get_force_for_user
from campaign.forms.alliances import ChooseAllianceForm
from campaign.selectors.alliances import choosable_alliances

from ._common import render_page
from .forces import DETAIL, _detail_context

REGION = "alliances/_choose.html"


@require_POST
@login_required
def force_alliance(request: HttpRequest, pk: int) -> HttpResponse:
    """Fight for one of the campaign's alliances; for htmx, the alliance region again."""
    force, can_write = get_force_for_user(request.user, pk, write=True)
    alliances = choosable_alliances(force.campaign_id)
    form = ChooseAllianceForm(request.POST, alliances=alliances)
    if form.is_valid():
        try:
            force = services.choose_alliance(
                actor=request.user, force=force, alliance=form.cleaned_data["alliance"]
            )
        except ValidationError as error:
            refusal = " ".join(error.messages)
        else:
            notice = f"{force.name} fights for {force.alliance.name}."
            if request.htmx:
                return render_page(request, REGION, {"force": force, "notice": notice})
            messages.success(request, notice)
            return redirect(force)
    else:
        refusal = " ".join(form.errors.get("alliance", form.non_field_errors()))
    if request.htmx:
        context = {"force": force, "alliances": list(alliances), "alliance_error": refusal}
        return render_page(request, REGION, context, status=400)
    context = _detail_context(force, can_write, alliance_error=refusal)
    return render_page(request, DETAIL, context, status=400)
