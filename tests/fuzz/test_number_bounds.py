"""Every number of every player form has the model's bounds (issue 18, item 4): the page
tells the browser the least and most value, and huge, one past the most, 2**31, one
below the least and not a number at all are each an error next to the field, with the
form shown again and nothing changed (`Visitor.post` compares the state's fingerprint).

The forms are the fuzz's own catalogue: every form of every page the owner reaches,
found as a player finds them, so a number added to any form later is walked too.
"""

from __future__ import annotations

import pytest

from .catalogue import Catalogue
from .pages import Control, PostForm
from .test_every_form import URL_NAMES
from .values import HUGE, shape
from .visits import Visitor, shows_errors

pytestmark = pytest.mark.django_db

PAST_INTEGER_COLUMN = 2**31


def numbers(form: PostForm) -> list[Control]:
    """One number control of each shape (`kills_#` once, not once per unit)."""
    found: dict[str, Control] = {}
    for name, control in sorted(form.controls.items()):
        if control.kind == "number":
            found.setdefault(shape(name), control)
    return list(found.values())


def refused(control: Control) -> list[str]:
    values = [HUGE, str(PAST_INTEGER_COLUMN), "twelve"]
    if control.most:
        values.append(str(int(control.most) + 1))
    if control.least:
        values.append(str(int(control.least) - 1))
    return list(dict.fromkeys(values))


def walk(catalogue: Catalogue, owner: Visitor, name: str) -> list[str]:
    """What went wrong posting each number of the forms posting to ``name`` out of range."""
    failures = []
    for form in catalogue.targets(name, "owner"):
        pressed = dict([(form.buttons[0][0], [form.buttons[0][1]])] if form.buttons else [])
        for control in numbers(form):
            where = f"{form.action} {control.name}"
            if not (control.least and control.most):
                failures.append(f"{where}: no min or max on the page")
            for value in refused(control):
                with owner.example():
                    data = {**form.filled, control.name: [value], **pressed}
                    response = owner.post(form.action, data, catalogue.good_files(form))
                if response.status_code not in (200, 400) or not shows_errors(response):
                    failures.append(f"{where}={value}: {response.status_code}, no error shown")
    return failures


def test_it_finds_the_numbers_of_the_player_forms(catalogue):
    """The walk reaches the numbers of a new card, of the Requisitions, of a new
    campaign's house rules and of a side's record (a check that it finds them at all)."""
    found = {
        (name, shape(control.name))
        for name in URL_NAMES
        for form in catalogue.targets(name, "owner")
        for control in numbers(form)
    }
    names = {control for _, control in found}
    assert {"points", "model_count", "enhancement_points", "models_added"} <= names
    assert {"starting_supply_limit", "rp_cap", "kills_#", "bonus_#", "roll"} <= names


@pytest.mark.parametrize("name", URL_NAMES)
def test_it_refuses_a_number_out_of_its_bounds_in_any_player_form(catalogue, visitors, name):
    failures = walk(catalogue, visitors["owner"], name)
    assert not failures, "\n".join(failures)
