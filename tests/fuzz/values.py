"""What the fuzz types into a field: numbers past every column, negative and not numbers
at all, text that is empty, endless or unusual, other players' ids and lists of them.

Surrogates are left out: HTTP carries UTF-8, which cannot encode them. Each strategy is
built once (`functools.cache`, on the controls and forms of the module's catalogue):
hypothesis spends more on a new strategy than on drawing from one it knows.
"""

from __future__ import annotations

import functools
import io
import re
from urllib.parse import quote

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import resolve
from hypothesis import strategies as st
from PIL import Image

from campaign import rules

from .pages import Control, PostForm

HUGE = str(10**30)
LONG = "x" * 100_000
NUL = "\x00"
SUPERSCRIPT = "²"
"""A digit to str.isdigit(), not to int()."""
NUMBERS = (
    HUGE,
    str(-(10**30)),
    str(2**63),
    str(2**63 - 1),
    str(-(2**63)),
    str(2**31),
    "-1",
    "0",
    "1",
    "7",
    "101",
    "100001",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    "1.5",
    "1e3",
    "0x10",
    " 7 ",
    "+3",
    "١٢",  # Arabic-Indic digits: int() reads them
    SUPERSCRIPT,
    "½",
)
TEXTS = (
    "",
    " ",
    LONG,
    "twelve",
    "\u202eRTL override\u202c",
    "مرحبا بالعالم",
    "🛡️⚔️💀",
    NUL,
    "a\x00b",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%s %(x)s {0}",
    "{{ request }}",
    "\r\n\t",
    "𝕏" * 1000,
    "e\u0301" * 500,
)
DATES = ("2024-02-30", "9999-12-31", "0001-01-01", "10000-01-01", "2024-13-01", "1/2/3")


def _png() -> bytes:
    """A small picture the upload forms take."""
    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), "darkred").save(buffer, "PNG")
    return buffer.getvalue()


PNG = _png()
CONTENTS = (PNG, PNG[:30], b"", b"\x00" * 512, b"{}", b'{"format": "crusade-export"}', b"[" * 5000)
FILE_NAMES = ("picture.png", "list.json", "roster.ros", "a" * 300 + ".jpg", "\u202egnp.exe", " ")


@functools.cache
def text() -> st.SearchStrategy[str]:
    """Any text HTTP can carry, short."""
    return st.text(st.characters(codec="utf-8"), max_size=30)


@functools.cache
def strange(ids: tuple[int, ...]) -> st.SearchStrategy[str]:
    """One value that does not belong in the field it is typed into."""
    return st.one_of(
        st.sampled_from(NUMBERS),
        st.sampled_from(TEXTS),
        st.sampled_from(ids).map(str),
        st.sampled_from(DATES),
        st.integers().map(str),
        text(),
    )


@functools.cache
def offered(control: Control) -> st.SearchStrategy[list[str]]:
    """What the page offers in this control: one option, or several for a checkbox group."""
    if not control.offered:
        return st.just(control.filled)
    if control.kind in ("checkbox", "multi"):
        return st.lists(st.sampled_from(control.offered), max_size=4, unique=True)
    return st.sampled_from(control.offered).map(lambda value: [value])


@functools.cache
def values(control: Control, ids: tuple[int, ...]) -> st.SearchStrategy[list[str]]:
    """The values sent under one name: one strange value, a list of ids and strange
    numbers (for the multi-selects, e.g. `opponents` and `units`), or nothing at all."""
    return st.one_of(
        strange(ids).map(lambda value: [value]),
        st.lists(
            st.one_of(st.sampled_from(ids).map(str), st.sampled_from(NUMBERS), offered(control)),
            min_size=1,
            max_size=4,
        ).map(_flat),
        st.just([]),
    )


def _flat(items: list) -> list[str]:
    return [v for item in items for v in (item if isinstance(item, list) else [item])]


@functools.cache
def upload() -> st.SearchStrategy[SimpleUploadedFile]:
    """A file that is not what the field asks for: a broken picture, JSON, nothing."""
    return st.builds(
        SimpleUploadedFile,
        st.sampled_from(FILE_NAMES),
        st.one_of(st.sampled_from(CONTENTS), st.binary(max_size=64)),
    )


@functools.cache
def submission(form: PostForm, ids: tuple[int, ...]) -> st.SearchStrategy[tuple[dict, dict]]:
    """The data of one POST of ``form``: a few controls strange, the others filled in as
    a player would or set to one of their options, and at most one button pressed, as
    (data, files)."""
    names = sorted(form.controls)
    changed = st.sets(st.sampled_from(names), max_size=3) if names else st.just(set())
    pressed = st.none() | st.sampled_from(form.buttons) if form.buttons else st.none()
    return _submission(form, ids, changed, pressed)


@functools.cache
def kept(control: Control) -> st.SearchStrategy[list[str]]:
    """A control left alone: filled in as a player would, or set to one of its options."""
    return st.one_of(st.just(control.filled), offered(control))


@st.composite
def _submission(draw, form: PostForm, ids: tuple[int, ...], changed, pressed):
    strange_ones = draw(changed)
    data: dict[str, list[str]] = {}
    files = {}
    for name, control in sorted(form.controls.items()):
        if control.is_file:
            if name in strange_ones or draw(st.booleans()):
                files[name] = draw(upload())
        elif name in strange_ones:
            data[name] = draw(values(control, ids))
        else:
            data[name] = draw(kept(control))
    button = draw(pressed)
    if button is not None:
        data[button[0]] = [button[1]]
    return data, files


def _swap(path: str, name: str, value) -> str:
    """``path`` with its argument ``name`` (as `resolve` reads it) set to ``value``."""
    old = f"/{quote(str(resolve(path).kwargs[name]))}/"
    return path.replace(old, f"/{quote(str(value), safe='')}/", 1)


PATH_WORDS = (NUL, "a\x00b", LONG, "%", "\u202eRTL", HUGE)
"""What the sweep puts in a path's text argument (an invitation code, a requisition)."""
PATH_IDS = ("0", "-1", str(2**63 - 1), str(2**63), HUGE)
"""What the sweep puts in a primary key, besides other players' ids."""


def strange_paths(path: str, foreign: list[int]) -> list[tuple[str, bool]]:
    """``path`` with each of its arguments in turn absurd (to GET and POST), or another
    player's id (to GET: posting there is the fuzz's and the permission matrix's job)."""
    found = []
    for name in sorted(resolve(path).kwargs):
        absurd = PATH_IDS if name == "pk" else PATH_WORDS
        found += [(_swap(path, name, value), True) for value in absurd]
        if name == "pk":
            found += [(_swap(path, name, value), False) for value in foreign]
    return found


@functools.cache
def swapped(path: str, ids: tuple[int, ...]) -> st.SearchStrategy[str]:
    """The path with one of its arguments swapped: another player's id or an absurd one
    for a primary key (Django's `<int:pk>` takes any digits), strange text for a string
    (an invitation code, a requisition's name)."""
    kwargs = resolve(path).kwargs
    if not kwargs:
        return st.just(path)
    words = st.one_of(
        text().filter(bool),
        st.sampled_from([t for t in TEXTS if t]),
        st.sampled_from([r.value for r in rules.Requisition]),
    )
    numbers = st.sampled_from(ids).map(str) | st.sampled_from(NUMBERS)

    def swap(name: str) -> st.SearchStrategy[str]:
        new = numbers if name == "pk" else words
        return new.map(lambda value: _swap(path, name, value))

    return st.sampled_from(sorted(kwargs)).flatmap(swap)


@functools.cache
def paths(pages: tuple[str, ...], ids: tuple[int, ...]) -> st.SearchStrategy[str]:
    """One of a URL's pages, as it is or with an argument swapped."""
    page = st.sampled_from(pages)
    return page | page.flatmap(lambda path: swapped(path, ids))


@functools.cache
def queries(ids: tuple[int, ...]) -> st.SearchStrategy[dict]:
    """A query string for a page: a page number, the live supply check's points."""
    names = st.sampled_from(("page", "points", "counts_towards_supply"))
    return st.dictionaries(names, strange(ids), max_size=2)


CSRF = "csrfmiddlewaretoken"


def shape(name: str) -> str:
    """A control's name without its ids: `unit-3-keep` and `kills_12` are `unit-#-keep`
    and `kills_#`, the same control for another unit."""
    return re.sub(r"\d+", "#", name)


def edges(control: Control, foreign: int) -> list[list[str]]:
    """The values the sweep gives one control, by what it takes."""
    if control.is_file or control.name == CSRF or control.offered == ["on"]:
        return []  # files and boxes: the fuzz sends them; the token: the client skips it
    if control.offered:
        return [[HUGE], [NUL], [str(foreign), HUGE, SUPERSCRIPT]]  # ids, alone and in a list
    if control.kind == "number":
        return [[HUGE], ["-1"], ["NaN"]]
    return [[HUGE], [NUL], [LONG]]


def one_strange_control(form: PostForm, foreign: int):
    """The form filled in, with each button pressed; then with one control of each shape
    at a time set to each of its edge values, the first button pressed (a form with
    buttons does nothing without one)."""
    pressed = dict([(form.buttons[0][0], [form.buttons[0][1]])] if form.buttons else [])
    yield {**form.filled, **pressed}
    if not form.shown_on_a_page:
        return  # a URL no form posts to: one POST shows how it answers
    for button, value in form.buttons[1:]:
        yield {**form.filled, button: [value]}
    shapes: dict[str, Control] = {}
    for name, control in sorted(form.controls.items()):
        shapes.setdefault(shape(name), control)
    for control in shapes.values():
        for edge in edges(control, foreign):
            yield {**form.filled, control.name: edge, **pressed}
