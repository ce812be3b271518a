"""A form that changes something applies at most once per rendered form (issue 12): sent
twice, by a double-click, a retry or htmx queueing, the second is told "already done" and
shown how things stand now. Forms are read from the pages and sent as a browser sends
them, with their hidden `form_once` token (`campaign.once`)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.core import mail
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import once, services
from campaign.models import (
    Battle,
    CrusadeForce,
    HistoryAction,
    HistoryEntry,
    RequisitionPurchase,
    Unit,
    UsedFormToken,
)
from tests.concurrency.live import PageReader, fill
from tests.factories import make_force, make_unit, reload

from .helpers import texts

pytestmark = pytest.mark.django_db

RECRUITS = {"models_added": 2, "points": 150, "max_model_count": 10}
"""The probe of the issue: Fresh Recruits adding 2 models to a card of 1 (R6)."""


def sent(page, action: str = "", *, having: str = "", **values) -> dict[str, list[str]]:
    """What a browser sends from the page's POST form, with ``values`` filled in."""
    fields = PageReader(page.content.decode()).post_form(action, having=having)
    data: dict[str, list[str]] = {}
    for name, value in fill(fields, **values):
        data.setdefault(name, []).append(value)
    return data


def recruits_url(unit: Unit) -> str:
    return reverse("unit_requisition", args=[unit.pk, "fresh_recruits"])


def recruits_form(client, unit: Unit, **values) -> dict[str, list[str]]:
    page = client.get(recruits_url(unit))
    return sent(page, having="models_added", **{**RECRUITS, **values})


def htmx(page: str) -> dict[str, str]:
    """The headers htmx adds to a request from ``page``."""
    return {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": f"http://testserver{page}"}


def models_and_rp(unit: Unit) -> tuple[int, int]:
    return reload(unit).model_count, CrusadeForce.objects.get(pk=unit.force_id).rp


# The double submit of the issue


def test_it_buys_fresh_recruits_once_when_the_same_form_is_sent_twice(client, owner, unit):
    """R6: 1RP for the models once, not twice (the probe saw 1 -> 5 models, 2RP)."""
    client.force_login(owner)
    data = recruits_form(client, unit)

    first = client.post(recruits_url(unit), data)
    second = client.post(recruits_url(unit), data)

    card = reverse("unit_detail", args=[unit.pk])
    applied_once(first, second, then=card, back=card)
    assert models_and_rp(unit) == (3, 4)
    assert RequisitionPurchase.objects.filter(unit=unit).count() == 1
    now = client.get(second.url)
    assert now.status_code == 200 and once.ALREADY_DONE in now.content.decode()


def test_it_buys_once_when_htmx_sends_the_queued_submit_again(client, owner, unit):
    client.force_login(owner)
    data = recruits_form(client, unit)
    headers = htmx(recruits_url(unit))

    first = client.post(recruits_url(unit), data, **headers)
    second = client.post(recruits_url(unit), data, **headers)

    card = reverse("unit_detail", args=[unit.pk])
    assert (first.status_code, first["HX-Redirect"]) == (200, card)
    assert (second.status_code, second["HX-Redirect"]) == (200, card)
    assert texts(second)[-1] == once.ALREADY_DONE
    assert models_and_rp(unit) == (3, 4)


def test_it_increases_the_supply_limit_once_from_the_order_of_battle(client, owner, force):
    """The Order of Battle's htmx buttons: a repeat is sent to the page as it is now (R6.1)."""
    client.force_login(owner)
    page = reverse("force_detail", args=[force.pk])
    buy = reverse("force_requisition", args=[force.pk, "increase_supply_limit"])
    data = sent(client.get(page), buy)

    first = client.post(buy, data, **htmx(page))
    second = client.post(buy, data, **htmx(page))

    assert first.status_code == 200 and "Bought Increase Supply Limit" in first.content.decode()
    assert (second.status_code, second["HX-Redirect"]) == (200, page)
    force = reload(force)
    assert (force.rp, force.supply_limit) == (4, 1200)


def test_it_answers_a_repeat_on_a_form_without_htmx_with_a_see_other(client, owner, force):
    client.force_login(owner)
    page = reverse("force_detail", args=[force.pk])
    buy = reverse("force_requisition", args=[force.pk, "increase_supply_limit"])
    data = sent(client.get(page), buy)

    client.post(buy, data)
    repeat = client.post(buy, data)

    assert (repeat.status_code, repeat.url) == (303, page)
    assert reload(force).rp == 4


# What is not a repeat


def test_it_keeps_the_token_of_a_form_shown_again_with_its_errors(client, owner, unit):
    """A refusal changes nothing, so the corrected form (same token) still applies."""
    client.force_login(owner)
    data = recruits_form(client, unit, models_added=0)

    refused = client.post(recruits_url(unit), data)
    corrected = client.post(recruits_url(unit), {**data, "models_added": ["2"]})
    repeat = client.post(recruits_url(unit), {**data, "models_added": ["2"]})

    assert refused.status_code == 400 and refused.context["form"].errors["models_added"]
    assert corrected.status_code == 302
    assert repeat.status_code == 303
    assert models_and_rp(unit) == (3, 4)


def test_it_shows_the_form_again_with_a_token_of_its_own(client, owner, unit):
    client.force_login(owner)
    data = recruits_form(client, unit, models_added=0)

    refused = client.post(recruits_url(unit), data)

    again = sent(refused, having="models_added")
    assert again[once.FIELD] != data[once.FIELD]
    assert client.post(recruits_url(unit), fill_in(again, **RECRUITS)).status_code == 302


def fill_in(data: dict[str, list[str]], **values) -> dict[str, list[str]]:
    return {**data, **{name: [str(value)] for name, value in values.items()}}


def applied_once(first, second, *, then: str, back: str) -> None:
    """The same form sent twice: the first applied and went on to ``then``; the second was
    sent back to ``back`` and told it was already done."""
    assert (first.status_code, first.url) == (302, then)
    assert (second.status_code, second.url) == (303, back)
    assert texts(second)[-1] == once.ALREADY_DONE


def test_it_keeps_each_players_tokens_apart(client, owner, unit, member, campaign):
    """Another player's token is theirs: using it neither blocks them nor is blocked."""
    theirs = make_unit(make_force(player=member, campaign=campaign), name="Squad Beta")
    client.force_login(owner)
    data = recruits_form(client, unit)
    other = Client()
    other.force_login(member)

    borrowed = other.post(recruits_url(theirs), data)
    mine = client.post(recruits_url(unit), data)

    assert borrowed.status_code == 302 and mine.status_code == 302
    assert models_and_rp(unit) == (3, 4) and models_and_rp(theirs) == (3, 4)
    assert other.post(recruits_url(theirs), data).status_code == 303
    assert client.post(recruits_url(unit), data).status_code == 303


def test_it_still_applies_a_form_posted_without_a_token(client, owner, force):
    """Scripts and tests post directly: without a token a POST is served as before."""
    client.force_login(owner)
    buy = reverse("force_requisition", args=[force.pk, "increase_supply_limit"])

    for _ in range(2):
        assert client.post(buy).status_code == 302

    assert reload(force).rp == 3
    assert not UsedFormToken.objects.exists()


def test_it_refuses_a_form_open_too_long(client, owner, unit, monkeypatch):
    client.force_login(owner)
    data = recruits_form(client, unit)
    monkeypatch.setattr(once, "LIFETIME", timedelta(seconds=-1))

    response = client.post(recruits_url(unit), data)

    assert (response.status_code, response.url) == (303, reverse("unit_detail", args=[unit.pk]))
    assert texts(response)[-1] == once.OUT_OF_DATE
    assert models_and_rp(unit) == (1, 5)


def test_it_refuses_a_token_changed_by_hand(client, owner, unit):
    client.force_login(owner)
    data = recruits_form(client, unit)
    data[once.FIELD] = ["x" + data[once.FIELD][0]]

    response = client.post(recruits_url(unit), data)

    assert (response.status_code, response.url) == (303, reverse("dashboard"))
    assert texts(response)[-1] == once.OUT_OF_DATE
    assert models_and_rp(unit) == (1, 5)


def test_it_uses_no_token_on_a_check_or_a_preview(client, unmustered):
    """The live muster check and the record preview change nothing (R8, R9)."""
    table = unmustered
    client.force_login(table.owner)
    muster = reverse("army_muster", args=[table.mine.pk])
    data = sent(
        client.get(muster),
        muster,
        faction="Adeptus Astartes",
        detachment="Gladius",
        units=[table.captain.pk, table.squad.pk],
        warlord=table.captain.pk,
    )

    check = client.post(reverse("army_muster_check", args=[table.mine.pk]), data, **htmx(muster))
    mustered = client.post(muster, data)

    assert check.status_code == 200 and "HX-Redirect" not in check
    assert mustered.status_code == 302 and reload(table.mine).mustered


def test_it_records_a_side_once_after_its_preview(client, table):
    client.force_login(table.owner)
    url = reverse("army_record", args=[table.mine.pk])
    preview = client.post(url, fill_in(sent(client.get(url), url, having="result"), result="win"))
    data = fill_in(sent(preview, url, having="confirm"), confirm=1)

    first = client.post(url, data)
    second = client.post(url, data)

    battle = reverse("battle_detail", args=[table.battle.pk])
    assert preview.status_code == 200
    assert (first.status_code, first.url) == (302, battle)
    assert (second.status_code, second.url) == (303, battle)
    assert HistoryEntry.objects.filter(action=HistoryAction.SIDE_RECORDED).count() == 1


def _twin_after_the_look_up(monkeypatch, change=None) -> None:
    """The race a repeat can lose: its look-up sees nothing, then its twin (the first
    submit) makes ``change`` and claims the token before this request's view runs."""
    look_up = once.PostedForm.used

    def twin_commits(posted: once.PostedForm) -> bool:
        monkeypatch.setattr(once.PostedForm, "used", look_up)
        if change is not None:
            change()
        UsedFormToken.objects.create(token=posted.token, user_id=posted.user_id)
        return False

    monkeypatch.setattr(once.PostedForm, "used", twin_commits)


def _supply_form(client, force) -> tuple[str, str, dict]:
    page = reverse("force_detail", args=[force.pk])
    buy = reverse("force_requisition", args=[force.pk, "increase_supply_limit"])
    return page, buy, sent(client.get(page), buy)


def test_it_rolls_back_a_change_whose_token_a_twin_used_meanwhile(
    client, owner, force, monkeypatch
):
    client.force_login(owner)
    page, buy, data = _supply_form(client, force)
    _twin_after_the_look_up(monkeypatch)

    response = client.post(buy, data)

    assert (response.status_code, response.url) == (303, page)
    assert texts(response) == [once.ALREADY_DONE]
    assert reload(force).rp == 5 and not RequisitionPurchase.objects.exists()


def test_it_says_already_done_not_the_refusal_a_twins_change_caused(
    client, owner, force, monkeypatch
):
    """With 1RP the twin's purchase leaves none: this request's view refuses, but the player
    is told it was already done, which is what happened (R6.1)."""
    CrusadeForce.objects.filter(pk=force.pk).update(rp=1)
    client.force_login(owner)
    page, buy, data = _supply_form(client, force)
    _twin_after_the_look_up(
        monkeypatch, lambda: services.increase_supply_limit(actor=owner, force=force)
    )

    response = client.post(buy, data)

    assert (response.status_code, response.url) == (303, page)
    assert texts(response) == [once.ALREADY_DONE]
    assert reload(force).rp == 0 and RequisitionPurchase.objects.count() == 1


# Queries


def _queries(client, url: str, data) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data)
    return response.status_code, len(queries)


def test_it_costs_two_queries_more_with_a_token_and_none_without(client, owner, force):
    """A look-up before the view, then the claim (a change) or a second look-up (none)."""
    units = [make_unit(force, name=f"Squad {n}", points=100) for n in range(3)]
    client.force_login(owner)
    tokens = [recruits_form(client, u)[once.FIELD] for u in units[1:]]

    bare = _queries(client, recruits_url(units[0]), RECRUITS)
    with_token = _queries(client, recruits_url(units[1]), {**RECRUITS, once.FIELD: tokens[0]})
    refused = _queries(client, recruits_url(units[2]), {"points": 1, once.FIELD: tokens[1]})
    bare_refused = _queries(client, recruits_url(units[2]), {"points": 1})

    assert bare[0] == with_token[0] == 302
    assert with_token[1] == bare[1] + 2
    assert refused[0] == bare_refused[0] == 400
    assert refused[1] == bare_refused[1] + 2


# Accounts and the organisers' admin


def sent_twice(client, name: str, having: str, *, again=None, **values) -> tuple:
    """The form of the page ``name`` (the one with the field ``having``), filled in with
    ``values`` and posted twice: the second time by ``again`` (another browser, which
    sent it before the first answer came) or by the same one."""
    url = reverse(name)
    data = fill_in(sent(client.get(url), having=having), **values)
    return client.post(url, data), (again or client).post(url, data)


def test_it_signs_up_once_when_the_form_is_sent_twice(client):
    first, second = sent_twice(
        client,
        "signup",
        "username",
        again=Client(),
        username="newcomer",
        password1="a-long-Pass-phrase-9",
        password2="a-long-Pass-phrase-9",
    )

    applied_once(first, second, then=reverse("dashboard"), back=reverse("signup"))
    assert UsedFormToken.objects.get().user is None


def test_it_changes_a_password_once_when_the_form_is_sent_twice(client, owner):
    """Sent again, the form would be refused for an old password the first just replaced."""
    client.force_login(owner)

    first, second = sent_twice(
        client,
        "password_change",
        "old_password",
        old_password="test-pass-123",
        new_password1="another-Pass-phrase-7",
        new_password2="another-Pass-phrase-7",
    )

    done, form = reverse("password_change_done"), reverse("password_change")
    applied_once(first, second, then=done, back=form)
    assert reload(owner).check_password("another-Pass-phrase-7")


@override_settings(
    EMAIL_ENABLED=True, EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"
)
def test_it_sends_one_reset_link_when_the_form_is_sent_twice(client, owner):
    owner.email = "owner@example.org"
    owner.save()

    first, second = sent_twice(client, "password_reset", "email", email=owner.email)

    assert first.status_code == 302 and second.status_code == 303
    assert len(mail.outbox) == 1


@override_settings(EMAIL_ENABLED=True, EMAIL_BACKEND="tests.views.test_login_and_email.Refusing")
def test_it_frees_the_reset_form_when_the_mail_server_refuses(client, owner):
    owner.email = "owner@example.org"
    owner.save()
    data = fill_in(sent(client.get(reverse("password_reset")), having="email"), email=owner.email)

    refused = client.post(reverse("password_reset"), data)

    assert refused.status_code == 200 and not UsedFormToken.objects.exists()


def test_it_voids_a_battle_once_from_the_admin(client, table):
    client.force_login(table.organiser)
    tool = reverse("admin:campaign_battle_void", args=[table.battle.pk])
    data = fill_in(sent(client.get(tool), having="reason"), reason="Played the wrong mission")

    first = client.post(tool, data)
    history = HistoryEntry.objects.count()
    second = client.post(tool, data)

    change = reverse("admin:campaign_battle_change", args=[table.battle.pk])
    applied_once(first, second, then=change, back=change)
    assert reload(table.battle).status == Battle.Status.VOIDED
    assert HistoryEntry.objects.count() == history


# Cleaning up


def test_it_forgets_used_tokens_too_old_to_be_sent_again(owner):
    from django.core.management import call_command

    old = UsedFormToken.objects.create(token="old", user=owner)
    UsedFormToken.objects.filter(pk=old.pk).update(
        created_at=old.created_at - once.LIFETIME - timedelta(minutes=1)
    )
    fresh = UsedFormToken.objects.create(token="fresh", user=owner)

    call_command("clean_form_tokens", verbosity=0)

    assert list(UsedFormToken.objects.all()) == [fresh]


def test_it_writes_every_history_row_where_the_token_is_claimed():
    """R4: every change leaves a history row, and `services._common` writes them all: so
    every change uses up the form that asked for it. (Migrations write as no player.)"""
    from django.conf import settings

    writes = re.compile(r"HistoryEntry\.objects\.(bulk_create|create|get_or_create)\(")
    common = Path(settings.BASE_DIR, "campaign/services/_common.py")
    elsewhere = [
        str(path.relative_to(settings.BASE_DIR))
        for path in Path(settings.BASE_DIR, "campaign").rglob("*.py")
        if path != common and "migrations" not in path.parts and writes.search(path.read_text())
    ]
    assert elsewhere == []
