"""A cheap fingerprint of the Crusade state, to tell that a refused request changed
nothing: the history, every force's and unit's numbers, the battles, their sides and
what waits after them.

Not every column: a change the services make always leaves a history row and moves one
of these numbers or statuses, so comparing them is enough and stays fast.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection

from campaign.models import (
    Battle,
    BattleHonour,
    BattleParticipant,
    BattleScar,
    BattleUnit,
    Campaign,
    CrusadeForce,
    HistoryEntry,
    Membership,
    OutOfActionTest,
    Promotion,
    RequisitionPurchase,
    Unit,
)

ROWS = (
    (CrusadeForce, ("name", "rp", "supply_limit", "battle_tally", *CrusadeForce.TOTAL_FIELDS)),
    (Unit, ("name", "status", "xp", "points", "model_count", "max_model_count")),
    (Battle, ("status",)),
    (BattleParticipant, ("invitation", "mustered", "claimed_result", "result")),
    (OutOfActionTest, ("status", "roll", "outcome")),
    (Promotion, ("status",)),
)
"""The rows whose numbers and statuses are compared, column by column."""
COUNTED = (
    HistoryEntry,
    BattleUnit,
    BattleHonour,
    BattleScar,
    RequisitionPurchase,
    Membership,
    Campaign,
)
"""The rows that are only ever added: their counts are compared."""


def fingerprint() -> tuple:
    """The state as a value: equal before and after means nothing changed. Plain SQL, one
    query per table of ROWS and one for every count: it runs after most requests."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        rows = []
        for model, columns in ROWS:
            fields = [model._meta.pk, *(model._meta.get_field(c) for c in columns)]
            names = ", ".join(quote(field.column) for field in fields)
            cursor.execute(f"SELECT {names} FROM {quote(model._meta.db_table)} ORDER BY 1")
            rows.append(tuple(cursor.fetchall()))
        tables = [model._meta.db_table for model in (*COUNTED, get_user_model())]
        counts = ", ".join(f"(SELECT COUNT(*) FROM {quote(table)})" for table in tables)
        cursor.execute(f"SELECT {counts}")
        return (*rows, *cursor.fetchone())


def difference(before: tuple, after: tuple) -> list[str]:
    """What changed, by table, for a failure message."""
    names = [m.__name__ for m, _ in ROWS] + [m.__name__ for m in COUNTED] + ["User"]
    return [
        f"{name}: {old!r} -> {new!r}"
        for name, old, new in zip(names, before, after, strict=True)
        if old != new
    ]
