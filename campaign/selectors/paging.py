"""Long lists are shown a page at a time, with real ``?page=N`` links."""

from __future__ import annotations

from collections.abc import Callable

from django.core.paginator import Page, Paginator


def paginate(
    items,
    number: int | str | None,
    *,
    per_page: int,
    count: int | None = None,
    first_page: Callable[[], list] | None = None,
) -> Page:
    """One page of ``items`` (two queries for a queryset: the count and the slice; one
    when the caller knows ``count``, how many ``items`` there are, already).
    ``first_page``, when given, reads the first ``per_page`` items (a prepared query,
    `campaign.prepared`) in place of slicing ``items``; ``items`` may then be a function
    that gives them, called only for another page.

    A missing or nonsense ``number`` gives the first page; one past the end, the last.
    """
    if first_page is not None:
        items = _FirstPageRead(items, first_page)
    paginator = Paginator(items, per_page)
    if count is not None:
        paginator.count = count  # a cached property: the count isn't asked again
    return paginator.get_page(number)


class _FirstPageRead:
    """Items for the paginator whose first page another query reads."""

    def __init__(self, items, first_page: Callable[[], list]) -> None:
        self.items, self.first_page = items, first_page

    def __getitem__(self, wanted):
        if isinstance(wanted, slice) and not wanted.start:
            return self.first_page()[: wanted.stop] if wanted.stop else []
        if callable(self.items):
            self.items = self.items()
        return self.items[wanted]
