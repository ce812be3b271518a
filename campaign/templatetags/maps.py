"""The campaign map's hexes and the rows of its table, built in Python: fifty territories,
each a hex and a row with its borders and battles, cost most of the campaign page's
first look as a template (see `make bench`). The markup is the one `_map.html` had."""

from __future__ import annotations

from django import template
from django.template.defaultfilters import floatformat, pluralize, truncatechars
from django.urls import reverse
from django.utils.formats import localize
from django.utils.safestring import SafeString

from campaign.forms.widgets import escape

register = template.Library()

SOME_BATTLE = 987654321
"""A battle number no league reaches: the link of each battle is this one's, renumbered."""


def _hex(hex_) -> str:
    territory, holder = hex_.territory, hex_.holder
    held = f"held by {escape(holder.name)}" if holder is not None else "held by nobody"
    x = floatformat(hex_.centre_x, 1)
    lines = "".join(
        f'<tspan x="{x}" y="{floatformat(y, 1)}">{escape(line)}</tspan>' for line, y in hex_.lines
    )
    return (
        f'<a href="#{escape(hex_.anchor)}"><title>{escape(territory.name)}: {held}</title>'
        f'<polygon class="map__hex" points="{escape(hex_.points)}" fill="{escape(hex_.colour)}"/>'
        f'<text class="map__label" fill="{escape(hex_.ink)}" text-anchor="middle" '
        f'dominant-baseline="middle">{lines}</text></a>'
    )


@register.simple_tag
def map_hexes(campaign_map) -> SafeString:
    """The map's hexes, each a link to its row of the table."""
    return SafeString("".join(_hex(hex_) for hex_ in campaign_map.hexes))


def _row(row, battle_url: str) -> str:
    territory = row.territory
    described = ""
    if territory.description:
        described = (
            f'<br><span class="card__meta">{escape(truncatechars(territory.description, 200))}'
            "</span>"
        )
    holder = (
        escape(row.holder.name) if row.holder is not None else '<span class="muted">nobody</span>'
    )
    control = "".join(
        f'<br><span class="card__meta">{escape(name)}: {escape(localize(points))} control '
        f"point{pluralize(points)}</span>"
        for name, points in row.control
    )
    borders = (
        ", ".join(
            f'<a href="#territory-{escape(border.key)}">{escape(border.name)}</a>'
            for border in row.borders
        )
        or '<span class="muted">none</span>'
    )
    battles = (
        "<br>".join(
            f'<a href="{battle_url.replace(str(SOME_BATTLE), str(battle.pk))}">'
            f"{escape(battle.battle_size)}, {escape(localize(battle.date))}</a>"
            for battle in row.battles
        )
        or '<span class="muted">none yet</span>'
    )
    if row.battle_count > len(row.battles):
        battles += (
            f'<br><span class="card__meta">{escape(localize(row.battle_count))} in all</span>'
        )
    return (
        f'<tr id="{escape(row.anchor)}">'
        f'<td data-label="Territory"><span class="table__value"><strong>{escape(territory.name)}'
        f"</strong>{described}</span></td>"
        f'<td data-label="Held by"><span class="table__value">{holder}{control}</span></td>'
        f'<td data-label="Borders"><span class="table__value">{borders}</span></td>'
        f'<td data-label="Battles"><span class="table__value">{battles}</span></td></tr>'
    )


@register.simple_tag
def map_rows(campaign_map) -> SafeString:
    """The rows of the map's table: each territory, who holds it, its borders and the
    newest battles fought over it."""
    battle_url = reverse("battle_detail", args=[SOME_BATTLE])
    return SafeString("".join(_row(row, battle_url) for row in campaign_map.rows))
