"""A form field as `_field.html` shows it, built in Python for the pages that show many.

The import preview has a form per unit of the list and a checkbox per keyword in each:
about a thousand fields for a 2,000-point list. Each through `_field.html` and the
widget's own templates cost most of the page's time (see `make bench`), so its inputs
(checkboxes, text and number boxes) and selects are built here, the markup `_field.html`
and Django's widget templates give them; any other widget goes through `_field.html`.
"""

from __future__ import annotations

from django import forms, template
from django.forms.widgets import CheckboxInput, Input, Select
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from campaign.forms.widgets import attrs_html, escape, select_html

from .crusade import described_by, error_id, errors_of, help_id, help_of

register = template.Library()

INPUT_TEMPLATES = frozenset(
    f"django/forms/widgets/{kind}.html"
    for kind in ("checkbox", "text", "number", "email", "url", "password", "date")
)
"""The widgets whose template is Django's `input.html` and nothing else."""


def is_plain_input(field: forms.BoundField) -> bool:
    widget = field.field.widget
    return (
        isinstance(widget, Input | CheckboxInput)
        and widget.template_name in INPUT_TEMPLATES
        and not field.use_fieldset
        and not field.field.localize
    )


def is_plain_select(field: forms.BoundField) -> bool:
    widget = field.field.widget
    return (
        isinstance(widget, Select)
        and widget.template_name == "django/forms/widgets/select.html"
        and widget.option_template_name == "django/forms/widgets/select_option.html"
        and not field.field.localize
    )


def _widget_attrs(field: forms.BoundField) -> dict:
    """The attributes `crusade.widget_of` gives the field's widget (its description)."""
    widget = field.field.widget
    extra = {}
    described = described_by(field)
    if described:
        extra["aria-describedby"] = described
    attrs = field.build_widget_attrs(extra, widget)
    if field.auto_id and "id" not in widget.attrs:
        attrs.setdefault("id", field.auto_id)
    return attrs


def input_html(field: forms.BoundField) -> SafeString:
    """`crusade.widget_of` for a plain input: `BoundField.as_widget`, with the widget's
    context rendered here rather than by `input.html`."""
    widget = field.field.widget
    context = widget.get_context(field.html_name, field.value(), _widget_attrs(field))["widget"]
    parts = [f'<input type="{escape(context["type"])}" name="{escape(context["name"])}"']
    if context["value"] is not None:
        parts.append(f' value="{escape(context["value"])}"')
    parts.append(f"{attrs_html(context['attrs'])}>")
    return SafeString("".join(parts))


def select_field_html(field: forms.BoundField) -> SafeString:
    """`crusade.widget_of` for a plain select: its markup written by `widgets.select_html`."""
    widget = field.field.widget
    return select_html(
        widget.get_context(field.html_name, field.value(), _widget_attrs(field))["widget"]
    )


def _extras(field: forms.BoundField) -> str:
    """`_field_extras.html`: the help and the errors, with their ids."""
    parts = []
    help_text = help_of(field)
    if help_text:
        parts.append(f'<div class="field__help" id="{escape(help_id(field))}">{help_text}</div>')
    errors = errors_of(field)
    if errors:
        shown = "".join(f'<p class="field__error" role="alert">{escape(e)}</p>' for e in errors)
        parts.append(f'<div class="field__errors" id="{escape(error_id(field))}">{shown}</div>')
    return "".join(parts)


@register.simple_tag
def field_html(field: forms.BoundField) -> SafeString:
    """The field as `_field.html` shows it: built here for a plain input or select, by the
    template for anything else."""
    if is_plain_select(field):
        control, checkbox = select_field_html(field), False
    elif is_plain_input(field):
        control, checkbox = input_html(field), field.field.widget.input_type == "checkbox"
    else:
        return SafeString(render_to_string("_field.html", {"field": field}))
    errors = errors_of(field)
    classes = (
        "field" + (" field--error" if errors else "") + (" field--checkbox" if checkbox else "")
    )
    label = f'<label for="{escape(field.id_for_label)}">{escape(field.label)}'
    if checkbox:
        inside = f"{control} {label}</label>"
    else:
        star = ' <span aria-hidden="true">*</span>' if field.field.required else ""
        inside = f"{label}{star}</label>{control}"
    return SafeString(f'<div class="{classes}">{inside}{_extras(field)}</div>')
