"""Template helpers for the Crusade pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def label_of(value: str, labels: dict[str, str]) -> str:
    """The label ``labels`` gives a stored value, e.g. ``gain.result|label_of:labels.results``."""
    return labels.get(str(value), value)
