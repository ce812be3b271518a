"""Numbers with bounds, declared once on the model field.

A number field of a model names its least and most values as validators (``between``),
from the constants in `campaign.models` that its CheckConstraints use too. Its form field
takes them from there: in the admin's forms, in the player's forms and in any plain form
built from it (`forms.fields_for_model`, `number_field`). A number out of range is then an
error next to its field, and the browser is told the range (``min`` and ``max``).

Outside a model form Django never runs a model field's validators, and a form field made
from a model field gets no largest value: 10**30 went on to the database (a 500 on
SQLite) and 2**31 was stored. Every bound also fits the column on every database
(`COLUMN_RANGES`: PostgreSQL's integer columns are the narrowest).
"""

from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import connections, models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.text import capfirst

COLUMN_RANGES: dict[str, tuple[int, int]] = BaseDatabaseOperations.integer_field_ranges
"""The least and most value of each kind of integer column, on every database."""


def between(least: int, most: int) -> list:
    """The validators of a number that fits its use: ``least`` to ``most``."""
    return [MinValueValidator(least), MaxValueValidator(most)]


def declared_range(field: models.Field) -> tuple[int | None, int | None]:
    """The least and most value a model field's own validators allow (None: no bound)."""
    own = field._validators
    lows = [v.limit_value for v in own if isinstance(v, MinValueValidator)]
    highs = [v.limit_value for v in own if isinstance(v, MaxValueValidator)]
    return max(lows, default=None), min(highs, default=None)


def range_message(least: int, most: int) -> str:
    """What a form says next to a number out of its bounds."""
    return f"Use a whole number from {least} to {most}."


class Bounded:
    """A model number field whose form fields carry its declared bounds."""

    def formfield(self, **kwargs: Any) -> forms.Field:
        if not self.choices:
            least, most = declared_range(self)
            kwargs.setdefault("min_value", least)
            kwargs.setdefault("max_value", most)
            message = range_message(kwargs["min_value"], kwargs["max_value"])
            messages = {"min_value": message, "max_value": message}
            kwargs["error_messages"] = {**messages, **kwargs.get("error_messages", {})}
        return super().formfield(**kwargs)

    def deconstruct(self) -> tuple:
        """Migrations name Django's own field: the bounds shape forms, not the column, so
        declaring them changes no table."""
        name, _, args, kwargs = super().deconstruct()
        django_field = next(c for c in type(self).__mro__ if c.__module__.startswith("django."))
        return name, f"django.db.models.{django_field.__name__}", args, kwargs


class BoundedPositiveIntegerField(Bounded, models.PositiveIntegerField):
    pass


class BoundedPositiveSmallIntegerField(Bounded, models.PositiveSmallIntegerField):
    pass


def count(most: int, *args: Any, least: int = 0, **kwargs: Any) -> BoundedPositiveIntegerField:
    """A whole number from ``least`` to ``most`` (``args`` and ``kwargs``: the field's)."""
    return BoundedPositiveIntegerField(*args, validators=between(least, most), **kwargs)


def out_of_range(model: type[models.Model], values: dict[str, Any]) -> dict[str, str]:
    """What is wrong with each of ``values`` that a bounded number field of ``model``
    cannot hold, by field: for a service given numbers no form checked (an army list,
    an admin's correction, a Requisition)."""
    found = {}
    bounded = _bounded_fields(model)
    for name, value in values.items():
        field = bounded.get(name)
        if field is None or not isinstance(value, int):
            continue
        least, most = declared_range(field)
        if not least <= value <= most:
            label = capfirst(field.verbose_name)
            found[name] = f"{label} must be from {least} to {most}, not {value}."
    return found


@functools.cache
def _bounded_fields(model: type[models.Model]) -> dict[str, models.Field]:
    """The model's bounded number fields, by name (a list's every card asks)."""
    return {f.name: f for f in model._meta.concrete_fields if isinstance(f, Bounded)}


def fits_column(field: models.Field, value: Any, using: str = "default") -> bool:
    """Whether ``value`` reads as a whole number of ``field`` that its column can hold: a
    row's id typed into an address or a form (10**30 or text must not reach the database,
    which SQLite cannot even compare past 64 bits)."""
    try:
        number = field.to_python(value)
    except ValidationError:
        return False
    if not isinstance(number, int):
        return False
    least, most = connections[using].ops.integer_field_range(field.get_internal_type())
    return least <= number <= most


def number_field(model: type[models.Model], name: str, **kwargs: Any) -> forms.Field:
    """A plain form's field for a number the model stores: the model field's bounds,
    label and help text, unless ``kwargs`` say otherwise."""
    return model._meta.get_field(name).formfield(**kwargs)
