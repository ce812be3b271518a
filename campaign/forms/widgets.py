"""Widgets of our own: a select that writes its HTML in Python (Django's renders a template
per option, which for a select of fifty or a hundred choices costs more than the rest of
the page), and the record form's count box."""

from __future__ import annotations

import functools
import html

from django import forms
from django.utils.safestring import SafeString, mark_safe


def escape(value) -> str:
    """Django's `conditional_escape` (the same text), without its wrappers for lazy text:
    the pages that build their fields in Python call it thousands of times, mostly on
    the same short texts (attribute names, classes, numbers), kept escaped."""
    if hasattr(value, "__html__"):
        return str(value.__html__())
    text = str(value)
    return _escaped(text) if len(text) <= SHORT else html.escape(text)


SHORT = 64
"""The longest text whose escaped form is kept (`_escaped`): names, classes, numbers."""


@functools.lru_cache(maxsize=4096)
def _escaped(text: str) -> str:
    return html.escape(text)


def attrs_html(attrs: dict) -> str:
    """Attributes as Django's ``attrs.html`` writes them (True alone, False left out)."""
    return "".join(
        f" {escape(name)}" if value is True else f' {escape(name)}="{escape(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def select_html(widget: dict) -> SafeString:
    """A select's markup from its widget context (``get_context(...)["widget"]``), as
    Django's ``select.html`` and ``select_option.html`` write it."""
    parts = [f'<select name="{escape(widget["name"])}"{attrs_html(widget["attrs"])}>']
    for group, options, _index in widget["optgroups"]:
        if group:
            parts.append(f'\n  <optgroup label="{escape(group)}">')
        parts.extend(
            f'\n  <option value="{escape(str(option["value"]))}"'
            f"{attrs_html(option['attrs'])}>{escape(option['label'])}</option>\n"
            for option in options
        )
        if group:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped


class PlainSelect(forms.Select):
    """A select written as Django's own templates write it, without a template per option."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        return select_html(self.get_context(name, value, attrs)["widget"])


class PlainHiddenInput(forms.HiddenInput):
    """A hidden input written as Django's ``input.html`` writes it, without its templates."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        shown = "" if widget["value"] is None else f' value="{escape(str(widget["value"]))}"'
        return mark_safe(  # noqa: S308 - every value is escaped
            f'<input type="{escape(widget["type"])}" name="{escape(widget["name"])}"'
            f"{shown}{attrs_html(widget['attrs'])}>"
        )


class TallyInput(forms.NumberInput):
    """A small count typed at the table: empty means 0 (shown as a placeholder), and a
    phone offers its number pad. Given to a field as a class, so a form with boxes for
    every unit of an army makes each widget rather than deep-copying one."""

    def __init__(self, attrs=None) -> None:
        super().__init__({"placeholder": "0", "inputmode": "numeric", **(attrs or {})})
