"""A table cached once for every viewer, with the viewer's own rows marked after the cache:

    {% filter mark_mine:force_ids %}{% cache ... %}
      <tr data-force="{{ pk }}">...
    {% endcache %}{% endfilter %}

so a change the table shows builds it once, not once for each player who looks."""

from __future__ import annotations

from django import template

register = template.Library()

MINE = "table__row--mine"


@register.filter(is_safe=True)
def mark_mine(html: str, force_ids) -> str:
    """``html`` with the rows of ``force_ids`` (``<tr data-force="pk">``) marked as the
    viewer's own."""
    for pk in force_ids or ():
        row = f'<tr data-force="{int(pk)}"'
        html = html.replace(f"{row}>", f'{row} class="{MINE}">')
    return html
