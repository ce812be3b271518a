"""Every number of every admin form an organiser reaches has the model's bounds (issue 18,
item 4): huge, just past the cap, 2**31, negative and not a number at all, each is an
error next to its field, with the page shown again and nothing stored.

The forms are found from the admin site's registry, add and change page of each model
and their inlines, so a form added later is walked without anyone listing it here.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.validators import MaxValueValidator, MinValueValidator
from django.test import RequestFactory
from django.urls import reverse

from campaign.models import MOST_SUPPLY, CrusadeForce, Territory
from tests.factories import make_force, make_unit, reload

from .helpers import form_data, saved

pytestmark = pytest.mark.django_db

HUGE = 10**30
PAST_INTEGER_COLUMN = 2**31
"""One past PostgreSQL's integer column."""
NUMBER_FIELDS = (forms.IntegerField, forms.DecimalField, forms.FloatField)
REASON = "Checking the bounds"


@dataclass(frozen=True)
class NumberField:
    """One number control of an admin page: where it is and what it must refuse."""

    url: str
    html_name: str
    name: str
    least: int | None
    most: int | None

    def refused_values(self) -> list[str]:
        """Huge, one past the cap, past the column, one below the least, not a number (and
        -1, unless the number may be negative: a pack counter's value may)."""
        most = PAST_INTEGER_COLUMN - 1 if self.most is None else self.most
        least = 0 if self.least is None else self.least
        values = [HUGE, most + 1, PAST_INTEGER_COLUMN, least - 1, *([-1] if least >= 0 else [])]
        return [*dict.fromkeys(str(v) for v in values), "twelve"]


def _bound(validators, kind, pick):
    limits = [v.limit_value for v in validators if isinstance(v, kind)]
    return pick(limits) if limits else None


def _declared(form: forms.BaseForm, name: str) -> tuple[int | None, int | None]:
    """The bounds the model declares for the field (its validators), else the form's."""
    model = getattr(getattr(form, "_meta", None), "model", None)
    field = form.fields[name]
    validators = list(field.validators)
    own = {f.name: f for f in model._meta.get_fields()} if model is not None else {}
    if name in own:  # else a form field of its own, not the model's
        validators += own[name]._validators
    return _bound(validators, MinValueValidator, max), _bound(validators, MaxValueValidator, min)


def page_forms(response) -> list[forms.BaseForm]:
    """The admin form of the page and every form of its inlines."""
    found = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        found.extend(inline.formset.forms)
    return found


def admin_pages(organiser) -> list[str]:
    """The add page and a change page of each model registered in the admin, where the
    organiser may add or change (the registry's own list, not a hand-kept one)."""
    request = RequestFactory().get("/admin/")
    request.user = organiser
    urls = []
    for model, model_admin in admin.site._registry.items():
        info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        if model_admin.has_add_permission(request):
            urls.append(reverse(f"{info}_add"))
        changeable = (
            obj
            for obj in model_admin.get_queryset(request).order_by("pk")[:20]
            if model_admin.has_change_permission(request, obj)
        )
        obj = next(changeable, None)
        if obj is not None:
            urls.append(reverse(f"{info}_change", args=[obj.pk]))
    return urls


def number_fields(client, urls: list[str]) -> list[NumberField]:
    found = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        for form in page_forms(response):
            for bound in form:
                if isinstance(bound.field, NUMBER_FIELDS) and not bound.field.disabled:
                    least, most = _declared(form, bound.name)
                    found.append(NumberField(url, bound.html_name, bound.name, least, most))
    return found


def fingerprint() -> tuple:
    """Every row of every table of the app, and the users: equal means nothing changed."""
    tables = [*apps.get_app_config("campaign").get_models(), get_user_model()]
    return tuple(tuple(m._default_manager.order_by("pk").values_list()) for m in tables)


def field_errors(response, html_name: str) -> list[str]:
    for form in page_forms(response):
        for bound in form:
            if bound.html_name == html_name:
                return list(bound.errors)
    raise AssertionError(f"{html_name} is not on the page shown again")


@pytest.fixture
def world(organiser, campaign):
    """A campaign with a player's force and card, so each admin has a row to change."""
    force = make_force(campaign=campaign, name="Iron Wolves")
    make_unit(force, name="Squad Helix", points=100)
    Territory.objects.create(campaign=campaign, key="hive", name="Hive", column=0, row=0)
    return force


@pytest.fixture
def walked(organiser_client, organiser, world) -> list[NumberField]:
    return number_fields(organiser_client, admin_pages(organiser))


def test_it_walks_every_number_the_issue_names(walked):
    """The walk reaches the campaign's, the force's and the card's numbers, on their add
    and change pages (a check that the registry walk finds the forms at all)."""
    names = {field.name for field in walked}
    assert {"starting_supply_limit", "rp_cap", "supply_limit_increase"} <= names
    assert {"supply_limit", "battle_tally", "xp", "model_count", "enhancement_points"} <= names
    assert {"battles_played", "units_destroyed", "points", "max_model_count"} <= names
    assert {"column", "row", "control_threshold"} <= names
    assert len({field.url for field in walked}) >= 5


def test_it_refuses_every_out_of_range_number_in_every_admin_form(organiser_client, walked):
    """Each number alone out of range in a form otherwise sent as shown: a 200 with the
    error next to that field, and not one row changed."""
    failures = []
    for field in walked:
        data = form_data(organiser_client.get(field.url))
        if "reason" in data:
            data["reason"] = REASON
        for value in field.refused_values():
            before = fingerprint()
            response = organiser_client.post(field.url, {**data, field.html_name: value})
            where = f"{field.url} {field.html_name}={value}"
            if response.status_code != 200:
                failures.append(f"{where}: {response.status_code}")
            elif not field_errors(response, field.html_name):
                failures.append(f"{where}: no error next to the field")
            if fingerprint() != before:
                failures.append(f"{where}: something was stored")
    assert not failures, "\n".join(failures)


def test_it_tells_the_browser_each_numbers_bounds(organiser_client, walked):
    """Each number's control carries its least and most value (min and max)."""
    missing = []
    for field in walked:
        response = organiser_client.get(field.url)
        widget = next(
            bound.field.widget.attrs
            for form in page_forms(response)
            for bound in form
            if bound.html_name == field.html_name
        )
        if "min" not in widget or "max" not in widget:
            missing.append(f"{field.url} {field.html_name}")
    assert not missing, missing


def test_it_still_takes_the_cap_itself(organiser_client, world):
    """The most a Supply Limit can be is a correction like any other."""
    url = reverse("admin:campaign_crusadeforce_change", args=[world.pk])
    data = form_data(organiser_client.get(url))

    response = organiser_client.post(
        url, {**data, "supply_limit": str(MOST_SUPPLY), "reason": REASON}
    )

    saved(response, "force_corrected")
    assert reload(world).supply_limit == MOST_SUPPLY
    assert CrusadeForce.objects.filter(supply_limit__gt=MOST_SUPPLY).count() == 0


def list_parameters(model_admin) -> list[str]:
    """What a changelist reads from its query: each filter's parameter, a page, an order
    and a search."""
    names = ["p", "o", "q"]
    for entry in model_admin.list_filter:
        if isinstance(entry, type) and issubclass(entry, admin.SimpleListFilter):
            names.append(entry.parameter_name)
        elif isinstance(entry, str):
            names.append(f"{entry}__exact")
    return names


def test_it_answers_an_out_of_range_list_filter_without_a_server_error(organiser_client, world):
    """A list's filters take numbers from the address (a campaign's id): 10**30, 2**63
    and text were a 500 on the lists filtered by campaign."""
    failures = []
    for model, model_admin in admin.site._registry.items():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for name in list_parameters(model_admin):
            for value in [str(HUGE), str(2**63), str(PAST_INTEGER_COLUMN), "-1", "twelve"]:
                response = organiser_client.get(url, {name: value})
                if response.status_code >= 500:
                    failures.append(f"{url}?{name}={value}: {response.status_code}")
    assert not failures, "\n".join(failures)


def test_it_lists_only_the_campaign_a_filter_names(organiser_client, world, rival_campaign):
    """The filter takes only the campaigns it offers: another organiser's campaign, like
    a number no campaign has, lists nothing."""
    rival = make_force(campaign=rival_campaign, name="Blood Axes")
    url = reverse("admin:campaign_crusadeforce_changelist")

    mine = organiser_client.get(url, {"campaign": world.campaign_id})
    theirs = organiser_client.get(url, {"campaign": rival.campaign_id})

    assert list(mine.context["cl"].result_list) == [world]
    assert list(theirs.context["cl"].result_list) == []


def test_it_refuses_an_action_on_rows_no_id_can_name(organiser_client, organiser, world):
    """Each action of each admin (void, remove, retire), asked for and applied, on a row
    ticked as 10**30, 2**63 or text: the list again with a message, and nothing changed
    (it was a 500)."""
    request = RequestFactory().get("/admin/")
    request.user = organiser
    failures, walked = [], 0
    for model, model_admin in admin.site._registry.items():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        actions = (
            model_admin.get_actions(request) if model_admin.has_view_permission(request) else {}
        )
        for action in actions:
            for ticked in [str(HUGE), str(2**63), "twelve"]:
                for step in [{}, {"apply": "yes", "reason": REASON}]:
                    before = fingerprint()
                    data = {"action": action, "_selected_action": [ticked], **step}
                    response = organiser_client.post(url, data)
                    walked += 1
                    if response.status_code != 302 or fingerprint() != before:
                        failures.append(f"{url} {action} {ticked}: {response.status_code}")
    assert walked >= 18
    assert not failures, "\n".join(failures)
