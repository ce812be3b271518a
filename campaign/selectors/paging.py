"""Long lists are shown a page at a time, with real ``?page=N`` links."""

from __future__ import annotations

from django.core.paginator import Page, Paginator


def paginate(items, number: int | str | None, *, per_page: int, count: int | None = None) -> Page:
    """One page of ``items`` (two queries for a queryset: the count and the slice; one
    when the caller knows ``count``, how many ``items`` there are, already).

    A missing or nonsense ``number`` gives the first page; one past the end, the last.
    """
    paginator = Paginator(items, per_page)
    if count is not None:
        paginator.count = count  # a cached property: the count isn't asked again
    return paginator.get_page(number)
