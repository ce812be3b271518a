"""What every view shares: bound-on-POST forms, rendering with the rules' labels, and
the one edit-details and one picture-upload flow for forces and cards."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.safestring import SafeString

from campaign.forms import add_service_errors
from campaign.selectors import LABELS, versions
from campaign.selectors.live import Watch
from campaign.selectors.versions import FRAGMENT_SECONDS


def posted(request: HttpRequest) -> QueryDict | None:
    """The submitted data on POST (even when empty, so the form is bound), else None."""
    return request.POST if request.method == "POST" else None


def posted_value(request: HttpRequest, name: str) -> str:
    """Which button (or choice) a POST carried; "" on GET."""
    return request.POST.get(name, "") if request.method == "POST" else ""


def page_number(request: HttpRequest, param: str = "page") -> str | None:
    """The ``?page=`` (or other ``param``) a paginated list was asked for (the paginator
    checks it)."""
    return request.GET.get(param)


def _with_labels(context: dict) -> dict:
    return {"labels": LABELS, "fragment_seconds": FRAGMENT_SECONDS, **context}


def render_page(
    request: HttpRequest, template: str, context: dict, *, status: int = 200
) -> HttpResponse:
    """Render a page (or a partial, ``template#name``) with the rules' names as ``labels``."""
    return render(request, template, _with_labels(context), status=status)


def render_part(request: HttpRequest, template: str, context: dict) -> str:
    """One partial as a string, for responses made of several htmx regions."""
    return render_to_string(template, _with_labels(context), request=request)


def kept(key: str, build: Callable[[], Any], *, keep: Callable[[Any], bool] = bool) -> Any:
    """A page's part under ``key`` in the fragments' cache (`selectors.versions.kept`)."""
    return versions.kept(key, build, keep=keep, alias="template_fragments")


def _holds_no_form(part: str) -> bool:
    return "<form" not in part


def kept_part(key: str, build: Callable[[], str]) -> SafeString:
    """A page's part (HTML) through `kept`. A part that holds a form is never cached: its
    tokens (the CSRF token, the form's once-token) are made for one request."""
    return SafeString(kept(key, build, keep=_holds_no_form))


def unchanged(request: HttpRequest, watch: Watch) -> HttpResponse | None:
    """A 304 Not Modified when the region a poll asks for is as it last saw it (its
    If-None-Match is the region's ETag now), else None: render it again."""
    response = get_conditional_response(request, etag=watch.etag)
    return watched(response, watch) if response is not None else None


def watched(response: HttpResponse, watch: Watch) -> HttpResponse:
    """A poll's answer, with the ETag of what it shows: the browser keeps none of it
    without asking again (and an answer to htmx, which may stop its polls, apart)."""
    response["ETag"] = watch.etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    return response


STOP_POLLING = 286
"""htmx stops polling when an answer has this status (the battle is over)."""


@dataclass(frozen=True)
class Editing:
    """How a player edits one kind of object: the form, the service and the page."""

    form_class: type[forms.BaseForm]
    update: Callable[..., Model]
    """The service, called as ``update(actor=..., <kind>=obj, **changed)``."""
    kind: str
    template: str


def edit_details(request: HttpRequest, obj: Model, editing: Editing) -> HttpResponse:
    """Edit the fields of ``obj`` its player may change: the form checks the input, and
    the service saves only what changed."""
    initial = {name: getattr(obj, name) for name in editing.form_class.base_fields}
    form = editing.form_class(posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        changed = {name: form.cleaned_data[name] for name in form.changed_data}
        try:
            obj = editing.update(actor=request.user, **{editing.kind: obj}, **changed)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Saved." if changed else "Nothing to change.")
            return redirect(obj)
    return render_page(request, editing.template, {"object": obj, "form": form})


def save_picture(request: HttpRequest, form: forms.BaseForm, save: Callable, done: str) -> bool:
    """Store a checked upload with ``save(picture=..., thumbnail=...)`` (a service) and say
    so; False when the form or the service refused it (the error is then on the form)."""
    if not form.is_valid():
        return False
    picture, thumbnail = form.processed
    try:
        save(picture=picture, thumbnail=thumbnail)
    except ValidationError as error:
        add_service_errors(form, error)
        return False
    messages.success(request, done)
    return True
