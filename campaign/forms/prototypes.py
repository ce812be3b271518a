"""Form fields made from a prototype: the record form has four boxes for each unit of the
army and one for each unit and Agenda, and building each field anew (its widget, its
validators, its messages gathered from its classes) was a fifth of what the form's page
cost. A field made here is a shallow copy of one built once, with its own label and
initial value; its widget, validators and messages are the prototype's, shared, so they
must be left as they are (no form here changes them; a form that sets a widget's
choices or attributes builds its field itself)."""

from __future__ import annotations

import copy

from django import forms

from .widgets import TallyInput

TALLY = forms.IntegerField(min_value=0, max_value=99, required=False, widget=TallyInput)
"""A small count: empty means 0 (shown as a placeholder), so only what happened is typed."""
TICK = forms.BooleanField(required=False)
"""A box ticked or not."""


def like(prototype: forms.Field, *, label: str, initial=None) -> forms.Field:
    """A field like ``prototype``, with its own ``label`` and ``initial`` value."""
    field = copy.copy(prototype)
    field.label = label
    field.initial = initial
    return field
