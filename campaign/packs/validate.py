"""Read a content pack file: a ``Pack`` of plain dataclasses, or a ``PackError``.

Hostile input is refused before it costs anything: the size is checked before
parsing, the nesting depth by a scan of the text, numbers by their length while
parsing, NaN and Infinity and repeated object keys while parsing. Then every field is
checked against ``spec``, and every problem is reported with its place and rule.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from . import spec
from .errors import PackError
from .model import Pack
from .spec import EFFECT_KIND_FIELDS, Field, Obj

ID_RE = re.compile(spec.ID_PATTERN)
COLOUR_RE = re.compile(spec.COLOUR_PATTERN)
TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]', re.DOTALL)
"""A string (to its end, even unclosed: never scanned twice) or a bracket."""
CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
CONTROL_BUT_NEWLINE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f\ud800-\udfff]")
"""Control characters (a newline is allowed in longer texts) and lone surrogates."""


class _Refusal(Exception):
    """Raised from the parser's hooks; becomes a one-problem PackError."""


def _refuse_constant(name: str) -> None:
    raise _Refusal(f"{name} is not a number a pack can hold")


def _bounded_int(text: str) -> int:
    if len(text) > spec.MAX_NUMBER_DIGITS:
        raise _Refusal(f"a number of {len(text)} digits is too long")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > spec.MAX_NUMBER_DIGITS:
        raise _Refusal(f"a number of {len(text)} characters is too long")
    value = float(text)
    if not math.isfinite(value):
        _refuse_constant(text)
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refusal(f'the key "{key[:40]}" appears twice in one object')
        result[key] = value
    return result


def _depth(text: str) -> int:
    deepest = level = 0
    for match in TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            level += 1
            deepest = max(deepest, level)
        elif token in ("]", "}"):
            level -= 1
    return deepest


def parse(data: bytes) -> Any:
    """The JSON value of ``data``, or a PackError naming why it can't be read."""
    if len(data) > spec.MAX_BYTES:
        raise PackError([f"(file): larger than {spec.MAX_BYTES} bytes"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PackError(["(file): not UTF-8 text"]) from None
    if _depth(text) > spec.MAX_DEPTH:
        raise PackError([f"(file): nested deeper than {spec.MAX_DEPTH} levels"])
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_refuse_constant,
            parse_int=_bounded_int,
            parse_float=_bounded_float,
        )
    except _Refusal as refusal:
        raise PackError([f"(file): {refusal}"]) from None
    except (ValueError, RecursionError) as error:
        line = getattr(error, "lineno", None)
        where = f" (line {line})" if line else ""
        raise PackError([f"(file): not JSON{where}"]) from None


def _check_field(f: Field, value: Any, place: str, problems: list[str]) -> Any:
    """The checked value (lists become tuples of dataclasses), or None after a problem."""
    if f.kind in ("text", "id", "enum", "colour"):
        if not isinstance(value, str):
            problems.append(f"{place}: must be text")
            return None
        if f.kind == "colour" and not COLOUR_RE.fullmatch(value):
            problems.append(f"{place}: must be # and six hex digits, like #3366cc")
            return None
        if f.kind == "id" and not ID_RE.match(value):
            problems.append(f"{place}: must be 1 to 40 lowercase letters, digits or hyphens")
            return None
        if f.kind == "enum" and value not in f.choices:
            problems.append(f"{place}: must be one of {', '.join(f.choices)}")
            return None
        if f.kind == "text":
            if not f.min_length <= len(value) <= f.max_length:
                if f.min_length:
                    rule = f"must be {f.min_length} to {f.max_length} characters"
                else:
                    rule = f"must be at most {f.max_length} characters"
                problems.append(f"{place}: {rule}")
                return None
            if f.min_length and not value.strip():
                problems.append(f"{place}: must not be blank")
                return None
            control = CONTROL if f.max_length <= spec.NAME_MAX else CONTROL_BUT_NEWLINE
            if control.search(value):
                problems.append(f"{place}: must not hold control characters")
                return None
        return value
    if f.kind == "bool":
        if not isinstance(value, bool):
            problems.append(f"{place}: must be true or false")
            return None
        return value
    if f.kind == "int":
        if type(value) is not int:
            problems.append(f"{place}: must be a whole number")
            return None
        if not f.minimum <= value <= f.maximum:
            if f.minimum == f.maximum:
                problems.append(f"{place}: must be {f.minimum}")
            else:
                problems.append(f"{place}: must be between {f.minimum} and {f.maximum}")
            return None
        return value
    assert f.item is not None
    if f.kind == "object":
        return _check_object(f.item, value, place, problems)
    if not isinstance(value, list):
        problems.append(f"{place}: must be a list")
        return None
    if len(value) > f.max_items:
        problems.append(f"{place}: must hold at most {f.max_items} items")
        return None
    items = [_check_object(f.item, v, f"{place}[{i}]", problems) for i, v in enumerate(value)]
    if f.item.unique_id:
        seen: set[str] = set()
        for i, item in enumerate(value):
            ident = item.get("id") if isinstance(item, dict) else None
            if isinstance(ident, str) and ident in seen:
                problems.append(f'{place}[{i}].id: "{ident}" is used twice')
            elif isinstance(ident, str):
                seen.add(ident)
    return None if None in items else tuple(items)


def _check_object(obj: Obj, value: Any, place: str, problems: list[str]) -> Any:
    if not isinstance(value, dict):
        problems.append(f"{place}: must be an object ({obj.name})")
        return None
    known = {f.name for f in obj.fields}
    before = len(problems)
    for key in value:
        if key not in known:
            problems.append(f'{place or "(file)"}: unknown key "{key[:40]}"')
    values: dict[str, Any] = {}
    for f in obj.fields:
        where = f"{place}.{f.name}" if place else f.name
        if f.name not in value:
            if f.required:
                problems.append(f"{where}: is missing")
            continue
        values[f.name] = _check_field(f, value[f.name], where, problems)
    if len(problems) > before:
        return None
    return obj.cls(**values)


def _check_links(pack: Pack, problems: list[str]) -> None:
    """The rules that span fields and sections."""
    counters = {c.id: c for c in pack.counters}
    upgrades = {u.id for u in pack.upgrades}
    for i, c in enumerate(pack.counters):
        if c.id == "rp":
            problems.append(f'counters[{i}].id: "rp" means Requisition points in cost_in')
        if not c.least <= c.start <= c.most:
            problems.append(f"counters[{i}]: must have least <= start <= most")
    if pack.agendas and pack.agendas_per_battle is None:
        problems.append("agendas_per_battle: is needed when the pack has agendas")
    last = 0
    for i, t in enumerate(pack.underdog_thresholds):
        if t.gap_at_least <= last:
            problems.append(
                f"underdog_thresholds[{i}].gap_at_least: must be greater than the one before"
            )
        last = t.gap_at_least
    for i, r in enumerate(pack.requisitions):
        place = f"requisitions[{i}]"
        if r.cost_in != "rp":
            counter = counters.get(r.cost_in)
            if counter is None:
                problems.append(f"{place}.cost_in: names no counter of this pack")
            elif counter.per != "force":
                problems.append(f"{place}.cost_in: must name a counter kept per force")
        needed = EFFECT_KIND_FIELDS[r.effect_kind]
        for name in ("counter", "change", "upgrade"):
            given = getattr(r, name) is not None
            if name in needed and not given:
                problems.append(f'{place}.{name}: is needed for effect_kind "{r.effect_kind}"')
            elif given and name not in needed:
                owner = "upgrade" if name == "upgrade" else "counter"
                problems.append(f'{place}.{name}: is only for effect_kind "{owner}"')
        if r.counter is not None and r.effect_kind == "counter":
            counter = counters.get(r.counter)
            if counter is None:
                problems.append(f"{place}.counter: names no counter of this pack")
            elif counter.per != r.target:
                problems.append(f"{place}.counter: is kept per {counter.per}, not per {r.target}")
        if r.upgrade is not None and r.effect_kind == "upgrade":
            if r.upgrade not in upgrades:
                problems.append(f"{place}.upgrade: names no upgrade of this pack")
            elif r.target != "unit":
                problems.append(f'{place}.target: must be "unit" to give an upgrade')
        if r.change == 0:
            problems.append(f"{place}.change: must not be 0")
    names: set[str] = set()
    for i, a in enumerate(pack.alliances):
        name = a.name.strip().casefold()
        if name in names:
            problems.append(f'alliances[{i}].name: "{a.name}" is used twice')
        names.add(name)


def check(value: Any) -> Pack:
    """``value`` (parsed JSON) as a Pack, or a PackError listing every problem."""
    problems: list[str] = []
    if not isinstance(value, dict):
        raise PackError(["(file): must be a JSON object"])
    pack = _check_object(spec.PACK, value, "", problems)
    if pack is not None:
        _check_links(pack, problems)
    if problems:
        extra = len(problems) - spec.MAX_PROBLEMS
        problems = problems[: spec.MAX_PROBLEMS]
        if extra > 0:
            problems.append(f"(file): and {extra} more problems")
        raise PackError(problems)
    return pack


def load_pack(data: bytes) -> Pack:
    """Parse and check the bytes of a pack file."""
    return check(parse(data))
