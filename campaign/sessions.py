"""Sessions in the database, as Django keeps them, and who they sign in, each read with a
query compiled once.

Every page a signed-in player opens reads their session first, then their user. Django
builds both queries anew each time (about 0.15 ms each, several times what the database
takes to answer them); here the same rows are read, the session unexpired, with queries
compiled once per connection (`campaign.prepared`). Rows, cookies and everything else
are Django's: switching between the two stores signs nobody out.

`AuthenticationMiddleware` is Django's, with the user of a session signed in through the
model backend (every session of this app) read that way: checked as Django checks it,
active and with the session's hash of their password (a password changed elsewhere signs
the session out; a hash made with an older secret key still listed in
SECRET_KEY_FALLBACKS keeps it, under a new key). Any other session goes to Django's own
`get_user`."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import middleware as auth_middleware
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends import db
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from campaign.prepared import Prepared

if TYPE_CHECKING:
    from django.contrib.sessions.models import Session

_UNEXPIRED = Prepared(
    # The model is reached when the query is first compiled: this module is imported
    # before the apps are ready.
    lambda key, now: db.SessionStore.get_model_class().objects.filter(
        session_key=key, expire_date__gt=now
    ),
    key=str,
    now=datetime,
)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        found = _UNEXPIRED.fetch(key=key, now=timezone.now()) if key else []
        if found:
            return found[0]
        self._session_key = None
        return None


MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
"""The backend every session of this app is signed in through (`views.accounts`)."""

_USER = Prepared(lambda pk: auth.get_user_model()._default_manager.filter(pk=pk), pk=int)
"""What `ModelBackend.get_user` reads, compiled once."""


def signed_in_user(request):
    """Who the request's session signs in (`django.contrib.auth.get_user`, the same
    answer): the user of a session signed in through the model backend read by a query
    compiled once, anyone else's found by Django."""
    session = request.session
    if session.get(BACKEND_SESSION_KEY) != MODEL_BACKEND or SESSION_KEY not in session:
        return auth.get_user(request)
    if MODEL_BACKEND not in settings.AUTHENTICATION_BACKENDS:
        return auth.get_user(request)
    try:
        user_id = auth.get_user_model()._meta.pk.to_python(session[SESSION_KEY])
    except Exception:  # noqa: BLE001 - what Django's own lookup makes of a mangled id
        return auth.get_user(request)
    found = _USER.fetch(pk=user_id) if isinstance(user_id, int) else None
    if found is None:
        return auth.get_user(request)
    user = found[0] if found else None
    if user is None or not ModelBackend().user_can_authenticate(user):
        return AnonymousUser()
    kept = session.get(HASH_SESSION_KEY)
    current = user.get_session_auth_hash()
    if kept and constant_time_compare(kept, current):
        return user
    if kept and any(
        constant_time_compare(kept, older) for older in user.get_session_auth_fallback_hash()
    ):
        # Made with a secret key being retired: kept, under a new key and today's hash.
        session.cycle_key()
        session[HASH_SESSION_KEY] = current
        return user
    session.flush()
    return AnonymousUser()


def _cached_user(request):
    if not hasattr(request, "_cached_user"):
        request._cached_user = signed_in_user(request)
    return request._cached_user


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's, with `request.user` found by `signed_in_user`."""

    def process_request(self, request) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _cached_user(request))
