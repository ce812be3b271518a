"""The record form's units, built in Python: a side's army has four boxes a unit and one
more per picked Agenda, and through `widget_of` and `_field_extras.html` each unit cost
more than the rest of the page (see `make bench`). The markup is the one the page had as
a template; the inputs are `fields.input_html`'s, their help and errors `fields._extras`'."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from .fields import _escape, _extras, input_html

register = template.Library()


def _error_class(field) -> str:
    return " field--error" if field.errors else ""


def _unit(form, entry) -> str:
    pk = entry.pk
    name = _escape(entry.unit.name)
    destroyed = form[f"destroyed_{pk}"]
    kills, bonus, reason = form[f"kills_{pk}"], form[f"bonus_{pk}"], form[f"reason_{pk}"]
    leads = ""
    if entry.attached_to:
        leads = (
            f'<p class="army__note">Leads {_escape(entry.attached_to.unit.name)}: enter the '
            "Attached unit's kills on one of its units only, and each bonus XP award "
            "on one only.</p>"
        )
    return (
        f'<li class="record__unit" aria-labelledby="record-unit-{pk}">'
        f'<h2 class="record__name" id="record-unit-{pk}">{name} '
        f'<span class="army__sheet">{_escape(entry.unit.datasheet)}</span></h2>{leads}'
        '<div class="record__row"><div class="field field--checkbox record__destroyed">'
        f'{input_html(destroyed)} <label for="{_escape(destroyed.id_for_label)}">'
        f'<span class="visually-hidden">{name} was </span>'
        '<span class="record__short">destroyed</span></label></div>'
        f'<div class="field record__count{_error_class(kills)}">'
        f'<label for="{_escape(kills.id_for_label)}">Kills<span class="visually-hidden"> by '
        f"{name}: enemy units it destroyed</span></label>{input_html(kills)}</div>"
        f'<div class="field record__count record__bonus{_error_class(bonus)}">'
        f'<label for="{_escape(bonus.id_for_label)}">Bonus XP<span class="visually-hidden">'
        f" for {name}</span></label>{input_html(bonus)}</div></div>"
        f"{_extras(kills)}{_extras(bonus)}"
        # Shown only once there is bonus XP (static/css/battles.css); always, without :has().
        f'<div class="field record__reason{_error_class(reason)}">'
        f'<label for="{_escape(reason.id_for_label)}">Reason for the bonus XP'
        f'<span class="visually-hidden"> of {name}</span></label>{input_html(reason)}'
        f"{_extras(reason)}</div></li>"
    )


@register.simple_tag
def record_units(form) -> SafeString:
    """Every unit of a `SideRecordForm`'s army, each an item of the page's list."""
    return SafeString("\n".join(_unit(form, entry) for entry in form.army))
