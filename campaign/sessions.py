"""Sessions in the database, and whom they sign in, read together in one query compiled
once.

Every page a signed-in player opens reads their session, then their user. Django keeps
the user's id inside the session's signed data, so it reads them one after the other
(two round trips on PostgreSQL), building both queries anew each time (about 0.15 ms
each, several times what the database takes to answer them). Here the session's row
(`models.SignedInSession`: Django's own, with the user beside the data) is read with its
user, unexpired, by a query compiled once per connection (`campaign.prepared`). Cookies,
data and expiry are Django's; the migration that made the table copied the sessions
Django kept, so nobody was signed out.

`AuthenticationMiddleware` is Django's, with the user of a session signed in through the
model backend (every session of this app) taken from that read: checked as Django checks
it, active and with the session's hash of their password (a password changed elsewhere
signs the session out; a hash made with an older secret key still listed in
SECRET_KEY_FALLBACKS keeps it, under a new key). Any other session goes to Django's own
`get_user`."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

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
    from campaign.models import SignedInSession

_UNEXPIRED = Prepared(
    # The model is reached when the query is first compiled: this module is imported
    # before the apps are ready.
    lambda key, now: (
        SessionStore.get_model_class()
        .objects.filter(session_key=key, expire_date__gt=now)
        .select_related("user")
    ),
    key=str,
    now=datetime,
)


def user_id_of(data: dict[str, Any]) -> int | None:
    """The id of whom session ``data`` signs in, or None (nobody, or not a number)."""
    try:
        return int(data[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


class SessionStore(db.SessionStore):
    stored_user = None
    """The user the session's row named when it was read (None: nobody, or not read)."""

    @classmethod
    def get_model_class(cls) -> type[SignedInSession]:
        from campaign.models import SignedInSession

        return SignedInSession

    def create_model_instance(self, data: dict[str, Any]) -> SignedInSession:
        row = super().create_model_instance(data)
        row.user_id = user_id_of(data)
        return row

    async def acreate_model_instance(self, data: dict[str, Any]) -> SignedInSession:
        row = await super().acreate_model_instance(data)
        row.user_id = user_id_of(data)
        return row

    def _get_session_from_db(self) -> SignedInSession | None:
        key = self.session_key
        found = _UNEXPIRED.fetch(key=key, now=timezone.now()) if key else []
        if found:
            self.stored_user = found[0].user
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
    if not isinstance(user_id, int):
        return auth.get_user(request)
    user = getattr(session, "stored_user", None)  # read with the session, if it was
    if user is None or user.pk != user_id:
        found = _USER.fetch(pk=user_id)
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
