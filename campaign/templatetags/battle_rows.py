"""The battle pages' rows of units, built in Python: the battle page lists every unit of
every army, and the record form has four boxes a unit and one more per picked Agenda.
Through templates (and, for the form, `widget_of` and `_field_extras.html` per box) the
rows cost more than the rest of each page (see `make bench`). The markup is the one the
pages had as templates; the form's inputs are `fields.input_html`'s, their help and
errors `fields._extras`'."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString

from campaign.forms.widgets import escape

from .crusade import errors_of
from .fields import _extras, input_html

register = template.Library()


def _error_class(field) -> str:
    return " field--error" if errors_of(field) else ""


def _unit(form, entry) -> str:
    pk = entry.pk
    name = escape(entry.unit.name)
    destroyed = form[f"destroyed_{pk}"]
    kills, bonus, reason = form[f"kills_{pk}"], form[f"bonus_{pk}"], form[f"reason_{pk}"]
    leads = ""
    if entry.attached_to:
        leads = (
            f'<p class="army__note">Leads {escape(entry.attached_to.unit.name)}: enter the '
            "Attached unit's kills on one of its units only, and each bonus XP award "
            "on one only.</p>"
        )
    return (
        f'<li class="record__unit" aria-labelledby="record-unit-{pk}">'
        f'<h2 class="record__name" id="record-unit-{pk}">{name} '
        f'<span class="army__sheet">{escape(entry.unit.datasheet)}</span></h2>{leads}'
        '<div class="record__row"><div class="field field--checkbox record__destroyed">'
        f'{input_html(destroyed)} <label for="{escape(destroyed.id_for_label)}">'
        f'<span class="visually-hidden">{name} was </span>'
        '<span class="record__short">destroyed</span></label></div>'
        f'<div class="field record__count{_error_class(kills)}">'
        f'<label for="{escape(kills.id_for_label)}">Kills<span class="visually-hidden"> by '
        f"{name}: enemy units it destroyed</span></label>{input_html(kills)}</div>"
        f'<div class="field record__count record__bonus{_error_class(bonus)}">'
        f'<label for="{escape(bonus.id_for_label)}">Bonus XP<span class="visually-hidden">'
        f" for {name}</span></label>{input_html(bonus)}</div></div>"
        f"{_extras(kills)}{_extras(bonus)}"
        # Shown only once there is bonus XP (static/css/battles.css); always, without :has().
        f'<div class="field record__reason{_error_class(reason)}">'
        f'<label for="{escape(reason.id_for_label)}">Reason for the bonus XP'
        f'<span class="visually-hidden"> of {name}</span></label>{input_html(reason)}'
        f"{_extras(reason)}</div></li>"
    )


@register.simple_tag
def record_units(form) -> SafeString:
    """Every unit of a `SideRecordForm`'s army, each an item of the page's list."""
    return SafeString("\n".join(_unit(form, entry) for entry in form.army))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _gain(entry, test, mine: bool) -> str:
    """What a unit gained, once the battle is applied; its Out of Action test."""
    parts = [
        f"XP {entry.xp_before} → {entry.xp_after} "
        f'<span class="army__kills">{_plural(entry.enemy_units_destroyed, "enemy unit")}'
        " destroyed</span>"
    ]
    if entry.promotions_earned:
        parts.append(
            f'<span class="badge badge--rank">{_plural(entry.promotions_earned, "promotion")}'
            "</span>"
        )
    if entry.marked_for_greatness:
        parts.append('<span class="badge badge--honour">Marked for Greatness</span>')
    for achieved in entry.agendas_achieved:
        times = f" ×{achieved.times}" if achieved.times > 1 else ""
        parts.append(
            f'<span class="badge badge--honour">{escape(achieved.agenda.name)}{times}: '
            f"+{achieved.xp_gained}XP</span>"
        )
    if entry.destroyed:
        parts.append('<span class="badge badge--scar">Destroyed</span>')
    if test is not None:
        if mine and test.is_open:
            url = reverse("out_of_action", args=[test.pk])
            parts.append(f'<a href="{escape(url)}">Out of Action test</a>')
        else:
            said = test.get_outcome_display() if test.outcome else test.get_status_display()
            parts.append(f'<span class="badge">Out of Action: {escape(said)}</span>')
    return f'<span class="army__gain"> {" ".join(parts)}</span>'


def _army_row(row, mine: bool) -> str:
    entry, unit = row.entry, row.entry.unit
    parts = [
        f'<li class="army__unit"><span class="army__name">'
        f'<a href="{escape(reverse("unit_detail", args=[unit.pk]))}">{escape(unit.name)}</a> '
        f'<span class="army__sheet">{escape(unit.datasheet)} · {escape(unit.points)} pts'
        "</span></span>"
    ]
    if entry.attached_to:
        leads = escape(entry.attached_to.unit.name)
        parts.append(f'<span class="army__note">leads {leads}</span>')
    if entry.embarked_in:
        parts.append(
            f'<span class="army__note">starts in {escape(entry.embarked_in.unit.name)}</span>'
        )
    if entry.second_leader_rule:
        parts.append(
            '<span class="army__note">two Leaders, by its rule: '
            f"{escape(entry.second_leader_rule)}</span>"
        )
    if entry.xp_after is not None:
        parts.append(_gain(entry, row.test, mine))
    return " ".join(parts) + "</li>"


@register.simple_tag
def army_rows(side) -> SafeString:
    """Every unit of a battle page's side (a `selectors.Side`), each an item of its list."""
    return SafeString("\n".join(_army_row(row, side.mine) for row in side.rows))
