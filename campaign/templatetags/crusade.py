"""Template helpers for the Crusade pages."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

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
