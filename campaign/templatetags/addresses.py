"""Addresses that every page writes, worked out once a process: ``{% static %}`` (loaded
after Django's, it takes its place) and ``{% address 'name' %}`` / ``{% address 'name' pk %}``
for the views of no argument or of one ``<int:pk>``.

Each page's header links six views and seven files; Django works each address out again
at every look (a reverse or a look-up in the static files' manifest, tens of
microseconds each), which was a sixth of what a small page cost to render. Neither
changes while the process runs (nor the script prefix it is served under, which is part
of the key); a test that changes the settings they come from clears them."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, reverse

register = template.Library()


SOME_PK = 987654321
"""A number no row reaches: the address of each row's link is this one's, renumbered."""


@lru_cache(maxsize=512)
def _with_pk(name: str, prefix: str) -> tuple[str, str]:
    """The address of the view's row `SOME_PK`, cut where the number stands."""
    head, _, tail = reverse(name, args=[SOME_PK]).rpartition(str(SOME_PK))
    return head, tail


def numbered(name: str, pk: int) -> str:
    """``reverse(name, args=[pk])`` for a view of one ``<int:pk>``, reversed once a process
    and prefix (a page of 200 rows reversed one for each, a tenth of the table's time)."""
    head, tail = _with_pk(name, get_script_prefix())
    return f"{head}{int(pk)}{tail}"


@lru_cache(maxsize=512)
def _plain(name: str, prefix: str) -> str:
    return reverse(name)


@register.simple_tag
def address(name: str, pk=None) -> str:
    """``{% url name %}``, or ``{% url name pk %}`` for a view of one ``<int:pk>``."""
    if pk is None:
        return _plain(name, get_script_prefix())
    if isinstance(pk, int):
        return numbered(name, pk)
    return reverse(name, args=[pk])


@receiver(setting_changed)
def _forget(*, setting: str, **_) -> None:
    if setting in {"ROOT_URLCONF", "FORCE_SCRIPT_NAME"}:
        _plain.cache_clear()
        _with_pk.cache_clear()
