"""The session store keeps what Django's database store keeps, with whom the session signs
in beside it, read in one query compiled once: a live session signs its player in, an
expired or unknown one nobody."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.models import SignedInSession as Session
from campaign.sessions import SessionStore

pytestmark = pytest.mark.django_db


def _signed_in(client):
    user = get_user_model().objects.create_user("reader", password="a long enough password")
    client.force_login(user)
    return user, client.cookies[settings.SESSION_COOKIE_NAME].value


def test_it_is_the_store_in_use():
    assert settings.SESSION_ENGINE == "campaign.sessions"


def test_it_keeps_what_djangos_store_keeps_and_whom_it_signs_in(client):
    user, key = _signed_in(client)
    row = Session.objects.get(session_key=key)
    ours = SessionStore(key).load()

    assert ours == DjangoStore().decode(row.session_data)
    assert ours["_auth_user_id"] == str(user.pk) and row.user_id == user.pk


def test_a_live_session_signs_in_with_one_query_for_the_session_and_its_user(client):
    user, key = _signed_in(client)
    client.get(reverse("dashboard"))  # compiled on this connection
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("dashboard"))
    assert response.status_code == 200
    assert response.context["user"] == user
    sql = [q["sql"] for q in queries.captured_queries]
    reads = [q for q in sql if '"campaign_session"' in q]
    assert len(reads) == 1 and '"auth_user"' in reads[0]
    assert not [q for q in sql if q.lstrip().startswith('SELECT "auth_user"')]


def test_signing_out_and_in_as_another_player_names_them_on_the_row(client):
    _signed_in(client)
    other = get_user_model().objects.create_user("writer", password="a long enough password")
    client.logout()
    client.force_login(other)

    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert Session.objects.get(session_key=key).user_id == other.pk
    assert client.get(reverse("dashboard")).context["user"] == other


def test_the_sessions_django_kept_are_copied_with_whom_they_sign_in(client):
    """The migration that made the table: a player signed in before it stays signed in."""
    import importlib

    from django.apps import apps
    from django.contrib.sessions.models import Session as KeptSession

    user, _ = _signed_in(client)
    kept = DjangoStore()
    kept["_auth_user_id"] = str(user.pk)
    kept["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    kept["_auth_user_hash"] = user.get_session_auth_hash()
    kept.create()
    stale = DjangoStore()
    stale["seen"] = True
    stale.create()
    KeptSession.objects.filter(session_key=stale.session_key).update(
        expire_date=timezone.now() - timedelta(1)
    )
    migration = importlib.import_module("campaign.migrations.0025_signed_in_sessions")

    migration.copy_sessions(apps, None)

    copied = Session.objects.get(session_key=kept.session_key)
    assert copied.user_id == user.pk
    assert not Session.objects.filter(session_key=stale.session_key).exists()
    client.cookies[settings.SESSION_COOKIE_NAME] = kept.session_key
    assert client.get(reverse("dashboard")).context["user"] == user


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
    assert (
        settings.SESSION_COOKIE_NAME not in client.cookies
        or not client.cookies[settings.SESSION_COOKIE_NAME].value
    )


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


def test_a_stored_row_decodes_through_the_store_in_use(client):
    """The model finds its store by the settings' name (it doesn't import it), as Django's
    `get_decoded` needs: a row read back gives the data the store wrote."""
    store = SessionStore()
    store["where"] = "the table"
    store.save()
    row = Session.objects.get(session_key=store.session_key)
    assert Session.get_session_store_class() is SessionStore
    assert row.get_decoded() == {"where": "the table"}
