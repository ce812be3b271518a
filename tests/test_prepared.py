"""Queries compiled once and run again with new values give what the ORM gives."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
from django.db import connection, connections
from django.db.models import Count, Prefetch
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.models import BattleHonour, BattleScar, HistoryEntry, Unit
from campaign.prepared import Prepared, fetch_shaped, fetch_together, give_related
from tests.services.veterans import veteran_force

pytestmark = pytest.mark.django_db

HONOURS = Prepared(
    lambda unit: BattleHonour.objects.filter(unit=unit, status=BattleHonour.Status.ACTIVE),
    unit=int,
)
EVERY_HONOUR = Prepared(lambda unit: BattleHonour.objects.filter(unit=unit), unit=int)
EVERY_FORCE_HONOUR = Prepared(
    lambda force: BattleHonour.objects.filter(unit__force=force).order_by("unit", "pk"),
    force=int,
)
SCARS = Prepared(lambda unit: BattleScar.objects.filter(unit=unit), unit=int)
NAMES = Prepared(
    lambda force, status: (
        Unit.objects.filter(force=force, status=status)
        .order_by("name")
        .values_list("name", flat=True)
    ),
    force=int,
    status=str,
)
ROWS = Prepared(
    lambda unit: (
        HistoryEntry.objects.filter(unit=unit)
        .order_by("-created_at", "-pk")
        .values_list("pk", "created_at", "changes")
    ),
    unit=int,
)


def _fields(instance) -> dict:
    return {k: v for k, v in vars(instance).items() if not k.startswith("_")}


def _same(prepared: list, queryset) -> None:
    expected = list(queryset)
    assert [type(row) for row in prepared] == [type(row) for row in expected]
    assert [_fields(row) for row in prepared] == [_fields(row) for row in expected]


def test_model_instances_match_the_orm_for_every_card_and_every_field():
    force = veteran_force()
    units = list(force.units.all())
    # Dates, JSON lists, yes/no and null foreign keys all come back as the ORM gives them.
    assert BattleHonour.objects.filter(unit__force=force).exclude(modifications=[]).exists()
    assert BattleHonour.objects.filter(unit__force=force, lost_at__isnull=False).exists()
    assert len(units) >= 3
    for unit in units:
        _same(HONOURS.fetch(unit=unit.pk), unit.honours.filter(status="active"))
        _same(EVERY_HONOUR.fetch(unit=unit.pk), unit.honours.all())
        _same(SCARS.fetch(unit=unit.pk), unit.scars.all())
    honours = EVERY_HONOUR.fetch(unit=units[0].pk)
    assert honours and all(h._state.db == "default" and not h._state.adding for h in honours)
    # An instance it built saves like any other.
    honours[0].lost_reason = "Saved back"
    honours[0].save(update_fields=["lost_reason"])
    assert BattleHonour.objects.get(pk=honours[0].pk).lost_reason == "Saved back"


def test_values_list_rows_and_flat_lists_match_the_orm():
    force = veteran_force()
    expected = list(force.units.filter(status="active").order_by("name").values_list("name"))
    assert NAMES.fetch(force=force.pk, status="active") == [name for (name,) in expected]
    assert NAMES.fetch(force=force.pk, status="removed") == list(
        force.units.filter(status="removed").order_by("name").values_list("name", flat=True)
    )
    assert NAMES.fetch(force=force.pk + 1000, status="active") == []
    unit = force.units.order_by("pk").first()
    expected_rows = list(
        unit.history.order_by("-created_at", "-pk").values_list("pk", "created_at", "changes")
    )
    assert expected_rows and ROWS.fetch(unit=unit.pk) == expected_rows


def test_one_query_per_fetch_compiled_once_per_connection():
    force = veteran_force()
    unit = force.units.order_by("pk").first()
    SCARS.fetch(unit=unit.pk)
    with CaptureQueriesContext(connection) as queries:
        SCARS.fetch(unit=unit.pk)
        SCARS.fetch(unit=unit.pk + 1)
    assert len(queries) == 2
    compiled = connections["default"].__dict__["_crusade_prepared"][SCARS]
    SCARS.fetch(unit=unit.pk)
    assert connections["default"].__dict__["_crusade_prepared"][SCARS] is compiled


def test_each_thread_compiles_on_its_own_connection():
    seen = {}

    def compile_here():
        own = connections["default"]
        seen["same"] = own is main
        seen["compiled"] = SCARS._compiled(own)
        own.close()

    main = connections["default"]
    here = SCARS._compiled(main)
    worker = threading.Thread(target=compile_here)
    worker.start()
    worker.join()
    assert seen["same"] is False
    assert seen["compiled"] is not here
    assert seen["compiled"].sql == here.sql


JOINED = Prepared(
    lambda force: (
        BattleHonour.objects.filter(unit__force=force)
        .select_related("unit__force", "promotion")
        .annotate(scars=Count("unit__scars"))
        .order_by("pk")
    ),
    force=int,
)
PREFETCHED = Prepared(
    lambda force: Unit.objects.filter(force=force).prefetch_related("honours").order_by("pk"),
    force=int,
)
DICTS = Prepared(
    lambda force, after: (
        HistoryEntry.objects.filter(force=force, created_at__gt=after)
        .order_by("pk")
        .values("pk", "action", "created_at")
    ),
    force=int,
    after=datetime,
)


def test_joined_models_annotations_prefetches_and_dictionaries_match_the_orm():
    force = veteran_force()
    got = JOINED.fetch(force=force.pk)
    expected = list(JOINED.build(force=force.pk))
    assert len(got) >= 3
    _same(got, expected)
    for one, other in zip(got, expected, strict=True):
        assert _fields(one.unit) == _fields(other.unit)
        assert _fields(one.unit.force) == _fields(other.unit.force)
        assert (one.promotion and _fields(one.promotion)) == (
            other.promotion and _fields(other.promotion)
        )
    with CaptureQueriesContext(connection) as queries:
        units = PREFETCHED.fetch(force=force.pk)
        honours = {unit.pk: [_fields(h) for h in unit.honours.all()] for unit in units}
    assert len(queries) == 2
    assert honours == {
        unit.pk: [_fields(h) for h in unit.honours.all()] for unit in force.units.all()
    }
    middle = HistoryEntry.objects.filter(force=force).order_by("pk")[3].created_at
    expected_rows = list(DICTS.build(force=force.pk, after=middle))
    assert expected_rows and DICTS.fetch(force=force.pk, after=middle) == expected_rows
    assert DICTS.fetch(force=force.pk, after=timezone.now() + timedelta(days=1)) == []


def test_reads_fetched_together_give_what_each_gives_alone(monkeypatch):
    """`fetch_together`: the same lists as one fetch each, every shape, prefetches included;
    on PostgreSQL, sent in one pipeline (one round trip)."""
    force = veteran_force()
    unit = force.units.order_by("pk").first()
    middle = HistoryEntry.objects.filter(force=force).order_by("pk")[3].created_at
    reads = [
        (JOINED, {"force": force.pk}),
        (PREFETCHED, {"force": force.pk}),
        (DICTS, {"force": force.pk, "after": middle}),
        (NAMES, {"force": force.pk, "status": Unit.Status.ACTIVE}),
        (SCARS, {"unit": unit.pk}),
        (ROWS, {"unit": unit.pk + 10**6}),
    ]
    alone = [prepared.fetch(**values) for prepared, values in reads]
    pipelines = []
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        raw = type(connection.connection)
        opened = raw.pipeline
        monkeypatch.setattr(raw, "pipeline", lambda self: pipelines.append(1) or opened(self))

    with CaptureQueriesContext(connection) as queries:
        together = fetch_together(*reads)

    assert len(queries) == len(reads) + 1  # and the prefetch of PREFETCHED's honours
    assert pipelines == ([1] if connection.vendor == "postgresql" else [])
    for got, expected in zip(together, alone, strict=True):
        if got and hasattr(got[0], "_meta"):
            _same(got, expected)
        else:
            assert got == expected
    units = together[1]
    assert [[_fields(h) for h in u.honours.all()] for u in units] == [
        [_fields(h) for h in u.honours.all()] for u in alone[1]
    ]
    assert together[-1] == [] and all(together[:4])


@pytest.mark.parametrize(
    "build, kind, message",
    [
        (lambda unit: Unit(pk=unit).honours.all(), int, "not a relation"),
        (lambda unit: Unit.objects.filter(pk=unit).iterator(), int, "no attribute"),
        (lambda unit: Unit.objects.filter(name__icontains=unit), str, "not one of its values"),
        (lambda unit: Unit.objects.filter(pk__in=range(unit % 2 + 1)), int, "more than"),
        (lambda unit: Unit.objects.all(), int, "unit not found"),
    ],
    ids=["related manager", "not a queryset", "changed value", "changing sql", "unused"],
)
def test_refuses_what_it_cannot_run_again(build, kind, message):
    with pytest.raises((ValueError, AttributeError), match=message):
        Prepared(build, unit=kind).fetch(unit=1)


def test_values_are_ints_strings_or_datetimes():
    with pytest.raises(TypeError, match="not unit"):
        Prepared(lambda unit: Unit.objects.filter(pk=unit), unit=float)


def test_rows_given_to_their_owners_as_prefetch_related_would():
    force = veteran_force()
    units = list(force.units.order_by("pk"))
    every = EVERY_FORCE_HONOUR.fetch(force=force.pk)
    give_related(units, "honours", every)
    with CaptureQueriesContext(connection) as queries:
        given = {unit.pk: list(unit.honours.all()) for unit in units}
        owners = {honour.unit is unit for unit in units for honour in given[unit.pk]}
    assert len(queries) == 0
    assert owners == {True}  # each row's owner is the very instance it was given to
    expected = {
        unit.pk: list(unit.honours.all())
        for unit in Unit.objects.filter(force=force).prefetch_related(
            Prefetch("honours", BattleHonour.objects.order_by("pk"))
        )
    }
    assert {pk: [h.pk for h in rows] for pk, rows in given.items()} == {
        pk: [h.pk for h in rows] for pk, rows in expected.items()
    }
    assert sum(map(len, given.values())) == len(every) > 0
    # An owner with no row among them has an empty relation, not a query.
    give_related(units, "honours", [])
    with CaptureQueriesContext(connection) as queries:
        assert [list(unit.honours.all()) for unit in units] == [[] for _ in units]
    assert len(queries) == 0


def _page(force, order: str, start: int, end: int):
    """A list's page as an admin builds it afresh on every look."""
    return Unit.objects.filter(force=force).select_related("force").order_by(order, "pk")[start:end]


def test_a_shaped_query_gives_what_the_orm_gives_and_compiles_once_per_key(monkeypatch):
    force = veteran_force()
    key = ("units", force.pk, "name", 0, 3)
    _same(fetch_shaped(key, _page(force, "name", 0, 3)), _page(force, "name", 0, 3))
    compiled = connections["default"].__dict__["_crusade_shapes"][key]
    monkeypatch.setattr(Prepared, "_compile", lambda *_: pytest.fail("compiled again"))
    with CaptureQueriesContext(connection) as queries:
        again = fetch_shaped(key, _page(force, "name", 0, 3))
    assert len(queries) == 1
    assert connections["default"].__dict__["_crusade_shapes"][key] is compiled
    _same(again, _page(force, "name", 0, 3))


def test_a_shaped_query_reads_the_rows_as_they_are_now():
    force = veteran_force()
    key = ("units", force.pk, "name", 0, 10)
    before = fetch_shaped(key, _page(force, "name", 0, 10))
    Unit.objects.filter(pk=before[0].pk).update(name="Aaa renamed")
    after = fetch_shaped(key, _page(force, "name", 0, 10))
    assert after[0].name == "Aaa renamed"
    assert {u.pk for u in after} == {u.pk for u in before}


def test_each_key_keeps_its_own_sql_and_a_connection_keeps_the_last_few(monkeypatch):
    force = veteran_force()
    first_two = fetch_shaped(("a",), _page(force, "name", 0, 2))
    the_rest = fetch_shaped(("b",), _page(force, "name", 2, 10))
    _same(first_two, _page(force, "name", 0, 2))
    _same(the_rest, _page(force, "name", 2, 10))
    assert len(first_two) == 2 and the_rest
    assert {u.pk for u in first_two}.isdisjoint({u.pk for u in the_rest})
    monkeypatch.setattr("campaign.prepared.KEPT_SHAPES", 2)
    fetch_shaped(("c",), _page(force, "-name", 0, 2))
    assert list(connections["default"].__dict__["_crusade_shapes"]) == [("b",), ("c",)]
