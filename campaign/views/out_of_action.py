"""Out of Action tests: roll (or enter a roll), then choose what a failure costs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from campaign import rules, selectors, services
from campaign.access import get_out_of_action_test_for_user
from campaign.forms import add_service_errors
from campaign.forms.battles import RollForm, out_of_action_forms
from campaign.models import OutOfActionTest

from ._common import posted_value, render_page

ROLL_FOR_ME, ENTER_ROLL = "roll_for_me", "enter_roll"
Outcome = rules.OutOfAction


def roll_message(test: OutOfActionTest) -> tuple[int, str]:
    """What the roll did, as (message level, text)."""
    who = "The app rolled" if test.rolled_by_app else "You rolled"
    if test.outcome == Outcome.PASSED:
        text = f"Passed on a {test.roll}. {who} {test.roll}: {test.unit.name} is fine."
        return messages.SUCCESS, text
    if test.outcome == Outcome.REMOVED:
        return messages.WARNING, f"Failed on a {test.roll}. {rules.REMOVED_FOR_GOOD}"
    text = f"Failed on a {test.roll}. {who} {test.roll}: choose what happens to {test.unit.name}."
    return messages.WARNING, text


def outcome_message(test: OutOfActionTest) -> str:
    if test.outcome == Outcome.DEVASTATING_BLOW:
        return f"{Outcome.DEVASTATING_BLOW.label}: {test.unit.name} lost {test.honour_lost.name}."
    return f"Gained {Outcome.BATTLE_SCAR.label}: {test.scar_gained.name}"


@require_http_methods(["GET", "POST"])
@login_required
def out_of_action(request: HttpRequest, pk: int) -> HttpResponse:
    action, choice = posted_value(request, "action"), posted_value(request, "choice")
    test, can_write = get_out_of_action_test_for_user(
        request.user, pk, write=request.method == "POST"
    )
    page = selectors.out_of_action_page(test, can_write=can_write)
    roll_form = RollForm(request.POST if action == ENTER_ROLL else None)
    outcome_forms = out_of_action_forms(page, request.POST, choice=choice)
    if action in (ROLL_FOR_ME, ENTER_ROLL):
        if action == ROLL_FOR_ME or roll_form.is_valid():
            return _roll(request, test, roll_form.service_kwargs() if roll_form.is_bound else {})
    elif choice in outcome_forms:
        if refusal := page.refusal(choice):
            messages.error(request, refusal)
            return redirect("out_of_action", pk=test.pk)
        form = outcome_forms[choice]
        if form.is_valid():
            try:
                test = services.resolve_out_of_action(
                    actor=request.user, test=test, choice=choice, **form.service_kwargs()
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.warning(request, outcome_message(test))
                return redirect("out_of_action", pk=test.pk)
    elif request.method == "POST":
        messages.error(request, "Choose what to do: roll, or pick an outcome.")
        return redirect("out_of_action", pk=test.pk)
    context = {
        "page": page,
        "unit": page.unit,
        "roll_form": roll_form,
        "blow_form": outcome_forms[Outcome.DEVASTATING_BLOW],
        "scar_form": outcome_forms[Outcome.BATTLE_SCAR],
    }
    return render_page(request, "out_of_action/out_of_action.html", context)


def _roll(request: HttpRequest, test: OutOfActionTest, kwargs: dict) -> HttpResponse:
    try:
        test = services.take_out_of_action_test(actor=request.user, test=test, **kwargs)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.add_message(request, *roll_message(test))
    return redirect("out_of_action", pk=test.pk)
