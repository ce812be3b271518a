"""Requests as one of the world's people, and what each answer must respect.

Every answer is below 500. A request that is refused (a 4xx, a form shown again with its
errors, a redirect with an error message) or that only shows something (a preview, a
check) changes nothing; only a redirect without an error, or an htmx answer, may. Nobody
but the owner changes anything through the owner's objects' URLs.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve

from .pages import PostForm, post_forms
from .state import difference, fingerprint
from .world import World

ERROR_MARKUP = ('class="field__error"', "errorlist", 'aria-invalid="true"', 'role="alert"')
"""How a page shows a refusal next to a field (templates/_field.html) or for the form."""
HTMX = {"HTTP_HX_REQUEST": "true"}
EXCLUDED = {"logout"}
"""URLs the fuzz leaves alone: logging out would sign the visitor out mid-run."""


@contextlib.contextmanager
def rolled_back() -> Iterator[None]:
    """Whatever happens inside is undone: each example starts from the same world."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def url_name(path: str) -> str | None:
    """Our URL name for a path (None for the admin's, a missing page or one left alone)."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.namespace or match.url_name in EXCLUDED:
        return None
    return match.url_name


def _error_messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request) if m.level >= messages.ERROR]


def shows_errors(response) -> bool:
    content = response.content.decode(errors="replace") if response.content else ""
    return any(marker in content for marker in ERROR_MARKUP)


def may_change(response, *, htmx: bool) -> bool:
    """Whether this answer says a change was made (else the state must be as before)."""
    if 300 <= response.status_code < 400:
        return not _error_messages(response)
    return htmx and response.status_code == 200 and not shows_errors(response)


@dataclass
class Visitor:
    """One of the world's people with a browser of their own, signed in once."""

    world: World
    role: str
    client: Client = field(init=False)

    def __post_init__(self) -> None:
        self.client = Client()
        user = self.world.users[self.role]
        if user is not None:
            self.client.force_login(user)

    @contextlib.contextmanager
    def example(self) -> Iterator[None]:
        """One example: its database changes and its cookies (messages, a new login)
        are dropped afterwards."""
        cookies = copy.deepcopy(self.client.cookies)
        try:
            with rolled_back():
                yield
        finally:
            self.client.cookies = cookies

    def get(self, path: str, query: dict | None = None, *, htmx: bool = False):
        response = self.client.get(path, query or {}, **(HTMX if htmx else {}))
        assert response.status_code < 500, f"GET {path} {query!r} as {self.role}"
        return response

    def post(self, path: str, data: dict, files: dict | None = None, *, htmx: bool = False):
        """POST and check the answer: below 500, and a change only where one may be.

        Each example starts from the world as built (the one before was rolled back), so
        the state is compared with the fingerprint taken then, and only when the answer
        says nothing changed: one fingerprint per refused request, none for a success."""
        response = self.client.post(path, {**data, **(files or {})}, **(HTMX if htmx else {}))
        where = f"POST {path} as {self.role} ({response.status_code}): {_shorten(data)}"
        assert response.status_code < 500, where
        if self.role != "owner" and path in self.world.owner_paths:
            # htmx is sent elsewhere with a 200 and a header (a form token that isn't ours)
            shown = 200 <= response.status_code < 300 and "HX-Redirect" not in response
            assert not shown, where
            assert not self._changes(), f"{where} changed {self._changes()}"
        elif not may_change(response, htmx=htmx):
            changed = self._changes()
            assert not changed, f"{where} was refused or only shown, yet changed {changed}"
        return response

    def _changes(self) -> list[str]:
        return difference(self.world.baseline, fingerprint())

    def forms(self, path: str, data: dict | None = None) -> list[PostForm]:
        """The POST forms of a page: as shown on GET, or after posting ``data``."""
        response = self.client.post(path, data) if data else self.client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            return []
        return post_forms(path, response.content.decode())


def _shorten(data: dict) -> dict:
    """The posted data for a failure message, long values cut short."""
    return {
        name: [v if len(v) < 80 else f"{v[:40]!r}... ({len(v)} chars)" for v in values]
        for name, values in data.items()
    }
