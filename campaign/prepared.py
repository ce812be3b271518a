"""ORM queries compiled once and run again with new values.

Building a query's SQL costs Django far more than SQLite or PostgreSQL take to answer a
small one: a card's honours cost 0.5 ms to build and 0.05 ms to run. A page that asks a
dozen such questions on every first look spends most of its time compiling the same SQL.

`Prepared` takes a function that builds a queryset from named values, compiles it once
per database connection with stand-in values, finds where each value went among the
query's parameters (by compiling it twice with different stand-ins), and from then on
runs that SQL with the real values. It returns what the queryset would: model instances
(through `Model.from_db`, with the database's converters applied), or rows for
`values_list`.

Only for queries whose SQL depends on nothing but the names given: every other value in
the queryset (a status, a limit) is fixed when it is first compiled, so a query built
from the time of day or the settings must not be prepared. Each value is passed as the
database takes it (ints and strings as they are). Queries with `select_related`,
`values()` dictionaries or anything Django builds in several steps (prefetches) are
refused when compiled.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import FlatValuesListIterable, ModelIterable, ValuesListIterable

_stand_ins = itertools.count(1)


def _stand_in(kind: type, round: int) -> Any:
    """A value no real query passes, of the type the real value will have."""
    number = 9_000_000_000 + next(_stand_ins) * 2 + round
    return number if kind is int else f"\x1fprepared-{number}"


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[tuple[int, str], ...]
    """(position in params, name of the value that goes there)."""
    compiler: Any
    converters: dict
    shape: str
    """"model", "rows" or "flat"."""
    model: type | None
    init_list: tuple[str, ...]
    model_columns: tuple[int, int]


class Prepared:
    """One query, compiled once per connection; `fetch(**values)` runs it."""

    def __init__(self, build: Callable[..., QuerySet], **kinds: type) -> None:
        self.build = build
        self.kinds = kinds
        self._label = getattr(build, "__qualname__", repr(build))

    def __repr__(self) -> str:
        return f"Prepared({self._label})"

    def _compile(self, alias: str) -> _Compiled:
        rounds = []
        for round in (0, 1):
            values = {name: _stand_in(kind, round) for name, kind in self.kinds.items()}
            queryset = self.build(**values)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            rounds.append((values, queryset, compiler, sql, tuple(params)))
        (first, queryset, compiler, sql, params), (second, _, _, sql_again, params_again) = rounds
        if sql != sql_again or len(params) != len(params_again):
            raise ValueError(f"{self}: its SQL depends on more than its values")
        slots = []
        for position, (one, other) in enumerate(zip(params, params_again, strict=True)):
            if one == other:
                continue
            name = next((n for n in self.kinds if first[n] == one and second[n] == other), None)
            if name is None:
                raise ValueError(f"{self}: a parameter changed that is not one of its values")
            slots.append((position, name))
        missing = set(self.kinds) - {name for _, name in slots}
        if missing:
            raise ValueError(f"{self}: {', '.join(sorted(missing))} not found in its SQL")
        select = compiler.select
        converters = compiler.get_converters([column for column, _, _ in select])
        iterable = queryset._iterable_class
        if iterable is ModelIterable:
            klass_info = compiler.klass_info
            if klass_info.get("related_klass_infos") or compiler.annotation_col_map:
                raise ValueError(f"{self}: only plain model queries can be prepared")
            fields = klass_info["select_fields"]
            start, end = fields[0], fields[-1] + 1
            init_list = tuple(column[0].target.attname for column in select[start:end])
            shape, model = "model", queryset.model
        elif iterable in (ValuesListIterable, FlatValuesListIterable):
            start, end, init_list, model = 0, len(select), (), None
            shape = "flat" if iterable is FlatValuesListIterable else "rows"
        else:
            raise ValueError(f"{self}: only model instances and values_list can be prepared")
        return _Compiled(
            sql, params, tuple(slots), compiler, converters, shape, model, init_list, (start, end)
        )

    def _compiled(self, connection) -> _Compiled:
        # Per connection wrapper (one per thread): the converters belong to it.
        cache = connection.__dict__.setdefault("_crusade_prepared", {})
        compiled = cache.get(self)
        if compiled is None:
            compiled = cache[self] = self._compile(connection.alias)
        return compiled

    def fetch(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list:
        """What the queryset built from `values` holds, as a list."""
        connection = connections[using]
        compiled = self._compiled(connection)
        params = list(compiled.params)
        for position, name in compiled.slots:
            params[position] = values[name]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if compiled.converters:
            rows = list(compiled.compiler.apply_converters(rows, compiled.converters))
        if compiled.shape == "flat":
            return [row[0] for row in rows]
        if compiled.shape == "rows":
            return [tuple(row) for row in rows]
        start, end = compiled.model_columns
        from_db, names = compiled.model.from_db, compiled.init_list
        return [from_db(using, names, row[start:end]) for row in rows]
