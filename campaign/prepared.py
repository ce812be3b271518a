"""ORM queries compiled once and run again with new values.

Building a query's SQL costs Django far more than SQLite or PostgreSQL take to answer a
small one: a card's honours cost 0.5 ms to build and 0.05 ms to run. A page that asks a
dozen such questions on every look spends most of its time compiling the same SQL.

`Prepared` takes a function that builds a queryset from named values, compiles it once
per database connection with stand-in values, finds where each value went among the
query's parameters (by compiling it twice with different stand-ins), and from then on
runs that SQL with the real values. It returns what the queryset would, as a list:
model instances (with what `select_related` joined and the annotations), dictionaries
for `values()`, or rows for `values_list`. Its `prefetch_related` lookups are then
fetched the ORM's way.

Only for queries whose SQL depends on nothing but the names given: every other value in
the queryset (a status, a limit) is fixed when it is first compiled, so a query built
from the time of day or the settings must not be prepared (pass the time as a value).
Values are ints, strings or aware datetimes, compared as given: a value a lookup
changes (``icontains`` wraps it in ``%``) is refused when compiled, as are querysets
reached through a related manager and those whose SQL changes with the values.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet, prefetch_related_objects
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    ValuesIterable,
    ValuesListIterable,
    get_related_populators,
)

_stand_ins = itertools.count(1)
_FAR_OFF = datetime(2900, 1, 1, tzinfo=UTC)
KINDS = (int, str, datetime)


def give_related(owners: list, name: str, rows: list) -> None:
    """Make each owner's reverse relation ``name`` (``owner.<name>.all()``) hold its rows
    among ``rows``, in their order, as ``prefetch_related`` would, and give each row its
    owner: rows fetched for all the owners at once by one prepared query."""
    if not owners:
        return
    field = getattr(owners[0], name).field
    by_owner: dict[Any, list] = {}
    for row in rows:
        by_owner.setdefault(getattr(row, field.attname), []).append(row)
    cache_name = field.remote_field.cache_name
    for owner in owners:
        mine = by_owner.get(owner.pk, [])
        for row in mine:
            field.set_cached_value(row, owner)
        queryset = getattr(owner, name).get_queryset()
        queryset._result_cache = mine
        queryset._prefetch_done = True
        owner.__dict__.setdefault("_prefetched_objects_cache", {})[cache_name] = queryset


def _stand_in(kind: type, round: int) -> Any:
    """A value no real query passes, of the type the real value will have (an int that
    fits a 32-bit column: Django finds nothing for one that doesn't, without asking)."""
    number = 2_000_000_000 + next(_stand_ins) * 2 + round
    if kind is int:
        return number
    if kind is datetime:
        return _FAR_OFF + timedelta(seconds=number)
    return f"\x1fprepared-{number}"


def _as_passed(connection, kind: type, value: Any) -> Any:
    """``value`` as the ORM passes it to the database."""
    if kind is datetime:
        return connection.ops.adapt_datetimefield_value(value)
    return value


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[tuple[int, str], ...]
    """(position in params, name of the value that goes there)."""
    compiler: Any
    converters: dict
    shape: str
    """"model", "dicts", "rows" or "flat"."""
    model: type | None
    init_list: tuple[str, ...]
    model_columns: tuple[int, int]
    related_populators: tuple
    annotations: tuple[tuple[str, int], ...]
    names: tuple[str, ...]
    """The keys of `values()` dictionaries."""
    prefetches: tuple


class Prepared:
    """One query, compiled once per connection; `fetch(**values)` runs it."""

    def __init__(self, build: Callable[..., QuerySet], **kinds: type) -> None:
        unknown = [name for name, kind in kinds.items() if kind not in KINDS]
        if unknown:
            raise TypeError(f"values are ints, strings or datetimes, not {', '.join(unknown)}")
        self.build = build
        self.kinds = kinds
        self._label = getattr(build, "__qualname__", repr(build))

    def __repr__(self) -> str:
        return f"Prepared({self._label})"

    def _compile(self, connection) -> _Compiled:
        alias = connection.alias
        rounds = []
        for round in (0, 1):
            values = {name: _stand_in(kind, round) for name, kind in self.kinds.items()}
            queryset = self.build(**values)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            passed = {n: _as_passed(connection, self.kinds[n], v) for n, v in values.items()}
            rounds.append((passed, queryset, compiler, sql, tuple(params)))
        (first, queryset, compiler, sql, params), (second, _, _, sql_again, params_again) = rounds
        if sql != sql_again or len(params) != len(params_again):
            raise ValueError(f"{self}: its SQL depends on more than its values")
        if queryset._known_related_objects:
            raise ValueError(f"{self}: build it from the model's manager, not a relation's")
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
        model, init_list, columns, populators, annotations, names = None, (), (0, 0), (), (), ()
        if iterable is ModelIterable:
            klass_info = compiler.klass_info
            fields = klass_info["select_fields"]
            columns = (fields[0], fields[-1] + 1)
            init_list = tuple(column[0].target.attname for column in select[slice(*columns)])
            populators = tuple(get_related_populators(klass_info, select, alias))
            annotations = tuple(compiler.annotation_col_map.items())
            shape, model = "model", klass_info["model"]
        elif iterable is ValuesIterable:
            query = queryset.query
            names = (*query.extra_select, *query.values_select, *query.annotation_select)
            shape = "dicts"
        elif iterable in (ValuesListIterable, FlatValuesListIterable):
            shape = "flat" if iterable is FlatValuesListIterable else "rows"
        else:
            raise ValueError(f"{self}: only instances, values() and values_list() are prepared")
        return _Compiled(
            sql=sql,
            params=params,
            slots=tuple(slots),
            compiler=compiler,
            converters=converters,
            shape=shape,
            model=model,
            init_list=init_list,
            model_columns=columns,
            related_populators=populators,
            annotations=annotations,
            names=names,
            prefetches=tuple(queryset._prefetch_related_lookups),
        )

    def _compiled(self, connection) -> _Compiled:
        # Per connection wrapper (one per thread): the converters belong to it.
        cache = connection.__dict__.setdefault("_crusade_prepared", {})
        compiled = cache.get(self)
        if compiled is None:
            compiled = cache[self] = self._compile(connection)
        return compiled

    def model(self, using: str = DEFAULT_DB_ALIAS) -> type | None:
        """The model whose instances `fetch` returns (None for values() and values_list())."""
        return self._compiled(connections[using]).model

    def fetch(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list:
        """What the queryset built from `values` holds, as a list."""
        connection = connections[using]
        compiled = self._compiled(connection)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, self._params(connection, compiled, values))
            rows = cursor.fetchall()
        return self._shaped(compiled, rows, using)

    def _params(self, connection, compiled: _Compiled, values: dict[str, Any]) -> list:
        params = list(compiled.params)
        for position, name in compiled.slots:
            params[position] = _as_passed(connection, self.kinds[name], values[name])
        return params

    def _shaped(self, compiled: _Compiled, rows: list, using: str) -> list:
        """The rows as the queryset would give them."""
        if compiled.converters:
            rows = list(compiled.compiler.apply_converters(rows, compiled.converters))
        shape = compiled.shape
        if shape == "flat":
            return [row[0] for row in rows]
        if shape == "rows":
            return [tuple(row) for row in rows]
        if shape == "dicts":
            names = compiled.names
            return [dict(zip(names, row, strict=True)) for row in rows]
        return self._instances(compiled, rows, using)

    @staticmethod
    def _instances(compiled: _Compiled, rows: list, using: str) -> list:
        start, end = compiled.model_columns
        from_db, names = compiled.model.from_db, compiled.init_list
        populators, annotations = compiled.related_populators, compiled.annotations
        instances = []
        for row in rows:
            instance = from_db(using, names, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            for name, position in annotations:
                setattr(instance, name, row[position])
            instances.append(instance)
        if compiled.prefetches and instances:
            prefetch_related_objects(instances, *compiled.prefetches)
        return instances


def fetch_together(
    *reads: tuple[Prepared, dict[str, Any]], using: str = DEFAULT_DB_ALIAS
) -> list[list]:
    """What each ``(prepared, values)`` fetches, in order. On PostgreSQL the queries go
    to the server together and their answers come back together (psycopg's pipeline
    mode): a page's reads cost one round trip instead of one each, where a round trip
    costs as much as running a small query. Elsewhere they run one after another.
    Prefetched relations are fetched after, the ORM's way."""
    connection = connections[using]
    if connection.vendor != "postgresql" or len(reads) < 2:
        return [prepared.fetch(using, **values) for prepared, values in reads]
    compiled = [prepared._compiled(connection) for prepared, _ in reads]
    connection.ensure_connection()
    cursors = [connection.cursor() for _ in reads]
    try:
        with connection.connection.pipeline():
            for cursor, done, (prepared, values) in zip(cursors, compiled, reads, strict=True):
                cursor.execute(done.sql, prepared._params(connection, done, values))
            answers = [cursor.fetchall() for cursor in cursors]
    finally:
        for cursor in cursors:
            cursor.close()
    return [
        prepared._shaped(done, rows, using)
        for (prepared, _), done, rows in zip(reads, compiled, answers, strict=True)
    ]


def by_pk(queryset: Callable[[], QuerySet]) -> Prepared:
    """The row of one primary key among ``queryset()``'s, compiled once: what the access
    helpers fetch one object with (`campaign.access`)."""
    return Prepared(lambda pk: queryset().filter(pk=pk), pk=int)


KEPT_SHAPES = 64
"""How many `fetch_shaped` queries a connection keeps compiled (the last asked)."""


def fetch_shaped(key: Hashable, queryset: QuerySet, using: str = DEFAULT_DB_ALIAS) -> list:
    """What ``queryset`` holds, as a list, its SQL compiled once per connection for each
    ``key``: for a queryset built afresh on every request from nothing but what ``key``
    names (a list's scope, order and slice), whose values are too many to prepare with
    `Prepared`. The caller vouches for the key: any value of the queryset it doesn't name
    is fixed when it is first compiled, as a `Prepared`'s are."""
    connection = connections[using]
    shapes = connection.__dict__.setdefault("_crusade_shapes", OrderedDict())
    found = shapes.get(key)
    if found is None:
        prepared = Prepared(queryset.all)
        found = shapes[key] = (prepared, prepared._compile(connection))
        while len(shapes) > KEPT_SHAPES:
            shapes.popitem(last=False)
    else:
        shapes.move_to_end(key)
    prepared, compiled = found
    with connection.cursor() as cursor:
        cursor.execute(compiled.sql, list(compiled.params))
        rows = cursor.fetchall()
    return prepared._shaped(compiled, rows, using)
