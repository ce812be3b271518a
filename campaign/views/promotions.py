"""Battle Honours: settling a promotion (or taking an Enhancement instead), and the
honour or scar a mission or Agenda gives outside a promotion."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from campaign import rules, selectors, services
from campaign.access import get_promotion_for_user, get_unit_for_user
from campaign.forms import add_service_errors
from campaign.forms.battles import (
    BATTLE_SCAR,
    CRUSADE_RELIC,
    RENOWNED_HEROES,
    TRAIT_CHOOSE,
    TRAIT_ROLL,
    WEAPON_MODIFICATION,
    MissionReasonForm,
    promotion_forms,
    reward_forms,
)

from ._common import posted_value, render_page

SETTLE_WITH_HONOUR = {
    TRAIT_ROLL: services.settle_with_battle_trait,
    TRAIT_CHOOSE: services.settle_with_battle_trait,
    WEAPON_MODIFICATION: services.settle_with_weapon_modification,
    CRUSADE_RELIC: services.settle_with_crusade_relic,
}


def _settle(request: HttpRequest, page: selectors.PromotionPage, category: str, form) -> str:
    """Settle the promotion with the reward ``category`` names; returns what happened."""
    unit = page.unit
    if category == RENOWNED_HEROES:
        kwargs = form.service_kwargs()
        services.renowned_heroes(actor=request.user, unit=unit, promotion=page.promotion, **kwargs)
        reward = rules.PromotionReward.RENOWNED_HEROES.label
        return f"{unit.name} gained the Enhancement {kwargs['enhancement'].strip()} ({reward})."
    kwargs = form.service_kwargs(roll=True) if category == TRAIT_ROLL else form.service_kwargs()
    honour = SETTLE_WITH_HONOUR[category](actor=request.user, promotion=page.promotion, **kwargs)
    return f"{unit.name} gained {rules.HonourCategory(honour.category).label}: {honour.name}"


def _give(request: HttpRequest, forms: dict, category: str, give, *, ready: bool = True):
    """Validate the form of the reward ``category`` names and give it with ``give(form)``:
    the redirect to the card when given, else None (the page shows the form's errors)."""
    form = forms.get(category)
    if form is not None and form.is_valid() and ready:
        try:
            unit, text = give(form)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, text)
            return redirect(unit)
    return None


def _honour_forms(forms: dict, category: str) -> dict:
    """The template's names for the honour forms, and which one to show open."""
    return {
        "trait_form": forms[TRAIT_ROLL],
        "weapon_form": forms[WEAPON_MODIFICATION],
        "relic_form": forms[CRUSADE_RELIC],
        "open": category,
    }


@require_http_methods(["GET", "POST"])
@login_required
def promotion_settle(request: HttpRequest, pk: int) -> HttpResponse:
    category = posted_value(request, "category")
    promotion, can_write = get_promotion_for_user(request.user, pk, write=request.method == "POST")
    page = selectors.promotion_page(promotion, can_write=can_write)
    forms = promotion_forms(page, request.POST, category=category)
    if request.method == "POST" and category not in forms:
        messages.error(request, "Choose how to settle the promotion.")
        return redirect("promotion_settle", pk=promotion.pk)
    given = _give(
        request, forms, category, lambda form: (page.unit, _settle(request, page, category, form))
    )
    context = {
        "page": page,
        "promotion": promotion,
        "unit": page.unit,
        "heroes_form": forms[RENOWNED_HEROES],
        **_honour_forms(forms, category),
    }
    return given or render_page(request, "promotions/promotion_settle.html", context)


def _reward(request: HttpRequest, unit, category: str, form, reason: str) -> str:
    """Give ``unit`` the mission's reward ``category`` names; returns what happened."""
    if category == BATTLE_SCAR:
        scar = services.inflict_battle_scar(
            actor=request.user, unit=unit, reason=reason, **form.service_kwargs()
        )
        return f"{unit.name} bears the Battle Scar {scar.name}."
    kwargs = form.service_kwargs(roll=True) if category == TRAIT_ROLL else form.service_kwargs()
    honour = SETTLE_WITH_HONOUR[category](actor=request.user, unit=unit, reason=reason, **kwargs)
    return f"{unit.name} gained {rules.HonourCategory(honour.category).label}: {honour.name}"


@require_http_methods(["GET", "POST"])
@login_required
def unit_reward(request: HttpRequest, pk: int) -> HttpResponse:
    """A Battle Honour or Battle Scar a mission or Agenda gives, with its reason."""
    category = posted_value(request, "category")
    unit, can_write = get_unit_for_user(request.user, pk, write=request.method == "POST")
    page = selectors.reward_page(unit, can_write=can_write)
    forms = reward_forms(page, request.POST, category=category)
    reason = MissionReasonForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and category not in forms:
        messages.error(request, "Choose the reward to record.")
        return redirect("unit_reward", pk=unit.pk)
    why = reason.is_valid()
    given = _give(
        request,
        forms,
        category,
        lambda form: (unit, _reward(request, unit, category, form, reason.cleaned_data["reason"])),
        ready=why,
    )
    context = {
        "page": page,
        "unit": unit,
        "reason_form": reason,
        "scar_form": forms[BATTLE_SCAR],
        **_honour_forms(forms, category),
    }
    status = 400 if category in forms and forms[category].is_bound else 200
    return given or render_page(request, "units/reward.html", context, status=status)
