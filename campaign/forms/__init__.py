"""Forms are the input boundary: bad input gets an error next to its field."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db import models


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
