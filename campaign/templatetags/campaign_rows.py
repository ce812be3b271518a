"""The campaign page's standings rows and list of battles, built in Python: after each
battle in a league every viewer's process builds them again, and through templates (a
lookup, an escape and a number format per value) they were most of that rebuild. The
markup is the one the page had as templates; the alliance badge and the result badge are
still their templates', rendered once per alliance and per result."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from campaign.forms.widgets import escape

from .addresses import numbered as address

register = template.Library()


def _alliance_badge(alliance) -> str:
    return render_to_string("alliances/_badge.html", {"alliance": alliance})


def _result_badge(side) -> str:
    return render_to_string("battles/_result_badge.html", {"p": side})


def number(value) -> str:
    """``localize(value)``, escaped: a whole number, when the settings group no thousands,
    as Python writes it (what `localize` gives then, without looking up the language's
    formats each time: a page of rows has hundreds)."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return escape(localize(value))


@lru_cache(maxsize=1024)
def _day(day, language: str | None) -> str:
    return escape(localize(day))


def day(value) -> str:
    """``localize(value)`` of a date, escaped, worked out once a process and language."""
    return _day(value, get_language())


class _Badges(dict):
    """The badges a list has rendered, by what they show: each rendered once a list."""

    def of(self, shown, render) -> str:
        if shown not in self:
            self[shown] = render(shown)
        return self[shown]


def _lines(build, items) -> SafeString:
    badges = _Badges()
    return SafeString("\n".join(build(item, badges) for item in items))


def _standing(standing, badges: _Badges) -> str:
    force = standing.force
    badge = f"<br>{badges.of(force.alliance, _alliance_badge)}" if force.alliance else ""
    return (
        f'<tr data-force="{int(force.pk)}">'
        f'<td data-label="Place">{number(standing.position)}</td>'
        f'<td data-label="Force"><span class="table__value">'
        f'<a href="{escape(address("force_detail", force.pk))}">{escape(force.name)}</a>'
        f'<br><span class="card__meta">{escape(force.faction)}</span>{badge}</span></td>'
        f'<td data-label="Player">{escape(force.player_username)}</td>'
        f'<td data-label="Battles">{number(force.battle_tally)}</td>'
        f'<td data-label="Wins">{number(force.victories)}</td>'
        f'<td data-label="Crusade points">{number(standing.crusade_points)}</td>'
        f'<td data-label="Campaign Points">{number(force.campaign_points)}</td>'
        f'<td data-label="Supply">{number(force.supply_used)} / '
        f"{number(force.supply_limit)}</td></tr>"
    )


@register.simple_tag
def standings_rows(standings) -> SafeString:
    """A row of the standings table for each `selectors.campaigns.Standing`."""
    return _lines(_standing, standings)


def _battle(battle, badges: _Badges) -> str:
    title = escape(battle.battle_size) + (f": {escape(battle.mission)}" if battle.mission else "")
    sides = []
    for side in battle.sides:
        shown = escape(side.force_name)
        if side.result:
            shown += f" {badges.of(side.result, lambda _, side=side: _result_badge(side))}"
        sides.append(shown)
    return (
        f'<li class="card"><a class="card__title" '
        f'href="{escape(address("battle_detail", battle.pk))}">{title}</a>'
        f'<p class="card__meta">{day(battle.date)} · '
        f"{escape(battle.status_label)}</p>"
        f'<p class="card__meta">{" vs ".join(sides)}</p></li>'
    )


@register.simple_tag
def battle_lines(battles) -> SafeString:
    """An item of the campaign page's list of battles for each `BattleLine`."""
    return _lines(_battle, battles)
