"""The import preview's units, built in Python: a 2,000-point list has a form per unit
and a checkbox per keyword in each, and as a template each unit cost several times as
much (see `make bench`). The markup is the one the page had as a template."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from campaign import rules
from campaign.forms.widgets import escape

from .fields import field_html

register = template.Library()

RENOWNED_HEROES = rules.Requisition.RENOWNED_HEROES.label


def _meta(unit) -> str:
    parts = []
    if unit.datasheet != unit.name:
        parts.append(f"{escape(unit.datasheet)} · ")
    parts.append(f"<strong>{escape(unit.points)} pts</strong>")
    if unit.models > 1:
        parts.append(f" · {escape(unit.models)} models")
    if unit.warlord:
        parts.append(" · Warlord")
    return f'<p class="import-unit__meta">{"".join(parts)}</p>'


def _enhancement(form) -> str:
    unit = form.unit
    if not unit.enhancement:
        return ""
    points = ""
    if unit.enhancement_points is not None:
        points = f"{escape(unit.enhancement_points)} of its points. "
    asked = field_html(form["enhancement_points"]) if "enhancement_points" in form.fields else ""
    return (
        '<div class="import-unit__enhancement">'
        f"{field_html(form['keep_enhancement'])}"
        f'<p class="field__help">{points}Bought with {escape(RENOWNED_HEROES)}; untick to '
        f"import the unit without it.</p>{asked}</div>"
    )


def _keyword_box(form, keyword: rules.Keyword) -> str:
    """One keyword's checkbox, the markup `field_html` gives a plain tick."""
    html_name = escape(form.keyword_name(keyword))
    checked = " checked" if form.keyword_on(keyword) else ""
    return (
        f'<div class="field field--checkbox"><input type="checkbox" name="{html_name}" '
        f'id="id_{html_name}"{checked}> <label for="id_{html_name}">{escape(keyword.label)}'
        "</label></div>"
    )


def _keywords(form, refusals: list[str]) -> str:
    ticked = ", ".join(form.keywords_ticked) or "none ticked"
    unknown = form.unknown
    opened = " open" if form.errors or refusals else ""
    check = ' <span class="badge badge--warn">check</span>' if unknown else ""
    said = ""
    if unknown:
        said = (
            '<p class="import-unit__unknown">The file didn\'t say: '
            f"{escape(', '.join(unknown))}. Tick what applies.</p>"
        )
    boxes = "".join(_keyword_box(form, keyword) for keyword in rules.Keyword)
    return (
        f'<details class="import-unit__keywords"{opened}>'
        f"<summary>Keywords: {escape(ticked)}{check}</summary>{said}"
        f'<div class="checkbox-grid">{boxes}</div></details>'
    )


@register.simple_tag
def import_unit(form, refusals: list[str]) -> SafeString:
    """One unit of the preview (an `ImportUnitForm` with what the rules refuse about it)."""
    left_out = "" if form.kept else " import-unit--left-out"
    errors = form.non_field_errors()
    shown = ""
    if errors:
        paragraphs = "".join(f"<p>{escape(error)}</p>" for error in errors)
        shown = f'<div class="form-errors" role="alert">{paragraphs}</div>'
    refused = "".join(f'<p class="field__error" role="alert">{escape(r)}</p>' for r in refusals)
    return SafeString(
        f'<li class="import-unit{left_out}" id="import-unit-{form.index}">{shown}'
        f'<div class="import-unit__head">{field_html(form["keep"])}{_meta(form.unit)}</div>'
        f"{field_html(form['name'])}{_enhancement(form)}{_keywords(form, refusals)}{refused}</li>"
    )
