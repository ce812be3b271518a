"""The session store reads what Django's database store reads, with its query compiled
once: a live session signs its player in, an expired or unknown one nobody."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.sessions import SessionStore

pytestmark = pytest.mark.django_db


def _signed_in(client):
    user = get_user_model().objects.create_user("reader", password="a long enough password")
    client.force_login(user)
    return user, client.cookies[settings.SESSION_COOKIE_NAME].value


def test_it_is_the_store_in_use():
    assert settings.SESSION_ENGINE == "campaign.sessions"


def test_it_loads_what_djangos_store_loads(client):
    _, key = _signed_in(client)
    ours = SessionStore(key).load()
    assert ours == DjangoStore(key).load()
    assert ours["_auth_user_id"]


def test_a_live_session_signs_in_with_one_session_query(client):
    user, key = _signed_in(client)
    client.get(reverse("dashboard"))  # compiled on this connection
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("dashboard"))
    assert response.status_code == 200
    assert response.context["user"] == user
    reads = [q["sql"] for q in queries.captured_queries if '"django_session"' in q["sql"]]
    assert len(reads) == 1


def test_an_expired_session_signs_nobody_in(client):
    _, key = _signed_in(client)
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(1))
    assert SessionStore(key).load() == {}
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_an_unknown_key_loads_nothing_and_a_new_one_is_made_to_save():
    store = SessionStore("no-such-session-key-0123456789abc")
    assert store.load() == {}
    assert store.session_key is None
    store["seen"] = True
    store.save()
    assert store.session_key and Session.objects.filter(session_key=store.session_key).exists()
    assert SessionStore(store.session_key).load() == {"seen": True}


def test_no_key_asks_nothing():
    with CaptureQueriesContext(connection) as queries:
        assert SessionStore(None).load() == {}
    assert len(queries) == 0
