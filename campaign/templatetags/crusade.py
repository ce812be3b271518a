"""Template helpers for the Crusade pages."""

from __future__ import annotations

from functools import lru_cache

from django import forms, template
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import pluralize
from django.utils import timezone
from django.utils.dates import MONTHS_3
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from campaign import once as form_once
from campaign import rules
from campaign.forms.widgets import escape as _escape

from .addresses import numbered as _numbered

register = template.Library()


@register.filter
def label_of(value: str, labels: dict[str, str]) -> str:
    """The label ``labels`` gives a stored value, e.g. ``gain.result|label_of:labels.results``."""
    return labels.get(str(value), value)


@register.simple_tag(takes_context=True)
def once(context, back: str = "") -> str:
    """The hidden one-time token of a form that changes something: sent twice, the form
    applies once (`campaign.once`). Put it next to `{% csrf_token %}`.

    A repeat is sent back to the page the form is on, or to ``back`` (a path of this
    site) when that page no longer makes sense once the form has done its work.
    """
    token = form_once.issue(context.get("request"), back=back)
    return format_html('<input type="hidden" name="{}" value="{}">', form_once.FIELD, token)


def _text_limit(field: forms.BoundField) -> int | None:
    """The most characters a long text (a text area) holds, said beside it."""
    if getattr(field.field.widget, "input_type", None):
        return None
    return getattr(field.field, "max_length", None)


@register.filter
def help_of(field: forms.BoundField) -> SafeString:
    """A field's help as `_field.html` shows it: its help text, and a long text's limit."""
    parts = [conditional_escape(field.help_text)] if field.help_text else []
    limit = _text_limit(field)
    if limit:
        parts.append(format_html("Up to {} characters.", limit))
    return SafeString(" ".join(parts))


@register.filter
def help_id(field: forms.BoundField) -> str:
    return f"{field.auto_id}_helptext"


@register.filter
def error_id(field: forms.BoundField) -> str:
    return f"{field.auto_id}_error"


def errors_of(field: forms.BoundField):
    """The field's errors (`BoundField.errors`), without making an empty list for a field
    that has none: a form with a box per unit asks each box several times."""
    return field.form.errors.get(field.name) or ()


@register.filter
def described_by(field: forms.BoundField) -> str:
    """The ids that describe a field: what its widget names itself (a live status), then
    its help and its errors, as `_field.html` and `_field_extras.html` give them ids."""
    ids = [field.field.widget.attrs.get("aria-describedby", "")]
    if field.auto_id and help_of(field):
        ids.append(help_id(field))
    if field.auto_id and errors_of(field):
        ids.append(error_id(field))
    return " ".join(i for i in ids if i)


@register.simple_tag
def widget_of(field: forms.BoundField, **attrs) -> SafeString:
    """The field's input, described (``aria-describedby``) by its help and errors.

    Django describes an input by its help text only when there is one; this also counts a
    long text's limit and what the widget names itself (e.g. the live supply check).
    Extra ``attrs`` go on the input.
    """
    described = described_by(field)
    if described and not field.use_fieldset:  # a group is described on its fieldset
        attrs["aria-describedby"] = described
    return field.as_widget(attrs=attrs)


@register.simple_tag(takes_context=True)
def pager(
    context,
    page,
    param: str = "page",
    label: str = "More pages",
    earlier: str = "Newer",
    later: str = "Older",
) -> SafeString:
    """Links to the other pages of a long list (``page``: a Django Page), plain links with
    no JavaScript; ``param`` names the list's page in the address, so each link keeps
    the page the other lists are on. Nothing for a list of one page. In Python: a page
    of lists has a pager under each."""
    if page is None or not page.has_other_pages():
        return SafeString("")
    query = context["request"].GET

    def link(number: int) -> str:
        asked = query.copy()
        asked[param] = number
        return _escape("?" + asked.urlencode())

    links = []
    if page.has_previous():
        links.append(
            f'<a class="pager__link" href="{link(page.previous_page_number())}" rel="prev">'
            f"{_escape(earlier)}</a>"
        )
    links.append(
        f'<span class="pager__where">Page {int(page.number)} of '
        f"{int(page.paginator.num_pages)}</span>"
    )
    if page.has_next():
        links.append(
            f'<a class="pager__link" href="{link(page.next_page_number())}" rel="next">'
            f"{_escape(later)}</a>"
        )
    return SafeString(
        f'<nav class="pager" aria-label="{_escape(label)}">\n    '
        + "\n    ".join(links)
        + "\n  </nav>"
    )


@register.simple_tag
def unit_badges(unit) -> SafeString:
    """A card's rank, honours (relics marked) and scars as a list of badges.

    Built here rather than in an included template: the Order of Battle shows it for
    every card, and an include per card costs several times as much.
    """
    badges = []
    if not unit.no_xp:
        badges.append(("badge--rank", "", unit.rank.label))
    if unit.legendary_veteran:
        badges.append(("badge--veteran", "", rules.Requisition.LEGENDARY_VETERANS.label))
    for honour in unit.active_honours():
        relic = honour.category == rules.HonourCategory.CRUSADE_RELIC
        kind = "badge--honour badge--relic" if relic else "badge--honour"
        badges.append((kind, honour.get_category_display(), honour.name))
    for held in unit.active_scars():
        badges.append(("badge--scar", "Battle Scar", held.name))
    items = format_html_join(
        "",
        '<li><span class="badge {}"{}>{}</span></li>',
        (
            (kind, format_html(' title="{}"', title) if title else "", text)
            for kind, title, text in badges
        ),
    )
    return format_html(
        '<ul class="badges" aria-label="Rank, honours and scars of {}">{}</ul>', unit.name, items
    )


def _row_badges(row) -> str:
    """`unit_badges` for an Order of Battle row (a `selectors.CardRow`), the same list
    built as plain text: ``format_html`` per badge was most of a row's time."""
    items = []
    if not row.no_xp:
        items.append(f'<li><span class="badge badge--rank">{_escape(row.rank.label)}</span></li>')
    if row.legendary_veteran:
        veteran = _escape(rules.Requisition.LEGENDARY_VETERANS.label)
        items.append(f'<li><span class="badge badge--veteran">{veteran}</span></li>')
    for honour in row.honours:
        relic = honour.category == rules.HonourCategory.CRUSADE_RELIC
        kind = "badge--honour badge--relic" if relic else "badge--honour"
        title = _escape(honour.get_category_display())
        title = f' title="{title}"' if title else ""
        items.append(f'<li><span class="badge {kind}"{title}>{_escape(honour.name)}</span></li>')
    for scar in row.scars:
        items.append(
            '<li><span class="badge badge--scar" title="Battle Scar">'
            f"{_escape(scar.name)}</span></li>"
        )
    return (
        f'<ul class="badges" aria-label="Rank, honours and scars of {_escape(row.name)}">'
        f"{''.join(items)}</ul>"
    )


NO_THUMBNAIL = mark_safe('<span class="thumb-empty" aria-hidden="true"></span>')
NOT_IN_SUPPLY = " · not counted in supply"


@register.simple_tag
def order_of_battle_rows(rows) -> SafeString:
    """Every row of the Order of Battle table (`order_of_battle_row`), in one tag: a tag
    per row cost the template a lookup and an escape check for each of hundreds."""
    return SafeString("".join([order_of_battle_row(row) for row in rows]))


@register.simple_tag
def order_of_battle_row(row) -> SafeString:
    """One card's row of the Order of Battle table (a `selectors.CardRow`): picture,
    name and datasheet with what waits for it, points, XP, Crusade points and badges.

    In Python rather than in the page's template: the table has a row per card, and a
    template row costs several times as much to render (see `make bench`).
    """
    unit = row
    thumb = NO_THUMBNAIL
    if unit.thumbnail:
        url = _escape(unit.thumbnail)
        thumb = f'<img src="{url}" alt="" width="48" height="48" loading="lazy">'
    waiting = [
        (_numbered("promotion_settle", pk), "Promotion to settle")
        for pk in row.pending_promotion_pks
    ] + [(_numbered("out_of_action", pk), "Out of Action test") for pk in row.pending_test_pks]
    badges = "".join(
        f' <a class="badge badge--warn" href="{_escape(url)}">{text}</a>' for url, text in waiting
    )
    supply = "" if unit.counts_towards_supply else NOT_IN_SUPPLY
    return SafeString(
        "<tr>"
        f'<td class="oob-table__thumb">{thumb}</td>'
        f'<td class="oob-table__name"><a href="{_escape(_numbered("unit_detail", unit.pk))}">'
        f"{_escape(unit.name)}</a>"
        f'<span class="oob-table__datasheet">{_escape(unit.datasheet)}{supply}</span>{badges}</td>'
        f'<td class="num" data-label="Points">{int(unit.points)}</td>'
        f'<td class="num" data-label="XP">{_escape(unit.xp_display)}</td>'
        f'<td class="num" data-label="Crusade points">{int(unit.crusade_points)}</td>'
        f'<td class="oob-table__badges">{_row_badges(unit)}{agenda_badge(unit)}</td>'
        "</tr>"
    )


def history_entry(entry, date_format: str, show_unit: bool = False) -> SafeString:
    """One history row (a `selectors.HistoryLine`): summary, when, by whom, what it concerns and
    its reason, as the card's timeline and the force's history show it (``show_unit``
    links the unit it concerns).

    In Python rather than in an included template: both lists show a row per entry, and
    an include per row costs several times as much.
    """
    meta = [
        f'<time datetime="{_escape(entry.created_at.isoformat())}">'
        f"{_escape(_dated(entry.created_at, date_format))}</time>",
        "the app" if entry.actor_name is None else _escape(entry.actor_name),
    ]
    if show_unit and entry.unit_id:
        address = _escape(_numbered("unit_detail", entry.unit_id))
        meta.append(f'<a href="{address}">{_escape(entry.unit_name)}</a>')
    if entry.battle_id:
        meta.append(f'<a href="{_escape(_numbered("battle_detail", entry.battle_id))}">battle</a>')
    if entry.is_imported:
        source = entry.imported_from
        dated = _escape(str(source.get("created_at", ""))[:10])
        names = f" and names {_escape(source['by'])}" if source.get("by") else ""
        meta.append(
            '<span class="timeline__imported">imported from a Crusade export, where it is '
            f"dated {dated}{names}</span>"
        )
    reason = (
        f'<p class="timeline__reason">Reason: {_escape(entry.reason)}</p>' if entry.reason else ""
    )
    return SafeString(
        f'<p class="timeline__summary">{_escape(entry.summary)}</p>'
        f'<p class="timeline__meta">{" · ".join(meta)}</p>{reason}'
    )


@register.simple_tag
def history_items(rows, date_format: str, show_unit: bool = False) -> SafeString:
    """The items of a history list: each row as `history_entry` shows it, in an item of
    the timeline, with the numbers it changed when the row is a `selectors.HistoryRow`
    (a `HistoryEntry` alone, as the card's timeline has, shows none). One tag for the
    list: a tag per row costs a template node, a lookup and a context push each."""
    items = []
    for row in rows:
        entry = getattr(row, "entry", row)
        changes = "".join(
            f'<li><span class="changes__what">{_escape(what)}</span> '
            f'<span class="changes__numbers">{_escape(before)} → {_escape(after)}</span></li>'
            for what, before, after in (row.changes if entry is not row else ())
        )
        listed = f'<ul class="changes">{changes}</ul>' if changes else ""
        shown = history_entry(entry, date_format, show_unit)
        items.append(f'<li class="timeline__item">{shown}{listed}</li>')
    return SafeString("\n".join(items))


def _month(number: int) -> str:
    """The month's short name (as ``|date:"M"`` writes it) in the language of the page,
    translated once a process for each language."""
    return _months(get_language())[number - 1]


@lru_cache(maxsize=16)
def _months(language: str | None) -> tuple[str, ...]:
    return tuple(str(MONTHS_3[number]).title() for number in range(1, 13))


def _dated(value, date_format: str) -> str:
    """``value|date:date_format`` for the formats the history rows use, without parsing
    the format again for every row (the same text; other formats go to the filter)."""
    day = f"{value.day} {_month(value.month)} {value.year:04d}"
    if date_format == "j M Y":
        return day
    if date_format == "j M Y, H:i":
        return f"{day}, {value.hour:02d}:{value.minute:02d}"
    return date_filter(value, date_format)


def _requisition(option, badge: str, what: str) -> SafeString:
    """A Requisition's name with its ``badge``, ``what`` it does (escaped already) and
    why it can't be bought now."""
    refusals = ""
    if option.refusals:
        reasons = "".join(f"<li>{_escape(reason)}</li>" for reason in option.refusals)
        refusals = f'\n  <ul class="req__refusals">{reasons}</ul>'
    return SafeString(
        '<div class="req__text">\n'
        f'  <h3 class="req__name">{_escape(option.label)} '
        f'<span class="badge">{_escape(badge)}</span></h3>\n'
        f'  <p class="req__what">{what}</p>{refusals}\n</div>'
    )


@register.simple_tag
def requisition_text(option, extra="") -> SafeString:
    """A Requisition's name, its cost now, what it does (and ``extra``) and why it can't
    be bought. In Python: a card and an Order of Battle list every Requisition."""
    what = _escape(option.description) + (f" {_escape(extra)}" if extra else "")
    return _requisition(option, f"{option.cost}RP", what)


@register.simple_tag
def pack_requisition_text(option) -> SafeString:
    """A pack's Requisition: its name, cost, timing, effect, pack and why it can't be
    bought now (as `requisition_text`)."""
    where = f"({_escape(option.timing)}; from {_escape(option.item.pack.name)})"
    what = f'{_escape(option.description)} <span class="muted">{where}</span>'
    return _requisition(option, option.cost_label, what)


@register.simple_tag
def xp_battle_rows(battles) -> SafeString:
    """The rows of the card's "XP by battle" table (`selectors.XpBattle`s): a link to each
    battle, its XP before and after. In Python: the table has a row per battle shown."""
    rows = []
    for battle in battles:
        mission = f": {_escape(battle.mission)}" if battle.mission else ""
        rows.append(
            f'<tr><td data-label="Battle"><a href="'
            f'{_escape(_numbered("battle_detail", battle.battle_id))}">'
            f"{_escape(_dated(battle.date, 'j M Y'))}{mission}</a></td>"
            f'<td data-label="XP before" class="num">{_escape(battle.xp_before)}</td>'
            f'<td data-label="XP after" class="num">{_escape(battle.xp_after)}</td></tr>'
        )
    return SafeString("".join(rows))


@register.simple_tag
def news_items(lines) -> SafeString:
    """The dashboard's lines of news (`selectors.since.NewsLine`), each as an item: when,
    where, what, and a link to what it is about. In Python: a page has a line per entry,
    each with two dates and a link (see `make bench`)."""
    items = []
    for line in lines:
        entry = line.entry
        when = timezone.localtime(entry.created_at)
        name, pk = line.about
        by = (
            f' <span class="card__meta">({_escape(entry.actor.get_username())})</span>'
            if entry.actor
            else ""
        )
        items.append(
            f'<li><time datetime="{_escape(when.isoformat())}">'
            f"{when.day} {_escape(_month(when.month))}, "
            f"{when.hour:02d}:{when.minute:02d}</time> · {_escape(entry.campaign.name)} · "
            f"<strong>{_escape(line.what)}</strong>: "
            f'<a href="{_escape(_numbered(name, pk))}">{_escape(entry.summary)}</a>{by}</li>'
        )
    return SafeString("\n".join(items))


def agenda_badge(unit) -> SafeString:
    """The card's Agendas achieved tally on its Order of Battle row (none at 0)."""
    tally = unit.agenda_tally
    if not tally:
        return SafeString("")
    return format_html(
        ' <span class="badge badge--agenda">{} Agenda{} achieved</span>', tally, pluralize(tally)
    )
