"""Every rendered form that changes something applies at most once.

Why: a double-click, a browser retrying a POST, or htmx queueing a second submit used to
apply a form twice (a unit Requisition added its models and charged its RP twice). Now:

- `{% once %}` (in `campaign.templatetags.crusade`) puts a hidden ``form_once`` field in a
  form: a fresh random token, signed with the time and the page the form is shown on.
- `campaign.middleware.FormOnceMiddleware` reads it from a POST. A token this user has
  already used gets "already done" and the page as it is now, without running the view.
- The first change the request makes *claims* the token (`claim`): one `UsedFormToken`
  row, inserted in the transaction of the change. Every change writes history through
  `campaign.services._common`, which claims first; the few account pages that change
  something without history (sign up, password) claim explicitly. A refusal rolls the
  claim back with the change, so a form shown again with its errors can be corrected and
  sent again. If the insert hits the unique constraint, a twin of this request got there
  first: `AlreadyDone` rolls the change back and the player is told it was already done.
  Under a race exactly one applies: on SQLite the transaction holds the write lock, and on
  PostgreSQL the unique index makes the second insert wait for the first to commit.
- A request that changed nothing looks once more (`settle`): if a twin claimed the token
  meanwhile, its own answer (say, a refusal the twin's change caused) is replaced by
  "already done" too.
- A POST without a token behaves as before: tests and scripts post directly.

Queries: a POST with a token costs two more, one look-up before the view and either the
claim or the second look-up; a POST without one costs nothing more.
"""

from __future__ import annotations

import contextlib
import contextvars
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

from django.contrib import messages
from django.core import signing
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect

FIELD = "form_once"
"""The name of the hidden field that carries a form's token."""

LIFETIME = timedelta(days=7)
"""How long a shown form can be sent. An older token is refused, so a used token's row can
be forgotten once it is this old (`manage.py clean_form_tokens`)."""

ALREADY_DONE = "That was already done — here is how things stand now."
OUT_OF_DATE = (
    "That form was open too long, so nothing was changed. "
    "Here is the page as it is now: please try again."
)
SALT = "campaign.once"


class AlreadyDone(Exception):
    """This request's form was used by another request first; the change is rolled back."""


@dataclass
class PostedForm:
    """The token a POST carries, and what this request has done with it."""

    token: str
    user_id: int | None
    page: str
    """Where the form was shown: a repeat is sent back there."""
    path: str
    claimed: bool = False
    answered: bool = False

    def used(self) -> bool:
        from campaign.models import UsedFormToken

        return UsedFormToken.objects.filter(user_id=self.user_id, token=self.token).exists()


_posted: contextvars.ContextVar[PostedForm | None] = contextvars.ContextVar(
    "campaign_once_posted", default=None
)


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=SALT)


# --- Rendering a form ---------------------------------------------------------------------


def page_of(request: HttpRequest | None) -> str:
    """The page a form rendered now is shown on: for htmx the page in the browser, for a
    form shown again after a POST the page the posted form came from."""
    if request is None:
        return ""
    htmx = getattr(request, "htmx", None)
    if htmx and htmx.current_url_abs_path:
        return htmx.current_url_abs_path
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    posted = _posted.get()
    return posted.page if posted is not None else request.path


def issue(request: HttpRequest | None, *, back: str = "") -> str:
    """A fresh token for one form of the page ``request`` renders; a repeat of the form
    is sent back to ``back`` (a path of this site), else to that page."""
    page = back or page_of(request)
    return _signer().sign_object({"t": secrets.token_urlsafe(16), "p": page})


# --- Serving a POST (FormOnceMiddleware) ----------------------------------------------------


@contextlib.contextmanager
def request_scope() -> Iterator[None]:
    """One request: whatever token it posts is forgotten when it ends."""
    reset = _posted.set(None)
    try:
        yield
    finally:
        _posted.reset(reset)


def begin(request: HttpRequest) -> HttpResponse | None:
    """Before the view: None to run it (its token, if any, ready to be claimed), or the
    answer to a form that was already used or is out of date."""
    value = request.POST.get(FIELD) if request.method == "POST" else None
    if not value:
        return None
    try:
        data = _signer().unsign_object(value, max_age=LIFETIME)
    except signing.SignatureExpired:
        return _answer(request, _page_of_old(value), OUT_OF_DATE, messages.WARNING)
    except signing.BadSignature:
        return _answer(request, "", OUT_OF_DATE, messages.WARNING)
    user = request.user
    posted = PostedForm(
        token=str(data["t"]),
        user_id=user.pk if user.is_authenticated else None,
        page=str(data["p"]),
        path=request.path,
    )
    if posted.used():
        return _answer(request, posted.page, ALREADY_DONE)
    _posted.set(posted)
    return None


def _page_of_old(value: str) -> str:
    """The page in a token too old to use (its signature is still checked)."""
    try:
        return str(_signer().unsign_object(value)["p"])
    except (signing.BadSignature, KeyError, TypeError):
        return ""


def claim() -> None:
    """Use up the posted form's token, in the transaction of the change it makes.

    Called before each change is recorded (`services._common`); only the first call of a
    request inserts. Raises `AlreadyDone` when another request used the token first, which
    rolls back the transaction it is raised in. If that transaction is rolled back for
    another reason (a refusal), the row goes with it and the form can be sent again. (The
    request does not claim again afterwards: no view makes a change after a refusal that
    came after a change of its own.)
    """
    from campaign.models import UsedFormToken

    posted = _posted.get()
    if posted is None or posted.claimed:
        return
    try:
        UsedFormToken.objects.create(
            token=posted.token, user_id=posted.user_id, path=posted.path[:200]
        )
    except IntegrityError:
        raise AlreadyDone from None
    posted.claimed = True


def already_done(request: HttpRequest) -> HttpResponse:
    """The answer to a request whose twin used its form first."""
    posted = _posted.get()
    return _answer(request, posted.page if posted else "", ALREADY_DONE)


def settle(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """After the view: a request that changed nothing while a twin used its form is
    answered "already done", not with what its view said (a refusal, say)."""
    posted = _posted.get()
    if posted is None or posted.claimed or posted.answered or response.status_code >= 500:
        return response
    if not posted.used():
        return response
    _drop_new_messages(request)
    return _answer(request, posted.page, ALREADY_DONE)


def _drop_new_messages(request: HttpRequest) -> None:
    """Forget the messages this request's view added: they describe an answer the player
    will not see. (The storage keeps them in `_queued_messages` until the response.)"""
    queued = getattr(messages.get_messages(request), "_queued_messages", None)
    if queued is not None:
        queued.clear()


def _answer(request: HttpRequest, page: str, text: str, level: int = messages.INFO) -> HttpResponse:
    """Say ``text`` on ``page`` (the player's dashboard when it is unknown), for htmx too."""
    posted = _posted.get()
    if posted is not None:
        posted.answered = True
    messages.add_message(request, level, text)
    target = page or resolve_url("dashboard" if request.user.is_authenticated else "home")
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(target)
    response = HttpResponseRedirect(target)
    response.status_code = 303  # See Other: the page is fetched with GET
    return response
