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


# --- who a session signs in ---------------------------------------------------------


def _dashboard_status(client) -> int:
    return client.get(reverse("dashboard")).status_code


def test_a_signed_in_page_reads_its_user_without_compiling_the_query_again(client):
    from django.db.models.sql import compiler

    user, _ = _signed_in(client)
    client.get(reverse("dashboard"))  # compiled on this connection
    compiled = []
    real = compiler.SQLCompiler.as_sql

    def spy(self, *args, **kwargs):
        sql, params = real(self, *args, **kwargs)
        compiled.append(sql)
        return sql, params

    with CaptureQueriesContext(connection) as queries:
        compiler.SQLCompiler.as_sql = spy
        try:
            response = client.get(reverse("dashboard"))
        finally:
            compiler.SQLCompiler.as_sql = real

    assert response.context["user"] == user
    assert [q for q in queries.captured_queries if 'FROM "auth_user"' in q["sql"]]
    assert not [sql for sql in compiled if 'FROM "auth_user"' in sql]


def test_a_password_changed_elsewhere_signs_the_session_out(client):
    user, _ = _signed_in(client)
    assert _dashboard_status(client) == 200

    user.set_password("another long enough password")
    user.save()

    assert _dashboard_status(client) == 302
    assert settings.SESSION_COOKIE_NAME not in client.cookies or not client.cookies[
        settings.SESSION_COOKIE_NAME
    ].value


def test_an_account_made_inactive_is_signed_out(client):
    user, _ = _signed_in(client)
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)

    assert _dashboard_status(client) == 302


def test_a_deleted_account_signs_nobody_in(client):
    user, _ = _signed_in(client)
    get_user_model().objects.filter(pk=user.pk).delete()

    assert _dashboard_status(client) == 302


def test_a_secret_key_being_retired_keeps_the_session_under_a_new_key(client, settings):
    _, key = _signed_in(client)
    old = settings.SECRET_KEY
    settings.SECRET_KEY = "a new secret key, long and random enough for the test " * 2
    settings.SECRET_KEY_FALLBACKS = [old]

    assert _dashboard_status(client) == 200
    assert client.cookies[settings.SESSION_COOKIE_NAME].value != key


def test_a_session_of_a_backend_no_longer_listed_signs_nobody_in(client):
    _, key = _signed_in(client)
    store = SessionStore(key)
    store["_auth_user_backend"] = "django.contrib.auth.backends.RemoteUserBackend"
    store.save()

    assert _dashboard_status(client) == 302


def test_it_signs_in_whom_djangos_own_lookup_signs_in(client, rf):
    from django.contrib.auth import get_user

    from campaign.sessions import signed_in_user

    user, key = _signed_in(client)
    request = rf.get("/")
    request.session = SessionStore(key)
    again = rf.get("/")
    again.session = SessionStore(key)

    assert signed_in_user(request) == get_user(again) == user
