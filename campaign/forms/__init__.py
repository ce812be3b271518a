"""Forms are the input boundary: bad input gets an error next to its field."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from campaign.bounds import fits_column

NOT_CHOSEN = ""
"""The value of a select's "nothing chosen" choice."""


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form: by field when it names one."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def short_textareas(model: type[models.Model], fields) -> dict[str, forms.Widget]:
    """Three-line text areas for the model's text fields among ``fields``."""
    return {
        name: forms.Textarea(attrs={"rows": 3})
        for name in fields
        if isinstance(model._meta.get_field(name), models.TextField)
    }


class IdsField(forms.ModelMultipleChoiceField):
    """Rows chosen by their ids (ticked boxes): each id must be a whole number a primary
    key can hold before the database is asked. Django checks a list of ids with one
    ``pk IN (...)`` query, and SQLite cannot even compare a number past 64 bits: it raised
    OverflowError, a 500, where the player should see which choice is not valid."""

    def clean(self, value):
        if isinstance(value, list | tuple):
            for pk in value:
                self._require_id(pk)
        return super().clean(value)

    def _require_id(self, pk) -> None:
        if not fits_column(self.queryset.model._meta.pk, pk, self.queryset.db):
            raise ValidationError(
                self.error_messages["invalid_pk_value"],
                code="invalid_pk_value",
                params={"pk": pk},
            )
