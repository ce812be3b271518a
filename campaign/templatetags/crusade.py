"""Template helpers for the Crusade pages."""

from __future__ import annotations

from django import forms, template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

from campaign import once as form_once

register = template.Library()


@register.filter
def label_of(value: str, labels: dict[str, str]) -> str:
    """The label ``labels`` gives a stored value, e.g. ``gain.result|label_of:labels.results``."""
    return labels.get(str(value), value)


@register.simple_tag(takes_context=True)
def once(context, back: str = "") -> str:
    """The hidden one-time token of a form that changes something: sent twice, the form
    applies once (`campaign.once`). Put it next to `{% csrf_token %}`.

    A repeat is sent back to the page the form is on, or to ``back`` (a path of this
    site) when that page no longer makes sense once the form has done its work.
    """
    token = form_once.issue(context.get("request"), back=back)
    return format_html('<input type="hidden" name="{}" value="{}">', form_once.FIELD, token)


def _text_limit(field: forms.BoundField) -> int | None:
    """The most characters a long text (a text area) holds, said beside it."""
    if getattr(field.field.widget, "input_type", None):
        return None
    return getattr(field.field, "max_length", None)


@register.filter
def help_of(field: forms.BoundField) -> SafeString:
    """A field's help as `_field.html` shows it: its help text, and a long text's limit."""
    parts = [conditional_escape(field.help_text)] if field.help_text else []
    limit = _text_limit(field)
    if limit:
        parts.append(format_html("Up to {} characters.", limit))
    return SafeString(" ".join(parts))


@register.filter
def help_id(field: forms.BoundField) -> str:
    return f"{field.auto_id}_helptext"


@register.filter
def error_id(field: forms.BoundField) -> str:
    return f"{field.auto_id}_error"


@register.filter
def described_by(field: forms.BoundField) -> str:
    """The ids that describe a field: what its widget names itself (a live status), then
    its help and its errors, as `_field.html` and `_field_extras.html` give them ids."""
    ids = [field.field.widget.attrs.get("aria-describedby", "")]
    if field.auto_id and help_of(field):
        ids.append(help_id(field))
    if field.auto_id and field.errors:
        ids.append(error_id(field))
    return " ".join(i for i in ids if i)


@register.simple_tag
def widget_of(field: forms.BoundField, **attrs) -> SafeString:
    """The field's input, described (``aria-describedby``) by its help and errors.

    Django describes an input by its help text only when there is one; this also counts a
    long text's limit and what the widget names itself (e.g. the live supply check).
    Extra ``attrs`` go on the input.
    """
    described = described_by(field)
    if described and not field.use_fieldset:  # a group is described on its fieldset
        attrs["aria-describedby"] = described
    return field.as_widget(attrs=attrs)


@register.simple_tag(takes_context=True)
def page_link(context, number: int, param: str = "page") -> str:
    """The query string of this page with ``param`` set to ``number``: a link to another
    page of one list that keeps the page the other lists are on."""
    query = context["request"].GET.copy()
    query[param] = number
    return "?" + query.urlencode()
