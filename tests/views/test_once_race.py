"""Acceptance (issue 12) on PostgreSQL, in one process: one rendered form sent ten times
at the same moment, from ten sessions, applies once; the others are told it was already
done. Three ways a repeat can lose the race: its view is refused by the first's change
(Fresh Recruits), its claim conflicts after waiting for the force's row lock (Increase
Supply Limit), or its claim waits on the unique index alone (signing up).

PostgreSQL only (the SQLite leg races forms against gunicorn on a SQLite file, in
tests/concurrency/test_form_once_race.py). Each thread has its own connection;
`transaction=True` lets the threads see the committed set-up.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaign.models import RequisitionPurchase, UsedFormToken
from tests.factories import make_force, make_unit, make_user, reload
from tests.services.test_concurrency import all_at_once

from .test_once import fill_in, htmx, recruits_form, recruits_url, sent

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SENDS = 10


def browsers(user=None) -> list[Client]:
    """One client per send, each with a session of its own (signed in as ``user``)."""
    clients = [Client() for _ in range(SENDS)]
    for client in clients:
        if user is not None:
            client.force_login(user)
    return clients


def send_all(clients: list[Client], url: str, data: dict, **headers) -> Counter:
    results, errors = all_at_once(
        [lambda c=client: c.post(url, data, **headers) for client in clients]
    )
    assert errors == []
    return Counter(
        (r.status_code, r.get("Location") or r.get("HX-Redirect") or "-") for r in results
    )


def test_it_buys_fresh_recruits_once_for_one_form_sent_ten_times_at_once():
    """R6: +2 models, 1RP."""
    assert connection.vendor == "postgresql"
    owner = make_user()
    force = make_force(player=owner)
    unit = make_unit(force, points=100)
    page = Client()
    page.force_login(owner)
    data = recruits_form(page, unit)

    outcomes = send_all(browsers(owner), recruits_url(unit), data)

    card = reverse("unit_detail", args=[unit.pk])
    assert outcomes == {(302, card): 1, (303, card): SENDS - 1}
    assert reload(unit).model_count == 3 and reload(force).rp == 4
    assert RequisitionPurchase.objects.filter(unit=unit).count() == 1
    assert UsedFormToken.objects.count() == 1


def test_it_increases_the_supply_limit_once_for_one_button_sent_ten_times_at_once():
    """R6.1: each repeat would still have the RP to pay: only the token stops it."""
    assert connection.vendor == "postgresql"
    owner = make_user()
    force = make_force(player=owner)
    page = reverse("force_detail", args=[force.pk])
    buy = reverse("force_requisition", args=[force.pk, "increase_supply_limit"])
    reader = Client()
    reader.force_login(owner)
    data = sent(reader.get(page), buy)

    outcomes = send_all(browsers(owner), buy, data, **htmx(page))

    assert outcomes == {(200, "-"): 1, (200, page): SENDS - 1}
    force = reload(force)
    assert (force.rp, force.supply_limit) == (4, 1200)


def test_it_signs_up_once_for_one_form_sent_ten_times_at_once():
    assert connection.vendor == "postgresql"
    page = Client().get(reverse("signup"))
    data = fill_in(
        sent(page, having="username"),
        username="newcomer",
        password1="a-long-Pass-phrase-9",
        password2="a-long-Pass-phrase-9",
    )

    outcomes = send_all(browsers(), reverse("signup"), data)

    assert outcomes == {(302, reverse("dashboard")): 1, (303, reverse("signup")): SENDS - 1}
    assert get_user_model().objects.filter(username="newcomer").count() == 1
