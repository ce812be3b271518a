"""Every URL and every form, fuzzed as the owner, another member, an outsider and nobody.

Issue 12: huge, negative and non-numeric numbers, other players' ids, endless text and
unusual unicode never get a 5xx, and a refusal changes nothing (`Visitor.post` checks
both after every POST). Three passes over every URL the project names:

- the sweep: the owner, the only one past the access checks, posts every form with one
  control at a time set to an edge value, the others filled in as a player would;
- the fuzz (hypothesis): each example GETs one of the URL's pages, its path sometimes
  pointing at another player's object or an absurd primary key and its query strange,
  then POSTs one of the forms posting there with a few controls strange;
- nobody signed in: every page and every form once, sent to sign in.

The fuzz is derandomized (`derandomize=True`, no example database): the same examples on
every run and every machine, so a CI failure reproduces locally and nothing is written
into the repository. CRUSADE_FUZZ_EXAMPLES=200 runs more (and other) examples.
"""

from __future__ import annotations

import os

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.url_names import our_url_names

from .pages import PostForm
from .values import one_strange_control, paths, queries, strange_paths, submission
from .visits import EXCLUDED, Visitor
from .world import World

pytestmark = pytest.mark.django_db

settings.register_profile(
    "fuzz",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
EXAMPLES = int(os.environ.get("CRUSADE_FUZZ_EXAMPLES", "0"))
OWNER = settings(settings.get_profile("fuzz"), max_examples=EXAMPLES or 6)
OTHERS = settings(settings.get_profile("fuzz"), max_examples=EXAMPLES or 3)


URL_NAMES = sorted(our_url_names() - EXCLUDED)


def test_it_has_a_page_for_every_url_pattern(world):
    """A new URL fails here until the world has a page for it, so the fuzz covers it."""
    assert set(world.pages) == set(URL_NAMES)


def test_it_finds_the_forms_behind_a_first_post(catalogue):
    """The import's preview and a side's record preview are fuzzed too, not only the
    step before them."""
    preview = catalogue.targets("force_import", "owner")
    assert any("roster" in form.controls and "unit-0-keep" in form.controls for form in preview)
    record = catalogue.targets("army_record", "owner")
    assert any(("confirm", "1") in form.buttons for form in record)


def test_it_finds_the_underdogs_blessings_form_on_the_battle_page(catalogue):
    """The underdog's pick of Blessings (R11.3) is fuzzed as the page shows it."""
    forms = catalogue.targets("army_blessings", "owner")
    assert any(form.shown_on_a_page and "blessings" in form.controls for form in forms)


@pytest.mark.parametrize("name", URL_NAMES)
def test_it_refuses_an_edge_value_in_any_one_field(world, catalogue, visitors, name):
    """Each control alone huge, negative, not a number, a NUL, endless, or a list of ids
    with a foreign one, in a form otherwise filled in well (with a good file for an
    upload): the known 500s (10**30 models, points, opponents, units) were each one such
    value in an otherwise good form."""
    owner = visitors["owner"]
    for form in catalogue.targets(name, "owner"):
        for posted in one_strange_control(form, world.foreign_ids[0]):
            with owner.example():
                owner.post(form.action, posted, catalogue.good_files(form))


@pytest.mark.parametrize("name", URL_NAMES)
def test_it_answers_a_strange_path_with_a_refusal(world, visitors, name):
    """Each argument of the path in turn another player's id, a primary key past every
    column (Django's `<int:pk>` takes any digits: 10**30 must be a 404), or text with a
    NUL (PostgreSQL refuses one in a query) or endless."""
    owner = visitors["owner"]
    for path, post in strange_paths(world.pages[name][0], world.foreign_ids):
        with owner.example():
            owner.get(path)
            if post:
                owner.post(path, {})


def fuzz(data, world: World, visitor: Visitor, forms: list[PostForm], name: str) -> None:
    """One example: GET a page of ``name``, then POST one of its forms, both strange."""
    with visitor.example():
        path = data.draw(paths(tuple(world.pages[name]), world.ids), label="path")
        htmx = data.draw(st.booleans(), label="htmx")
        visitor.get(path, data.draw(queries(world.ids), label="query"), htmx=htmx)
        form = data.draw(st.sampled_from(forms), label="form")
        posted, files = data.draw(submission(form, world.ids), label="posted")
        swapped = path not in world.pages[name] and form.action in world.pages[name]
        visitor.post(path if swapped else form.action, posted, files, htmx=htmx)


@pytest.mark.parametrize("name", URL_NAMES)
@OWNER
@given(data=st.data())
def test_it_answers_the_owner_without_a_server_error(world, catalogue, visitors, name, data):
    fuzz(data, world, visitors["owner"], catalogue.targets(name, "owner"), name)


@pytest.mark.parametrize("role", ["member", "outsider"])
@pytest.mark.parametrize("name", URL_NAMES)
@OTHERS
@given(data=st.data())
def test_it_answers_anyone_else_without_a_server_error_or_a_change(
    world, catalogue, visitors, name, role, data
):
    """The owner's forms and their own, posted by another member of the campaign (the
    owner's opponent) and by a player of another campaign: through the owner's objects'
    URLs they change nothing."""
    fuzz(data, world, visitors[role], catalogue.targets(name, role), name)


@pytest.mark.parametrize("name", URL_NAMES)
def test_it_sends_nobody_to_sign_in_whatever_they_post(world, catalogue, visitors, name):
    """Signed out, every page and every form of the owner's: the owner's objects answer
    with the sign-in page (405 for a GET of a POST-only URL), and nothing changes."""
    nobody = visitors["anonymous"]
    sign_in = reverse("login")
    for path in world.pages[name]:
        with nobody.example():
            nobody.get(path)
    for form in catalogue.targets(name, "owner"):
        with nobody.example():
            response = nobody.post(form.action, form.filled)
        if form.action in world.owner_paths:
            assert response.status_code in (302, 405), form.action
            assert response.status_code == 405 or response["Location"].startswith(sign_in)
