"""Every number a form can take declares its bounds once, on its model field, and they fit
its column on every database (issue 18, item 4: 2**31 overflows PostgreSQL's integer)."""

from django.apps import apps
from django.db import models

from campaign.bounds import COLUMN_RANGES, Bounded, declared_range
from campaign.models import MOST_POINTS, MOST_SUPPLY, CrusadeForce, OutOfActionTest, Unit


def editable_numbers() -> list[models.Field]:
    """The integer fields of the app a form could be built from (choices aside: a choice
    is bounded by its list)."""
    return [
        field
        for model in apps.get_app_config("campaign").get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, models.IntegerField)
        and not isinstance(field, models.AutoField)
        and field.editable
        and not field.choices
    ]


def test_it_bounds_every_editable_number_of_the_app_within_its_column():
    found = editable_numbers()
    assert len(found) > 20
    for field in found:
        least, most = declared_range(field)
        column_least, column_most = COLUMN_RANGES[field.get_internal_type()]
        assert isinstance(field, Bounded), field
        assert least is not None and most is not None, field
        assert column_least <= least <= most <= column_most, field


def test_it_gives_a_form_field_the_model_fields_bounds():
    supply = CrusadeForce._meta.get_field("supply_limit").formfield()
    models_ = Unit._meta.get_field("model_count").formfield()
    roll = OutOfActionTest._meta.get_field("roll").formfield()

    assert (supply.min_value, supply.max_value) == (0, MOST_SUPPLY)
    assert (models_.min_value, models_.widget.attrs["min"]) == (1, 1)
    assert (roll.min_value, roll.max_value) == (1, 6)
    assert Unit._meta.get_field("points").formfield().widget.attrs["max"] == MOST_POINTS


def test_it_names_djangos_own_field_in_migrations_so_no_table_changes():
    """The bounds are validators (not columns): a migration states them without
    rebuilding a table."""
    _, path, _, kwargs = Unit._meta.get_field("points").deconstruct()

    assert path == "django.db.models.PositiveIntegerField"
    assert len(kwargs["validators"]) == 2
