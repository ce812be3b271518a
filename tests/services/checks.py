"""What the service tests check: "nothing changed", what a player reads, the history."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db.models.fields.files import FieldFile

from campaign.models import BattleHonour, BattleScar, CrusadeForce, HistoryEntry, Unit


def _value(obj, f):
    value = f.value_from_object(obj)
    return value.name if isinstance(value, FieldFile) else value


def row(obj) -> dict:
    """Every stored field of one row."""
    return {f.attname: _value(obj, f) for f in obj._meta.concrete_fields}


def database_state() -> dict[str, list[dict]]:
    """Every row of every Crusade table: equal before and after means nothing changed."""
    return {
        model.__name__: [row(obj) for obj in model.objects.order_by("pk")]
        for model in apps.get_app_config("campaign").get_models()
    }


def card_snapshot(*forces: CrusadeForce) -> dict:
    """Every force field, every unit field, and the (name, status) of each card's honours
    and scars. Voided rows are left out: a void keeps them as history (style rule 4), so
    they are not part of what the card holds; so is the force's revision, which counts
    its history rows."""
    snap: dict = {}
    for force in CrusadeForce.objects.filter(pk__in=[f.pk for f in forces]):
        snap[f"force {force.pk}"] = row(force)
        del snap[f"force {force.pk}"]["revision"]
        for unit in Unit.objects.filter(force=force):
            snap[f"unit {unit.pk}"] = row(unit)
            snap[f"honours of {unit.pk}"] = {
                (h.name, h.status) for h in unit.honours.exclude(status=BattleHonour.Status.VOIDED)
            }
            snap[f"scars of {unit.pk}"] = {
                (s.name, s.status) for s in unit.scars.exclude(status=BattleScar.Status.VOIDED)
            }
    return snap


@contextlib.contextmanager
def refused(message: str | None = None, *, containing: Sequence[str] = ()) -> Iterator:
    """Expect a ValidationError, check what the player reads, and that nothing changed.

    "Nothing changed" means every row of every Crusade table reads the same afterwards,
    and in particular no HistoryEntry was written.
    """
    before = database_state()
    history = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as info:
        yield info
    seen = " ".join(info.value.messages)
    if message is not None:
        assert seen == message
    for part in containing:
        assert part in seen
    assert HistoryEntry.objects.count() == history
    assert database_state() == before


def latest_history(action: str, **filters) -> HistoryEntry:
    return HistoryEntry.objects.filter(action=action, **filters).order_by("-pk").first()
