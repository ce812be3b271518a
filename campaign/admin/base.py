"""The admin's building blocks: forms that save through services, and actions with a reason.

A service's refusal is shown on the form it came from: the whole save is rolled back,
then the same page is shown again from the posted data with the refusal on it (by
`campaign.forms.add_service_errors`, the helper the player forms use too). Each
service runs once per save.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from campaign.forms import add_service_errors

from .scope import OrganiserScope, can_organise

REFUSAL = "_service_refusal"
"""Where a refused save leaves the refusal on the request: (ValidationError, form prefix)."""


class InlineRefusal(Exception):
    """A service called for one inline form refused; ``prefix`` names that form."""

    def __init__(self, error: ValidationError, prefix: str) -> None:
        super().__init__(error)
        self.error = error
        self.prefix = prefix


class RefusalForm(forms.BaseForm):
    """A form that shows the refusal of the service its save called (see module doc)."""

    actor = None
    refusal: tuple[ValidationError, str | None] | None = None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.refusal is not None:
            error, prefix = self.refusal
            if prefix == self.prefix:
                add_service_errors(self, error)
        return cleaned

    def validate_unique(self) -> None:
        """Left to the services, which refuse what the database's constraints would, with
        a message next to the field; the constraints stay as the last line of defence."""

    def changed(self, names: Iterable[str]) -> dict[str, Any]:
        """The cleaned values of the fields among ``names`` that the user changed."""
        return {name: self.cleaned_data[name] for name in names if name in self.changed_data}


class ServiceForm(RefusalForm, forms.ModelForm):
    """A model form saved by services (`apply`), never by `save()`.

    `tracked_fields` are model fields shown as plain form fields, never as model-form
    fields (the admin excludes them), so only a service can change them.
    """

    tracked_fields: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tracked = forms.fields_for_model(self._meta.model, fields=self.tracked_fields)
        for name, field in tracked.items():
            self.fields[name] = field
            self.initial.setdefault(name, getattr(self.instance, name))

    def apply(self) -> Model:
        """Make the change through the services; returns the saved object."""
        raise NotImplementedError


def reason_field(label: str, help_text: str) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=500,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
    )


CORRECTION_HELP = (
    "Required when you change any tracked number: it is kept in the history "
    "with the numbers before and after."
)


class ServiceAdmin(admin.ModelAdmin):
    """Saves roll back on a service's refusal, which the page then shows (see module doc)."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            with transaction.atomic():
                return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as error:
            setattr(request, REFUSAL, (error, None))
        except InlineRefusal as refusal:
            setattr(request, REFUSAL, (refusal.error, refusal.prefix))
        return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(self, request: HttpRequest, obj: Model | None = None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.actor = request.user
        form.refusal = getattr(request, REFUSAL, None)
        return form


class ScopedInlineFormSet(forms.BaseInlineFormSet):
    """Refuses rows posted with an id that isn't one of the parent's (a tampered form):
    Django would quietly treat such a row as a new one."""

    def clean(self) -> None:
        super().clean()
        for form in self.initial_forms:
            posted = form[self.model._meta.pk.name].value()
            if posted not in (None, "") and form.instance.pk is None:
                raise ValidationError("A row of this list was changed by hand; reload the page.")


class ServiceInline:
    """An inline whose forms save through services (`apply`), like the admin's own form."""

    formset = ScopedInlineFormSet

    def get_formset(self, request: HttpRequest, obj: Model | None = None, **kwargs: Any):
        formset = super().get_formset(request, obj, **kwargs)
        formset.form.actor = request.user
        formset.form.refusal = getattr(request, REFUSAL, None)
        return formset


def save_inline_forms(formset, parent: Model, *, order=None) -> None:
    """Each changed row of an inline, through its form's services (``order`` sorts them).

    Sets what the admin's change message reads from a formset it saved itself.
    """
    changed = [form for form in formset.forms if form.has_changed()]
    if order is not None:
        changed.sort(key=order)
    formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
    for form in changed:
        is_new = form.instance.pk is None
        try:
            obj = form.apply(parent)
        except ValidationError as error:
            raise InlineRefusal(error, form.prefix) from error
        if is_new:
            formset.new_objects.append(obj)
        else:
            formset.changed_objects.append((obj, form.changed_data))


class OrganiserAdmin(OrganiserScope, ServiceAdmin):
    """A scoped admin whose add and change forms are `ServiceForm`s."""

    add_form = None
    add_fieldsets: list | None = None
    add_readonly_fields: list[str] = []

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def get_form(self, request: HttpRequest, obj: Model | None = None, change=False, **kwargs):
        if obj is None and self.add_form is not None:
            kwargs["form"] = self.add_form
        return super().get_form(request, obj, change=change, **kwargs)

    def get_exclude(self, request: HttpRequest, obj: Model | None = None):
        # Tracked numbers are never model-form fields: only a service changes them.
        form = self.form if obj is not None or self.add_form is None else self.add_form
        excluded = [*(super().get_exclude(request, obj) or []), *form.tracked_fields]
        return excluded or None

    def get_fieldsets(self, request: HttpRequest, obj: Model | None = None):
        if obj is None and self.add_fieldsets is not None:
            return self.add_fieldsets
        return super().get_fieldsets(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None):
        if obj is None:
            return self.add_readonly_fields
        return super().get_readonly_fields(request, obj)

    def get_inlines(self, request: HttpRequest, obj: Model | None):
        return self.inlines if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Model, form, change: bool) -> None:
        """The form's services save; a new object takes the identity of the one they made."""
        saved = form.apply()
        if not change:
            obj.__dict__.update(saved.__dict__)


class ReadOnlyAdmin(OrganiserScope, admin.ModelAdmin):
    """Rows only services write: organisers look, nobody adds, changes or deletes here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


# --- Actions that need a reason ----------------------------------------------------------


class ReasonForm(forms.Form):
    """The reason asked for on the intermediate page of an action (void, remove, retire)."""

    reason = forms.CharField(
        label="Reason",
        max_length=255,
        help_text="Kept in the history of everything it touches.",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
    )


@dataclass(frozen=True)
class ReasonStep:
    """A service applied to each chosen object, after asking for the reason."""

    title: str
    button: str
    done: str
    initial_reason: str = ""
    service: Callable[..., Any] | None = None
    argument: str = ""
    """The name the service gives the object (``battle``, ``unit`` ...)."""

    def of(self, service: Callable[..., Any], argument: str) -> ReasonStep:
        """This step, calling ``service(actor=..., reason=..., <argument>=obj)``."""
        return dataclasses.replace(self, service=service, argument=argument)

    def apply(self, *, actor, obj: Model, reason: str) -> Any:
        return self.service(actor=actor, reason=reason, **{self.argument: obj})


def apply_to_each(model_admin, request: HttpRequest, objects, apply, *, done: str) -> None:
    """`apply(obj)` to each object in turn; a refusal is shown for its object and the rest
    go on; `done` (with ``{count}``) says how many were applied, if any."""
    count = 0
    for obj in objects:
        try:
            apply(obj)
        except ValidationError as error:
            model_admin.message_user(request, f"{obj}: {' '.join(error.messages)}", messages.ERROR)
        else:
            count += 1
    if count:
        model_admin.message_user(request, done.format(count=count), messages.SUCCESS)


def run_reason_step(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    objects: Iterable[Model],
    step: ReasonStep,
    *,
    action: str | None = None,
    cancel_url: str,
) -> HttpResponse | None:
    """Ask for the reason; once it is posted back, call the service on each object.

    Returns None when the service calls are done; the caller then redirects.
    """
    objects = list(objects)
    if request.method == "POST" and request.POST.get("apply") == "yes":
        form = ReasonForm(request.POST)
        if form.is_valid():
            reason = form.cleaned_data["reason"]
            apply_to_each(
                model_admin,
                request,
                objects,
                lambda obj: step.apply(actor=request.user, obj=obj, reason=reason),
                done=step.done,
            )
            return None
    else:
        form = ReasonForm(initial={"reason": step.initial_reason})
    context = {
        **model_admin.admin_site.each_context(request),
        "title": step.title,
        "subtitle": None,
        "opts": model_admin.model._meta,
        "objects": objects,
        "form": form,
        "button": step.button,
        "action": action,
        "cancel_url": cancel_url,
    }
    return TemplateResponse(request, "admin/campaign/confirm_with_reason.html", context)


def reason_action(step: ReasonStep, name: str, *, permission: str = "change"):
    """An admin action (list page) that runs `step` on the selected rows."""

    @admin.action(description=step.button, permissions=[permission])
    def action(model_admin, request: HttpRequest, queryset):
        return run_reason_step(
            model_admin, request, queryset, step, action=name, cancel_url=request.get_full_path()
        )

    action.__name__ = name
    return action


class ObjectToolMixin:
    """A per-object page (GET asks for the reason, POST applies) and its change-page button;
    an admin may add buttons of its own with `more_object_tools`."""

    change_form_template = "admin/campaign/change_form_with_tool.html"
    object_tool_path = ""
    object_tool_step: ReasonStep

    def object_tool_allowed(self, request: HttpRequest, obj: Model) -> bool:
        raise NotImplementedError

    def object_tool_url_name(self) -> str:
        opts = self.model._meta
        return f"{opts.app_label}_{opts.model_name}_{self.object_tool_path}"

    def get_urls(self):
        view = self.admin_site.admin_view(self.object_tool_view)
        route = f"<path:object_id>/{self.object_tool_path}/"
        return [path(route, view, name=self.object_tool_url_name()), *super().get_urls()]

    def object_tool_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.object_tool_allowed(request, obj):
            raise Http404
        opts = self.model._meta
        change_url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
        response = run_reason_step(
            self, request, [obj], self.object_tool_step, cancel_url=change_url
        )
        return response or HttpResponseRedirect(change_url)

    def more_object_tools(self, request: HttpRequest, obj: Model) -> list[dict[str, str]]:
        """Other buttons for the change page: each a dict with its ``url`` and ``label``."""
        return []

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        tools = []
        if obj is not None:
            tools = self.more_object_tools(request, obj)
            if self.object_tool_allowed(request, obj):
                url = reverse(f"admin:{self.object_tool_url_name()}", args=[obj.pk])
                tools.append({"url": url, "label": self.object_tool_step.button})
        extra_context = {**(extra_context or {}), "object_tools": tools}
        return super().change_view(request, object_id, form_url, extra_context)
