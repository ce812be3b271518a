"""Long lists are shown a page at a time, with real ``?page=N`` links."""

from __future__ import annotations

from django.core.paginator import Page, Paginator


def paginate(items, number: int | str | None, *, per_page: int) -> Page:
    """One page of ``items`` (two queries for a queryset: the count and the slice).

    A missing or nonsense ``number`` gives the first page; one past the end, the last.
    """
    return Paginator(items, per_page).get_page(number)
