"""The project's URL names, read from the URL configuration.

The fuzz (tests/fuzz) and the access table (tests/views/test_permission_matrix.py) each
check that they cover every one of them, so a new URL fails both until it has a page to
fuzz and a line in the table; they must walk the patterns the same way to agree.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver

SIDE_URLS = (
    "army_muster",
    "army_muster_check",
    "army_record",
    "army_blessings",
    "army_accept",
    "army_decline",
    "army_withdraw",
)
"""The URLs of one side of a battle: each takes the side's primary key."""


def our_url_names() -> set[str]:
    """Every named URL pattern of the project: not the admin's, nor any other namespace's
    (those belong to the apps that bring them)."""
    names = set()

    def walk(patterns, namespace=None):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace != "admin":
                    walk(pattern.url_patterns, pattern.namespace)
            elif isinstance(pattern, URLPattern) and pattern.name and not namespace:
                names.add(pattern.name)

    walk(get_resolver().url_patterns)
    return names
