"""What every view shares: bound-on-POST forms, rendering with the rules' labels, and
the one edit-details flow for forces and cards."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string

from campaign.forms import add_service_errors
from campaign.selectors import LABELS


def posted(request: HttpRequest) -> QueryDict | None:
    """The submitted data on POST (even when empty, so the form is bound), else None."""
    return request.POST if request.method == "POST" else None


def page_number(request: HttpRequest) -> str | None:
    """The ``?page=`` a paginated list was asked for (the paginator checks it)."""
    return request.GET.get("page")


def _with_labels(context: dict) -> dict:
    return {"labels": LABELS, **context}


def render_page(
    request: HttpRequest, template: str, context: dict, *, status: int = 200
) -> HttpResponse:
    """Render a page (or a partial, ``template#name``) with the rules' names as ``labels``."""
    return render(request, template, _with_labels(context), status=status)


def render_part(request: HttpRequest, template: str, context: dict) -> str:
    """One partial as a string, for responses made of several htmx regions."""
    return render_to_string(template, _with_labels(context), request=request)


def edit_details(
    request: HttpRequest,
    obj: Model,
    *,
    form_class: type[forms.BaseForm],
    update: Callable[..., Model],
    template: str,
) -> HttpResponse:
    """Edit the fields of ``obj`` its player may change: the form checks the input, and
    ``update(**changed)`` (a service) saves only what changed."""
    initial = {name: getattr(obj, name) for name in form_class.base_fields}
    form = form_class(posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        changed = {name: form.cleaned_data[name] for name in form.changed_data}
        try:
            obj = update(**changed)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Saved." if changed else "Nothing to change.")
            return redirect(obj)
    return render_page(request, template, {"object": obj, "form": form})
