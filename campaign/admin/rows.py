"""A changelist's rows built in Python, the same cells Django's `items_for_result` writes.

Django works out again, for every cell of every row, what the column is (a field, an
admin method, a callable), its classes, its empty value and its link: about 80 µs a cell,
most of an organiser's list of fifty rows. Here that is worked out once a page
(`column_plan`), and each row is one string. The HTML is Django's, cell for cell
(tests/admin/test_changelist_rows.py compares the two); a list with editable cells or
opened as a popup keeps Django's own rows.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.contrib.admin.templatetags.admin_list import (
    ResultList,
    _coerce_field_name,
    admin_list_filter,
    pagination,
    paginator_number,
    result_headers,
    result_hidden_fields,
    results,
)
from django.contrib.admin.templatetags.admin_urls import add_preserved_filters
from django.contrib.admin.utils import (
    FieldIsAForeignKeyColumnName,
    _get_non_gfk_field,
    display_for_field,
    display_for_value,
    lookup_field,
)
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist
from django.db import models
from django.urls import NoReverseMatch
from django.utils import formats, timezone
from django.utils.encoding import iri_to_uri
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from campaign.forms.widgets import escape

from .scope import SOME_PK


@dataclass(frozen=True)
class Column:
    """How one column of the list finds and shows its cell."""

    name: object
    value: Callable
    """obj -> (field or None, attr, value), as Django's `lookup_field`."""
    classes: str
    linked: bool
    first_link: bool
    empty: str
    plain: bool = False
    """A cell whose text value Django shows as it is (a text field without choices, or a
    method's text): escaped straight away."""


def _field_of(opts, name):
    if callable(name):
        return None
    try:
        return _get_non_gfk_field(opts, name)
    except (FieldDoesNotExist, FieldIsAForeignKeyColumnName):
        return None


def _reader(name, field, model_admin) -> Callable:
    """The cell's (field, attr, value) reader, resolved once for the page."""
    if field is not None:
        attname = field.name
        return lambda obj: (field, None, getattr(obj, attname))
    if callable(name):
        return lambda obj: (None, name, name(obj))
    if isinstance(name, str) and name != "__str__" and hasattr(model_admin, name):
        method = getattr(model_admin, name)
        return lambda obj: (None, method, method(obj))
    return lambda obj: lookup_field(name, obj, model_admin)


def _is_plain(name, field, model_admin) -> bool:
    if field is not None:
        return type(field) in (models.CharField, models.TextField) and not field.flatchoices
    if callable(name):
        return not getattr(name, "boolean", False)
    if isinstance(name, str) and name != "__str__" and hasattr(model_admin, name):
        return not getattr(getattr(model_admin, name), "boolean", False)
    return False


def column_plan(cl) -> list[Column]:
    opts = cl.lookup_opts
    model_admin = cl.model_admin
    plan = []
    links = cl.list_display_links
    first = True
    for index, name in enumerate(cl.list_display):
        if links is None:
            linked = False
        elif first and not links:
            linked = True
        else:
            linked = name in links
        field = _field_of(opts, name)
        classes = "action-checkbox" if name == "action_checkbox" and field is None else None
        plan.append(
            Column(
                name=name,
                value=_reader(name, field, model_admin),
                classes=classes or f"field-{_coerce_field_name(name, index)}",
                linked=linked,
                first_link=linked and first,
                empty=model_admin.get_empty_value_display(),
                plain=_is_plain(name, field, model_admin),
            )
        )
        if linked:
            first = False
    return plan


def _cell_text(column: Column, obj, choices: dict) -> tuple[str, list[str]]:
    """The cell's shown value (escaped or safe) and the classes it adds."""
    extra: list[str] = []
    empty = column.empty
    try:
        f, attr, value = column.value(obj)
    except ObjectDoesNotExist:
        return empty, extra
    empty = getattr(attr, "empty_value_display", empty)
    if isinstance(value, str) and value.strip() == "":
        value = ""
    elif column.plain and type(value) is str:
        return escape(value), extra
    if f is None or f.auto_created:
        boolean = getattr(attr, "boolean", False)
        if isinstance(attr, property) and hasattr(attr, "fget"):
            boolean = getattr(attr.fget, "boolean", False)
        shown = display_for_value(value, empty, boolean)
        if isinstance(value, (datetime.date, datetime.time)):
            extra.append("nowrap")
    else:
        if isinstance(f.remote_field, models.ManyToOneRel):
            related = getattr(obj, f.name)
            shown = empty if related is None else related
        elif f.name in choices:
            try:
                shown = choices[f.name].get(value, empty)
            except TypeError:
                shown = display_for_field(value, f, empty, avoid_link=column.linked)
        elif type(value) is datetime.date and type(f) is models.DateField:
            shown = _date_text(value, get_language())
        elif type(value) is datetime.datetime and type(f) is models.DateTimeField:
            shown = _moment_text(value)
        else:
            shown = display_for_field(value, f, empty, avoid_link=column.linked)
        if isinstance(f, (models.DateField, models.TimeField, models.ForeignKey)):
            extra.append("nowrap")
    return escape(shown), extra


@functools.lru_cache(maxsize=1024)
def _date_text(value: datetime.date, language: str) -> str:
    """A date as Django's list shows it (`formats.localize`), worked out once a day and
    language: a list of battles shows a few dates many times."""
    return formats.localize(value)


def _moment_text(value: datetime.datetime) -> str:
    """A moment as Django's list shows it, in the current time zone, worked out once a
    minute when the format shows no seconds (every row of the history has its moment)."""
    local = timezone.template_localtime(value)
    language = get_language()
    if _shows_seconds(language):
        return formats.localize(local)
    return _minute_text(local.replace(second=0, microsecond=0), str(local.tzinfo), language)


@functools.lru_cache(maxsize=64)
def _shows_seconds(language: str) -> bool:
    """Whether the language's format of a moment shows its seconds (asked of Django's
    formats once a process: a list of history asks it for every row)."""
    return any(second in formats.get_format("DATETIME_FORMAT") for second in "suvUrc")


@functools.lru_cache(maxsize=1024)
def _minute_text(minute: datetime.datetime, zone: str, language: str) -> str:
    return formats.localize(minute)


def _link_address(cl) -> str | None:
    """The page's row address with SOME_PK for the row's id, or None without one."""
    some = type("Some", (), {cl.pk_attname: SOME_PK})()
    try:
        url = cl.url_for_result(some)
    except NoReverseMatch:
        return None
    return add_preserved_filters({"preserved_filters": cl.preserved_filters, "opts": cl.opts}, url)


def lean_rows(cl) -> Iterator[ResultList]:
    plan = column_plan(cl)
    opts = cl.lookup_opts
    choices = {}  # each field's choices, read once a page (Django reads them once a cell)
    for column in plan:
        field = _field_of(opts, column.name)
        if field is not None and getattr(field, "flatchoices", None):
            with contextlib.suppress(TypeError):  # list-like choices: Django's own way
                choices[field.name] = dict(field.flatchoices)
    address = _link_address(cl) if any(c.linked for c in plan) else None
    some = str(SOME_PK)
    pk_attname = cl.pk_attname
    for obj in cl.result_list:
        cells = []
        for column in plan:
            shown, extra = _cell_text(column, obj, choices)
            classes = f"{column.classes} {' '.join(extra)}" if extra else column.classes
            if column.linked:
                tag = "th" if column.first_link else "td"
                pk = getattr(obj, pk_attname)
                if address is None or not isinstance(pk, int):
                    cells.append(_django_cell(cl, obj, column))
                    continue
                href = address.replace(some, str(pk))
                cells.append(f'<{tag} class="{classes}"><a href="{href}">{shown}</a></{tag}>')
            else:
                cells.append(f'<td class="{classes}">{shown}</td>')
        yield ResultList(None, [mark_safe("".join(cells))])


def _django_cell(cl, obj, column: Column) -> str:
    """One linked cell as Django writes it (a row whose id is not a number)."""
    from django.contrib.admin.templatetags.admin_list import items_for_result

    index = list(cl.list_display).index(column.name)
    return list(items_for_result(cl, obj, None))[index]


def organiser_result_list(cl) -> dict:
    """Django's `result_list` context, with the rows built by `lean_rows` when it can."""
    headers = list(result_headers(cl))
    lean = not cl.formset and not cl.is_popup and not cl.to_field
    return {
        "cl": cl,
        "result_hidden_fields": list(result_hidden_fields(cl)),
        "result_headers": headers,
        "num_sorted_fields": sum(1 for h in headers if h["sortable"] and h["sorted"]),
        "results": list(lean_rows(cl) if lean else results(cl)),
    }


FILTER_TEMPLATE = "admin/filter.html"


def lean_filter(cl, spec) -> str:
    """One filter of the list's sidebar, the HTML of Django's `admin/filter.html` written
    in Python: the history's filter by action has some seventy choices, and rendering the
    template for them was a fifth of the list's time. A filter with a template of its own
    keeps Django's way."""
    if spec.template != FILTER_TEMPLATE:
        return admin_list_filter(cl, spec)
    items = []
    for choice in spec.choices(cl):
        selected = ' class="selected"' if choice["selected"] else ""
        href = escape(iri_to_uri(choice["query_string"]))
        items.append(f'<li{selected}><a href="{href}">{escape(choice["display"])}</a></li>')
    title = escape(spec.title)
    by = escape(gettext(" By %(filter_title)s ") % {"filter_title": spec.title})
    return mark_safe(
        f'<details data-filter-title="{title}" open><summary>{by}</summary>'
        f"<ul>{''.join(items)}</ul></details>"
    )


def lean_pagination(cl) -> str:
    """The list's line of page links and its count, the HTML of Django's
    ``admin/pagination.html`` written in Python."""
    context = pagination(cl)
    parts = ['<p class="paginator">']
    if context["pagination_required"]:
        parts.extend(paginator_number(cl, i) for i in context["page_range"])
    count = cl.result_count
    name = cl.opts.verbose_name if count == 1 else cl.opts.verbose_name_plural
    parts.append(f"{count} {escape(name)}")
    if context["show_all_url"]:
        address, label = escape(context["show_all_url"]), escape(gettext("Show all"))
        parts.append(f'<a href="{address}" class="showall">{label}</a>')
    if cl.formset and count:
        label = escape(gettext("Save"))
        parts.append(f'<input type="submit" name="_save" class="default" value="{label}">')
    parts.append("</p>")
    return mark_safe("\n".join(parts))
