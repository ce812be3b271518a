"""Battles at the gaming table: start, muster, record the end, Out of Action, promotions.

Thin views: objects come through `campaign.access`, input through the forms in
`campaign.forms.battles`, and every change through `campaign.services`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaign import rules, services
from campaign.access import (
    get_battle_for_user,
    get_out_of_action_test_for_user,
    get_participant_for_user,
    get_promotion_for_user,
)
from campaign.forms import add_service_errors
from campaign.forms.battles import (
    BattleCreateForm,
    BattleRecordForm,
    BattleScarForm,
    BattleTraitForm,
    CrusadeRelicForm,
    DevastatingBlowForm,
    MusterForm,
    RenownedHeroesForm,
    RollForm,
    WeaponModificationForm,
)
from campaign.models import (
    Battle,
    BattleParticipant,
    BattleUnit,
    CustomContent,
    OutOfActionTest,
    Promotion,
    Unit,
    card_prefetches,
)

PENDING_TESTS = (OutOfActionTest.Status.PENDING, OutOfActionTest.Status.AWAITING_CHOICE)


# Start a battle ------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def battle_create(request: HttpRequest) -> HttpResponse:
    form = BattleCreateForm(request.POST or None, user=request.user)
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
            return redirect("battle_detail", pk=battle.pk)
    return render(request, "battles/battle_create.html", {"form": form})


# The battle page -----------------------------------------------------------------------


def _army_queryset():
    return BattleUnit.objects.select_related(
        "unit", "attached_to__unit", "embarked_in__unit", "out_of_action"
    ).order_by("pk")


def _test_of(entry: BattleUnit) -> OutOfActionTest | None:
    test = getattr(entry, "out_of_action", None)
    if test is not None:
        test.unit = entry.unit  # already loaded with the army
    return test


@require_http_methods(["GET", "HEAD"])
@login_required
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_battle_for_user(request.user, pk)
    participants = list(
        battle.participants.select_related("force", "force__player", "warlord")
        .prefetch_related(Prefetch("army", queryset=_army_queryset()))
        .order_by("pk")
    )
    user_pk = request.user.pk
    sides = []
    for participant in participants:
        entries = list(participant.army.all())
        mine = participant.force.player_id == user_pk
        sides.append(
            {
                "participant": participant,
                "entries": [{"entry": e, "test": _test_of(e)} for e in entries],
                "points": sum(e.unit.points for e in entries),
                "mine": mine,
                "pending_tests": [
                    t
                    for t in (_test_of(e) for e in entries)
                    if mine and t is not None and t.status in PENDING_TESTS
                ],
            }
        )
    in_progress = battle.status == Battle.Status.IN_PROGRESS
    plays_in_it = any(side["mine"] for side in sides)
    promotions = []
    if battle.status == Battle.Status.COMPLETED:
        promotions = list(
            Promotion.objects.filter(
                battle=battle, status=Promotion.Status.PENDING, unit__force__player=request.user
            )
            .select_related("unit")
            .order_by("unit__name", "rank")
        )
    context = {
        "battle": battle,
        "sides": sides,
        "in_progress": in_progress,
        "all_mustered": bool(participants) and all(p.mustered for p in participants),
        "plays_in_it": plays_in_it,
        "pending_promotions": promotions,
        "pending_tests": [t for side in sides for t in side["pending_tests"]],
    }
    return render(request, "battles/battle_detail.html", context)


# Muster an army (R8) -------------------------------------------------------------------


def _pending_links(units: list[Unit]) -> dict[int, tuple[str, str]]:
    """Units with something to settle first, and a link to settle it (R3.7 decision)."""
    pks = [u.pk for u in units]
    links: dict[int, tuple[str, str]] = {}
    for test in OutOfActionTest.objects.filter(unit__in=pks, status__in=PENDING_TESTS):
        links[test.unit_id] = (
            "Out of Action test to take",
            reverse("out_of_action", args=[test.pk]),
        )
    for promotion in Promotion.objects.filter(unit__in=pks, status=Promotion.Status.PENDING):
        links.setdefault(
            promotion.unit_id,
            ("Promotion to settle", reverse("promotion_settle", args=[promotion.pk])),
        )
    return links


def _muster_initial(participant: BattleParticipant) -> dict:
    initial: dict = {
        "faction": participant.faction or participant.force.faction,
        "detachment": participant.detachment,
    }
    if participant.mustered:
        army = list(participant.army.select_related("attached_to", "embarked_in"))
        initial["units"] = [e.unit_id for e in army]
        initial["warlord"] = participant.warlord_id
        for entry in army:
            if entry.attached_to_id:
                initial[f"attach_{entry.unit_id}"] = entry.attached_to.unit_id
            if entry.embarked_in_id:
                initial[f"embark_{entry.unit_id}"] = entry.embarked_in.unit_id
    return initial


def _muster_context(
    participant: BattleParticipant,
    form: MusterForm,
    units: list[Unit],
    report: rules.MusterReport | None,
) -> dict:
    pending = _pending_links(units)
    if form.is_bound:
        selected = {int(v) for v in form.data.getlist("units") if str(v).isdigit()}
    else:
        selected = set(form.initial.get("units", []))
    rows = [
        {
            "unit": unit,
            "checked": unit.pk in selected,
            "pending": pending.get(unit.pk),
            "attach": form[form.attach_fields[unit.pk]] if unit.pk in form.attach_fields else None,
            "embark": form[form.embark_fields[unit.pk]] if unit.pk in form.embark_fields else None,
        }
        for unit in units
    ]
    limit = participant.battle.points_limit
    points = (
        report.points if report is not None else sum(u.points for u in units if u.pk in selected)
    )
    return {
        "participant": participant,
        "battle": participant.battle,
        "form": form,
        "rows": rows,
        "report": report,
        "points": points,
        "limit": limit,
        "percent": min(100, round(100 * points / limit)) if limit else 100,
    }


def _participant_units(participant: BattleParticipant) -> list[Unit]:
    return list(participant.force.units.active().order_by("-is_character", "name"))


@require_http_methods(["GET", "POST"])
@login_required
def army_muster(request: HttpRequest, pk: int) -> HttpResponse:
    participant = get_participant_for_user(request.user, pk, write=True)
    if participant.battle.status != Battle.Status.IN_PROGRESS:
        messages.error(request, "This battle is over; its armies can no longer change.")
        return redirect("battle_detail", pk=participant.battle_id)
    units = _participant_units(participant)
    report = None
    if request.method == "POST":
        form = MusterForm(request.POST, participant=participant, units=units)
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
                messages.success(
                    request,
                    f"{participant.force.name} is mustered: {report.points} of "
                    f"{report.limit} points.",
                )
                for warning in report.warnings:
                    messages.warning(request, warning)
                return redirect("battle_detail", pk=participant.battle_id)
    else:
        form = MusterForm(
            initial=_muster_initial(participant), participant=participant, units=units
        )
    return render(
        request, "battles/army_muster.html", _muster_context(participant, form, units, report)
    )


@require_POST
@login_required
def army_muster_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The live R8 check: reads the muster form, changes nothing, returns the summary."""
    participant = get_participant_for_user(request.user, pk, write=True)
    units = _participant_units(participant)
    form = MusterForm(request.POST, participant=participant, units=units)
    form.is_valid()
    report = services.check_army(participant=participant, **form.army())
    return render(
        request,
        "battles/army_muster.html#summary",
        _muster_context(participant, form, units, report),
    )


# Record the end (R9) -------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def battle_record(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_battle_for_user(request.user, pk, write=True)
    if battle.status != Battle.Status.IN_PROGRESS:
        messages.info(request, "This battle has already been recorded.")
        return redirect("battle_detail", pk=battle.pk)
    participants = list(
        battle.participants.select_related("force")
        .prefetch_related(
            Prefetch(
                "army",
                queryset=BattleUnit.objects.select_related("unit")
                .prefetch_related(*card_prefetches("unit__"))
                .order_by("pk"),
            )
        )
        .order_by("pk")
    )
    waiting = [p.force.name for p in participants if not p.mustered]
    if waiting:
        messages.warning(request, f"Waiting for {', '.join(waiting)} to muster an army.")
        return redirect("battle_detail", pk=battle.pk)
    form = BattleRecordForm(request.POST or None, participants=participants)
    editing = "edit" in request.POST
    if request.method == "POST" and not editing and form.is_valid():
        args = {"results": form.results(), "outcomes": form.outcomes()}
        try:
            if "confirm" in request.POST:
                services.record_battle_end(actor=request.user, battle=battle, **args)
                messages.success(
                    request, "Battle recorded. Take any Out of Action tests and promotions below."
                )
                return redirect("battle_detail", pk=battle.pk)
            plan = services.preview_battle_end(battle, **args)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            return render(
                request,
                "battles/battle_record_preview.html",
                {"battle": battle, "form": form, "plan": plan},
            )
    return render(request, "battles/battle_record.html", {"battle": battle, "form": form})


# Out of Action (R5) --------------------------------------------------------------------


def _roll_message(test: OutOfActionTest) -> str:
    who = "The app rolled" if test.rolled_by_app else "You rolled"
    if test.outcome == OutOfActionTest.Outcome.PASSED:
        return f"Passed on a {test.roll}. {who} {test.roll}: {test.unit.name} is fine."
    if test.outcome == OutOfActionTest.Outcome.REMOVED:
        return (
            f"Failed on a {test.roll}. With 3 Battle Scars and no Battle Honours left, "
            f"{test.unit.name} is removed from the Order of Battle."
        )
    return f"Failed on a {test.roll}. {who} {test.roll}: choose what happens to {test.unit.name}."


@require_http_methods(["GET", "POST"])
@login_required
def out_of_action(request: HttpRequest, pk: int) -> HttpResponse:
    test = get_out_of_action_test_for_user(request.user, pk, write=request.method == "POST")
    unit = Unit.objects.with_card_details().select_related("force__campaign").get(pk=test.unit_id)
    test.unit = unit
    honours = unit.active_honours()
    scars = unit.active_scars()
    custom_scars = (
        list(
            CustomContent.objects.filter(
                campaign_id=unit.force.campaign_id, kind=CustomContent.Kind.BATTLE_SCAR
            )
        )
        if unit.force.campaign_id
        else []
    )
    roll_form = RollForm()
    blow_form = DevastatingBlowForm(honours=honours)
    scar_form = BattleScarForm(held={s.name for s in scars}, custom=custom_scars)
    if request.method == "POST":
        action = request.POST.get("action", "")
        choice = request.POST.get("choice", "")
        if action in ("roll_for_me", "enter_roll"):
            roll = None
            if action == "enter_roll":
                roll_form = RollForm(request.POST)
                if roll_form.is_valid():
                    roll = roll_form.cleaned_data["roll"]
            if action == "roll_for_me" or roll is not None:
                try:
                    test = services.take_out_of_action_test(
                        actor=request.user, test=test, roll=roll
                    )
                except ValidationError as error:
                    messages.error(request, " ".join(error.messages))
                else:
                    level = messages.SUCCESS if test.outcome == "passed" else messages.WARNING
                    messages.add_message(request, level, _roll_message(test))
                return redirect("out_of_action", pk=test.pk)
        elif choice in (rules.OutOfAction.DEVASTATING_BLOW, rules.OutOfAction.BATTLE_SCAR):
            if test.status != OutOfActionTest.Status.AWAITING_CHOICE:
                messages.error(request, "This Out of Action test is not waiting for a choice.")
                return redirect("out_of_action", pk=test.pk)
            refusal = rules.out_of_action_refusal(
                choice, battle_honours=len(honours), battle_scars=len(scars)
            )
            if refusal:
                messages.error(request, refusal)
                return redirect("out_of_action", pk=test.pk)
            is_blow = choice == rules.OutOfAction.DEVASTATING_BLOW
            if is_blow:
                form = blow_form = DevastatingBlowForm(request.POST, honours=honours)
            else:
                form = scar_form = BattleScarForm(
                    request.POST, held={s.name for s in scars}, custom=custom_scars
                )
            if form.is_valid():
                kwargs = (
                    {"honour": form.cleaned_data["honour"]} if is_blow else form.service_kwargs()
                )
                try:
                    test = services.resolve_out_of_action(
                        actor=request.user, test=test, choice=choice, **kwargs
                    )
                except ValidationError as error:
                    add_service_errors(form, error)
                else:
                    if is_blow:
                        text = f"Devastating Blow: {unit.name} lost {test.honour_lost.name}."
                    else:
                        text = f"Gained Battle Scar: {test.scar_gained.name}"
                    messages.warning(request, text)
                    return redirect("out_of_action", pk=test.pk)
        else:
            messages.error(request, "Choose what to do: roll, or pick an outcome.")
            return redirect("out_of_action", pk=test.pk)
    awaiting = test.status == OutOfActionTest.Status.AWAITING_CHOICE
    choices = services.out_of_action_choices(test, unit=unit) if awaiting else frozenset()
    context = {
        "test": test,
        "unit": unit,
        "battle": test.battle_unit.participant.battle,
        "honours": honours,
        "scars": scars,
        "can_write": unit.force.player_id == request.user.pk,
        "roll_form": roll_form,
        "blow_form": blow_form,
        "scar_form": scar_form,
        "can_blow": rules.OutOfAction.DEVASTATING_BLOW in choices,
        "can_scar": rules.OutOfAction.BATTLE_SCAR in choices,
        "scar_only": choices == frozenset({rules.OutOfAction.BATTLE_SCAR}),
        "blow_only": choices == frozenset({rules.OutOfAction.DEVASTATING_BLOW}),
    }
    return render(request, "out_of_action/out_of_action.html", context)


# Promotions (R3.7, R4, R6.2) -----------------------------------------------------------


def _relic_choices(unit: Unit, facts: rules.UnitFacts, custom: list[CustomContent]):
    if not unit.is_character:
        return []
    taken = services.relics_in_force(unit)
    choices = [
        (name, f"{name} ({category.label})" + (f": {effect}" if effect else ""))
        for name, (category, effect) in rules.CRUSADE_RELICS.items()
        if facts.rank >= category.min_rank and name not in taken
    ]
    choices += [
        (f"custom-{c.pk}", f"{c.name} ({rules.RelicCategory(c.relic_category).label})")
        for c in custom
        if facts.rank >= rules.RelicCategory(c.relic_category).min_rank and c.name not in taken
    ]
    return choices


@require_http_methods(["GET", "POST"])
@login_required
def promotion_settle(request: HttpRequest, pk: int) -> HttpResponse:
    promotion = get_promotion_for_user(request.user, pk, write=request.method == "POST")
    unit = (
        Unit.objects.with_card_details()
        .select_related("force__campaign", "force__player")
        .get(pk=promotion.unit_id)
    )
    honours = unit.active_honours()
    facts = unit.facts(pending_promotions=0)
    campaign_id = unit.force.campaign_id
    custom = list(CustomContent.objects.filter(campaign_id=campaign_id)) if campaign_id else []
    custom_traits = [c for c in custom if c.kind == CustomContent.Kind.BATTLE_TRAIT]
    custom_relics = [c for c in custom if c.kind == CustomContent.Kind.CRUSADE_RELIC]
    honour_args = {"honours": honours, "at_cap": facts.at_honour_cap}
    category = request.POST.get("category", "") if request.method == "POST" else ""
    trait_data = request.POST if category in ("trait_roll", "trait_choose") else None
    trait_form = BattleTraitForm(
        trait_data,
        prefix="trait",
        initial={"table": unit.trait_table or "Infantry"},
        choices=services.battle_trait_choices(unit),
        custom=custom_traits,
        **honour_args,
    )
    weapon_form = WeaponModificationForm(
        request.POST if category == "weapon_modification" else None, prefix="weapon", **honour_args
    )
    relic_form = CrusadeRelicForm(
        request.POST if category == "crusade_relic" else None,
        prefix="relic",
        relics=_relic_choices(unit, facts, custom_relics),
        **honour_args,
    )
    heroes_form = RenownedHeroesForm(
        request.POST if category == "renowned_heroes" else None, prefix="heroes"
    )
    heroes = next(
        o
        for o in services.requisition_options(unit.force, unit=unit)
        if o.requisition is rules.Requisition.RENOWNED_HEROES
    )
    form = {
        "trait_roll": trait_form,
        "trait_choose": trait_form,
        "weapon_modification": weapon_form,
        "crusade_relic": relic_form,
        "renowned_heroes": heroes_form,
    }.get(category)
    if request.method == "POST" and form is None:
        messages.error(request, "Choose how to settle the promotion.")
        return redirect("promotion_settle", pk=promotion.pk)
    if form is not None and form.is_valid():
        try:
            text = _settle(request, promotion, unit, category, form, custom_relics)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, text)
            return redirect("unit_detail", pk=unit.pk)
    context = {
        "promotion": promotion,
        "unit": unit,
        "facts": facts,
        "honours": honours,
        "scars": unit.active_scars(),
        "can_write": unit.force.player_id == request.user.pk,
        "pending": promotion.status == Promotion.Status.PENDING,
        "trait_form": trait_form,
        "weapon_form": weapon_form,
        "relic_form": relic_form,
        "heroes_form": heroes_form,
        "heroes": heroes,
        "open": category,
    }
    return render(request, "promotions/promotion_settle.html", context)


def _settle(request, promotion, unit, category, form, custom_relics) -> str:
    actor = request.user
    if category == "renowned_heroes":
        data = form.cleaned_data
        services.renowned_heroes(
            actor=actor,
            unit=unit,
            enhancement=data["enhancement"],
            enhancement_points=data["enhancement_points"],
            promotion=promotion,
        )
        return (
            f"{unit.name} gained the Enhancement {data['enhancement'].strip()} (Renowned Heroes)."
        )
    if category in ("trait_roll", "trait_choose"):
        honour = services.settle_with_battle_trait(
            actor=actor,
            promotion=promotion,
            **form.service_kwargs(roll=category == "trait_roll"),
            **form.replace_kwarg(),
        )
    elif category == "weapon_modification":
        honour = services.settle_with_weapon_modification(
            actor=actor, promotion=promotion, **form.service_kwargs(), **form.replace_kwarg()
        )
    else:
        relic = form.cleaned_data["relic"]
        by_key = {f"custom-{c.pk}": c for c in custom_relics}
        honour = services.settle_with_crusade_relic(
            actor=actor,
            promotion=promotion,
            relic="" if relic in by_key else relic,
            custom=by_key.get(relic),
            weapon=form.cleaned_data.get("weapon") or "",
            **form.replace_kwarg(),
        )
    label = "Battle Trait" if honour.category == "custom" else honour.get_category_display()
    return f"{unit.name} gained {label}: {honour.name}"
