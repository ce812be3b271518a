"""Crusade cards: add, the card page, edit, picture, remove, unit requisitions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from campaign import rules, selectors, services
from campaign.access import get_force_for_user, get_unit_for_user
from campaign.forms import add_service_errors
from campaign.forms.forces import (
    FreshRecruitsForm,
    LegendaryVeteransForm,
    PictureForm,
    RearmAndResupplyForm,
    RemoveUnitForm,
    RenownedHeroesForm,
    RepairAndRecuperateForm,
    UnitCreateForm,
    UnitEditForm,
)
from campaign.models import BattleHonour, CrusadeForce, OutOfActionTest, Unit

Req = rules.Requisition


def _posted(request: HttpRequest):
    """The submitted data on POST (even when empty, so the form is bound), else None."""
    return request.POST if request.method == "POST" else None


@require_http_methods(["GET", "POST"])
@login_required
def unit_create(request: HttpRequest, pk: int) -> HttpResponse:
    force = get_force_for_user(request.user, pk, write=True)
    supply_url = reverse("unit_supply_check", args=[force.pk])
    form = UnitCreateForm(
        _posted(request),
        initial={"faction_keywords": force.faction},
        supply_check_url=supply_url,
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
    force = CrusadeForce.objects.with_supply_used().get(pk=force.pk)
    return render(
        request,
        "units/create.html",
        {"force": force, "form": form, "supply": _supply_status(force, None)},
    )


@dataclass(frozen=True)
class SupplyStatus:
    fits: bool
    message: str


def _supply_status(force, points: int | None, *, counts: bool = True) -> SupplyStatus | None:
    """R1.3 as the player types: would these points fit in the Supply Limit?"""
    if points is None:
        return None
    used, limit = force.supply_used, force.supply_limit
    if not counts:
        return SupplyStatus(
            True, f"Fits: this unit is left out of Supply Used ({used} of {limit})."
        )
    refusal = rules.supply_refusal(supply_used=used, supply_limit=limit, extra_points=points)
    after = used + points
    if refusal:
        return SupplyStatus(
            False, f"Too many: {after - limit} over your {limit}-point Supply Limit. {refusal}"
        )
    return SupplyStatus(True, f"Fits: {after} of {limit} used after adding.")


@require_safe
@login_required
def unit_supply_check(request: HttpRequest, pk: int) -> HttpResponse:
    force = get_force_for_user(
        request.user, pk, write=True, queryset=CrusadeForce.objects.with_supply_used()
    )
    try:
        points = int(request.GET.get("points", ""))
    except ValueError:
        points = None
    if points is not None and points < 0:
        points = None
    status = _supply_status(force, points, counts="does_not_count" not in request.GET)
    return render(request, "units/create.html#supply-status", {"force": force, "supply": status})


def _xp_progress(unit: Unit) -> dict | None:
    """How far the unit is towards its next rank (R3.5, R3.6), or None for no-XP units."""
    if unit.no_xp:
        return None
    rank = unit.rank
    cap = rules.xp_cap(is_character=unit.is_character, legendary_veteran=unit.legendary_veteran)
    next_rank = rules.Rank(rank + 1) if rank < rules.Rank.LEGENDARY else None
    if next_rank is None:
        return {"percent": 100, "text": "Legendary: the highest rank.", "full": False}
    if cap is not None and next_rank.min_xp > cap:
        return {
            "percent": 100,
            "text": f"Capped at {cap}XP: only CHARACTERS and Legendary Veterans rank higher.",
            "full": True,
        }
    span = next_rank.min_xp - rank.min_xp
    done = unit.xp - rank.min_xp
    return {
        "percent": min(100, round(100 * done / span)),
        "text": f"{next_rank.min_xp - unit.xp}XP to {next_rank.label} ({next_rank.min_xp}XP).",
        "full": False,
    }


def _honour_rows(unit: Unit) -> list[dict]:
    rows = []
    for honour in unit.active_honours():
        mods = [
            (name, rules.WEAPON_MODIFICATION_EFFECTS.get(name, ""))
            for name in (honour.modifications or [])
        ]
        relic = (
            rules.RelicCategory(honour.relic_category).label
            if honour.category == BattleHonour.Category.CRUSADE_RELIC and honour.relic_category
            else ""
        )
        rows.append({"honour": honour, "modifications": mods, "relic_category": relic})
    return rows


def unit_page_context(request: HttpRequest, unit: Unit, *, picture_form=None) -> dict:
    force = unit.force
    options = services.requisition_options(force, unit=unit)
    return {
        "unit": unit,
        "force": force,
        "is_owner": force.player_id == request.user.pk,
        "xp_progress": _xp_progress(unit),
        "honour_rows": _honour_rows(unit),
        "scars": unit.active_scars(),
        "pending_promotions": unit.pending_promotions(),
        "pending_tests": list(
            unit.out_of_action_tests.filter(
                status__in=[OutOfActionTest.Status.PENDING, OutOfActionTest.Status.AWAITING_CHOICE]
            )
        ),
        "purchases": list(unit.requisitions.all()),
        "requisition_options": options,
        "timeline": selectors.unit_timeline(unit),
        "picture_form": picture_form or PictureForm(),
    }


def _card_unit(request: HttpRequest, pk: int, *, write: bool = False) -> Unit:
    return get_unit_for_user(
        request.user, pk, write=write, queryset=Unit.objects.with_card_details()
    )


@require_safe
@login_required
def unit_detail(request: HttpRequest, pk: int) -> HttpResponse:
    unit = _card_unit(request, pk)
    return render(request, "units/detail.html", unit_page_context(request, unit))


@require_http_methods(["GET", "POST"])
@login_required
def unit_edit(request: HttpRequest, pk: int) -> HttpResponse:
    unit = get_unit_for_user(request.user, pk, write=True)
    if not unit.is_active:
        messages.error(request, f"{unit.name} has been removed and can no longer change.")
        return redirect(unit)
    initial = {name: getattr(unit, name) for name in UnitEditForm.base_fields}
    form = UnitEditForm(_posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        changed = {k: v for k, v in form.cleaned_data.items() if k in form.changed_data}
        try:
            unit = services.update_unit_details(actor=request.user, unit=unit, **changed)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Saved." if changed else "Nothing to change.")
            return redirect(unit)
    return render(request, "units/edit.html", {"unit": unit, "form": form})


@require_POST
@login_required
def unit_picture(request: HttpRequest, pk: int) -> HttpResponse:
    unit = _card_unit(request, pk, write=True)
    form = PictureForm(request.POST, request.FILES)
    if form.is_valid():
        picture, thumbnail = form.processed
        try:
            services.set_unit_picture(
                actor=request.user, unit=unit, picture=picture, thumbnail=thumbnail
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"New picture saved for {unit.name}.")
            return redirect(unit)
    context = unit_page_context(request, unit, picture_form=form)
    return render(request, "units/detail.html", context, status=400)


@require_http_methods(["GET", "POST"])
@login_required
def unit_remove(request: HttpRequest, pk: int) -> HttpResponse:
    unit = _card_unit(request, pk, write=True)
    if not unit.is_active:
        messages.info(request, f"{unit.name} has already been removed.")
        return redirect(unit)
    form = RemoveUnitForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            services.remove_unit(actor=request.user, unit=unit, reason=form.cleaned_data["reason"])
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"{unit.name} has been removed from the Order of Battle.")
            return redirect(unit.force)
    return render(request, "units/remove.html", {"unit": unit, "form": form})


@dataclass(frozen=True)
class UnitRequisition:
    form_class: type
    form_kwargs: Callable[[Unit], dict]
    buy: Callable[..., object]
    what: str


def _honoured_weapons(unit: Unit) -> list[str]:
    weapons = []
    for honour in unit.active_honours():
        if honour.weapon and honour.weapon not in weapons:
            weapons.append(honour.weapon)
    return weapons


UNIT_REQUISITIONS: dict[str, UnitRequisition] = {
    Req.RENOWNED_HEROES: UnitRequisition(
        RenownedHeroesForm,
        lambda unit: {},
        lambda actor, unit, form: services.renowned_heroes(
            actor=actor, unit=unit, **form.cleaned_data
        ),
        "Give this CHARACTER an Enhancement. If it has a promotion waiting, this settles it "
        "instead of a Battle Honour. Its points go up by the Enhancement's points.",
    ),
    Req.LEGENDARY_VETERANS: UnitRequisition(
        LegendaryVeteransForm,
        lambda unit: {},
        lambda actor, unit, form: services.legendary_veterans(actor=actor, unit=unit),
        "Lifts the 30XP cap: the unit can rank up to Heroic and Legendary and hold "
        "up to 6 Battle Honours.",
    ),
    Req.REARM_AND_RESUPPLY: UnitRequisition(
        RearmAndResupplyForm,
        lambda unit: {"honoured_weapons": _honoured_weapons(unit)},
        lambda actor, unit, form: services.rearm_and_resupply(
            actor=actor,
            unit=unit,
            wargear=form.cleaned_data["wargear"],
            points=form.cleaned_data["points"],
            replaced_weapons=form.weapons(),
        ),
        "Change the unit's wargear. Weapons you replace lose their Weapon Modifications "
        "and Crusade Relics.",
    ),
    Req.REPAIR_AND_RECUPERATE: UnitRequisition(
        RepairAndRecuperateForm,
        lambda unit: {"scars": unit.active_scars()},
        lambda actor, unit, form: services.repair_and_recuperate(
            actor=actor, unit=unit, scar=form.cleaned_data["scar"]
        ),
        "Remove one Battle Scar; the unit gets its Crusade point back.",
    ),
    Req.FRESH_RECRUITS: UnitRequisition(
        FreshRecruitsForm,
        lambda unit: {},
        lambda actor, unit, form: services.fresh_recruits(
            actor=actor, unit=unit, **form.cleaned_data
        ),
        "Add models to the unit, up to its datasheet maximum, and pay their points.",
    ),
}


def _initial(requisition: str, unit: Unit) -> dict:
    if requisition == Req.REARM_AND_RESUPPLY:
        return {"wargear": unit.wargear, "points": unit.points}
    if requisition == Req.FRESH_RECRUITS:
        return {"points": unit.points, "models_description": unit.models_description}
    return {}


@require_http_methods(["GET", "POST"])
@login_required
def unit_requisition(request: HttpRequest, pk: int, requisition: str) -> HttpResponse:
    spec = UNIT_REQUISITIONS.get(requisition)
    if spec is None:
        raise Http404("No such unit requisition.")
    unit = _card_unit(request, pk, write=True)
    req = Req(requisition)
    form = spec.form_class(
        _posted(request), initial=_initial(requisition, unit), **spec.form_kwargs(unit)
    )
    if request.method == "POST" and form.is_valid():
        try:
            purchase = spec.buy(request.user, unit, form)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Bought {req.label} for {purchase.cost}RP.")
            if request.htmx:
                return HttpResponseClientRedirect(unit.get_absolute_url())
            return redirect(unit)
    option = next(
        o for o in services.requisition_options(unit.force, unit=unit) if o.requisition == req
    )
    context = {"unit": unit, "force": unit.force, "option": option, "form": form, "what": spec.what}
    status = 400 if form.is_bound else 200
    return render(request, "units/requisition.html", context, status=status)
