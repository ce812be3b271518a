"""Each force's wins per day it won, as the campaign page's chart draws them, kept in the
cache between looks.

An entry is kept under the force and its victories, and holds the number of the
campaign's battles voided when it was read: a completed battle the force wins moves its
victories on, and a win that no longer counts is a void, so an entry whose victories and
voids are the force's and its campaign's now is what the database would answer.

The battle that moves a force's victories from N to N + 1 knows the day it was won. Once
it is committed, `count_win` makes the entry for N + 1 from the one for N, if this
process kept it, with that day's wins one more: the look after a win then reads nothing.
A void in between leaves the new entry with the voids of before, so it is never used."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.core.cache import cache

SECONDS = 600
"""As long as the page fragments drawn from them (`selectors.versions.FRAGMENT_SECONDS`)."""


def _key(force: int, victories: int) -> str:
    return f"wins-by-day:{force}:{victories}"


def kept(forces: Iterable[tuple[int, int]], voided: int) -> dict[int, dict[datetime.date, int]]:
    """The kept wins per day of those of ``forces`` (pk, victories) that are still right
    for a campaign with ``voided`` battles voided."""
    keys = {pk: _key(pk, victories) for pk, victories in forces}
    found = cache.get_many(keys.values())
    out = {}
    for pk, key in keys.items():
        entry = found.get(key)
        if entry is not None and entry[0] == voided:
            out[pk] = entry[1]
    return out


def keep(read: dict[int, dict[datetime.date, int]], victories: dict[int, int], voided: int):
    """Keep the wins per day just ``read`` for each force, under its ``victories``."""
    cache.set_many({_key(pk, victories[pk]): (voided, wins) for pk, wins in read.items()}, SECONDS)


def count_win(force: int, victories_before: int, day: datetime.date) -> None:
    """After a committed battle that ``force`` won on ``day``, taking its victories from
    ``victories_before`` on by one: keep its wins per day under the new victories, from
    those kept under the old ones (nothing when those are not kept)."""
    entry = cache.get(_key(force, victories_before))
    if entry is None:
        return
    voided, wins = entry
    wins = {**wins, day: wins.get(day, 0) + 1}
    cache.set(_key(force, victories_before + 1), (voided, wins), SECONDS)
