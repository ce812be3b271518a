"""Line charts (`charts.LineChart`) as inline SVG, their legends and their numbers as
table rows, built in Python: no script, no style element, presentation attributes only.

The campaign page draws two charts that a battle moves (the leaders' wins, the alliances'
points over the phases) and a card draws its unit's XP; through templates each chart was
hundreds of lookups, escapes and number formats, rebuilt at the first look after every
battle. Geometry is drawn as `charts` worked it out (its numbers unlocalised, as SVG
wants them); the legends and tables show numbers as the rest of the page does."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from campaign.forms.widgets import escape

from .addresses import numbered as address
from .campaign_rows import number

register = template.Library()


def _n(value) -> str:
    """A coordinate as the SVG wants it: the number as Python writes it."""
    return escape(str(value))


def _dash(line) -> str:
    return f' stroke-dasharray="{escape(line.dash)}"' if line.dash else ""


def _ticks(chart) -> str:
    grid = "".join(
        f'<line x1="{_n(chart.left)}" x2="{_n(chart.right)}" y1="{_n(tick.position)}" '
        f'y2="{_n(tick.position)}"/>'
        for tick in chart.y_ticks
    )
    y_labels = "".join(
        f'<text x="{_n(chart.y_label_x)}" y="{_n(tick.position)}" dy="0.35em" '
        f'text-anchor="end">{escape(tick.label)}</text>'
        for tick in chart.y_ticks
    )
    last = len(chart.x_ticks) - 1
    x_labels = "".join(
        f'<text x="{_n(tick.position)}" y="{_n(chart.x_label_y)}" text-anchor="'
        f'{"start" if i == 0 else "end" if i == last else "middle"}">{escape(tick.label)}</text>'
        for i, tick in enumerate(chart.x_ticks)
    )
    return (
        f'<g stroke="#d5dae0" stroke-width="1">{grid}</g>\n'
        f'<g fill="#5c6670">{y_labels}\n{x_labels}</g>\n'
    )


def _rules(chart) -> str:
    return "".join(
        f'<g class="chart__rule"><line x1="{_n(chart.left)}" x2="{_n(chart.right)}" '
        f'y1="{_n(rule.y)}" y2="{_n(rule.y)}" stroke="#8a5a00" stroke-width="1" '
        f'stroke-dasharray="4 3"/><text x="{_n(chart.rule_label_x)}" y="{_n(rule.y)}" '
        f'dy="-0.35em" fill="#8a5a00">{escape(rule.label)}</text></g>\n'
        for rule in chart.rules
    )


def _line(line) -> str:
    colour = escape(line.colour)
    if line.marks:
        dots = "".join(
            f'<circle cx="{_n(mark.x)}" cy="{_n(mark.y)}" r="3.5" fill="{colour}">'
            f"<title>{escape(mark.title)}</title></circle>"
            for mark in line.marks
        )
    else:
        x, y = line.end
        dots = f'<circle cx="{_n(x)}" cy="{_n(y)}" r="3.5" fill="{colour}"/>'
    return (
        f'<g class="chart__line"><polyline points="{escape(line.points)}" fill="none" '
        f'stroke="{colour}" stroke-width="2.5" stroke-linejoin="round" '
        f'stroke-linecap="round"{_dash(line)}/>\n{dots}</g>\n'
    )


@register.simple_tag
def line_chart(chart, chart_id: str) -> SafeString:
    """``chart`` as an SVG image named by its title and description; ``chart_id`` is
    unique on the page."""
    cid = escape(chart_id)
    return SafeString(
        f'<svg class="chart__svg" viewBox="{escape(chart.viewbox)}" width="{_n(chart.width)}" '
        f'height="{_n(chart.height)}" role="img" aria-labelledby="{cid}-title {cid}-desc" '
        f'font-family="system-ui, sans-serif" font-size="12">\n'
        f'<title id="{cid}-title">{escape(chart.title)}</title>\n'
        f'<desc id="{cid}-desc">{escape(chart.description)}</desc>\n'
        f"{_ticks(chart)}{_rules(chart)}{''.join(_line(line) for line in chart.lines)}</svg>"
    )


def _swatch(line) -> str:
    return (
        '<svg width="28" height="10" viewBox="0 0 28 10" aria-hidden="true">'
        f'<line x1="1" x2="27" y1="5" y2="5" stroke="{escape(line.colour)}" '
        f'stroke-width="3"{_dash(line)}/></svg>'
    )


@register.simple_tag
def wins_legend(history) -> SafeString:
    """The wins chart's legend (`selectors.charts.StandingsHistory`): each force's line,
    a link to the force and its wins so far."""
    return SafeString(
        "\n".join(
            f'<li>{_swatch(line)}<a href="{escape(address("force_detail", standing.force.pk))}">'
            f'{escape(standing.force.name)}</a> <span class="muted">'
            f"{number(line.last)} win{'' if line.last == 1 else 's'}</span></li>"
            for standing, line in history.legend
        )
    )


@register.simple_tag
def points_legend(drawn) -> SafeString:
    """The alliances' chart's legend (`selectors.phases.AllianceChart`): each alliance's
    line, its name and its Campaign Points so far."""
    return SafeString(
        "\n".join(
            f'<li>{_swatch(line)}{escape(alliance.name)} <span class="muted">'
            f"{number(line.last)} Campaign Points</span></li>"
            for alliance, line in drawn.legend
        )
    )


@register.simple_tag
def numbers_rows(rows, named: str) -> SafeString:
    """A chart's numbers as table rows: ``rows`` holds (name, [(column, number), ...]),
    the name's column labelled ``named``."""
    label = escape(named)
    return SafeString(
        "\n".join(
            f'<tr><td data-label="{label}">{escape(name)}</td>'
            + "".join(
                f'<td data-label="{escape(column)}" class="num">{number(n)}</td>'
                for column, n in counts
            )
            + "</tr>"
            for name, counts in rows
        )
    )
