"""Several rows of one table written in one UPDATE, each with its own values.

Django's `bulk_update` does the same in one query, but builds the statement through the
ORM: a `When(pk=...)` filter per row and field, each resolved and compiled, about a
millisecond a card for the five tallies a battle's end writes (25 ms of a 2x10 battle's
end, where the database takes a fraction of one). `update_rows` writes the statement
itself: the values are turned into what the database stores by their fields, as the
ORM does, and each field's new value is cast to its column's type where the database
needs it, as Django's own does (PostgreSQL, for the type of a parameter inside a CASE).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connections, router
from django.db.models import Model

MOST_PARAMETERS = 900
"""Parameters per statement: below SQLite's oldest limit (999), far below PostgreSQL's."""


def update_rows(rows: Sequence[Model], fields: Sequence[str]) -> None:
    """Save ``fields`` of each of ``rows`` (saved instances of one model), as
    ``Model.objects.bulk_update(rows, fields)`` would: one UPDATE (more past
    `MOST_PARAMETERS`), no signals, no ``auto_now``."""
    if not rows:
        return
    model = type(rows[0])
    meta = model._meta
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    pk = meta.pk
    columns = [meta.get_field(name) for name in fields]
    cast = connection.features.requires_casted_case_in_updates
    per_row = 2 * len(columns) + 1
    batch = max(1, MOST_PARAMETERS // per_row)
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        keys = [pk.get_db_prep_value(row.pk, connection) for row in chunk]
        sets, params = [], []
        for field in columns:
            cases = " ".join(["WHEN %s THEN %s"] * len(chunk))
            for key, row in zip(keys, chunk, strict=True):
                value = field.get_db_prep_save(getattr(row, field.attname), connection)
                params += [key, value]
            column = f"CASE {quote(pk.column)} {cases} END"
            if cast:
                column = f"CAST({column} AS {field.cast_db_type(connection)})"
            sets.append(f"{quote(field.column)} = {column}")
        where = ", ".join(["%s"] * len(chunk))
        sql = (
            f"UPDATE {quote(meta.db_table)} SET {', '.join(sets)} "
            f"WHERE {quote(pk.column)} IN ({where})"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, *keys])
