"""Reading and writing JSON data files a user uploads: content packs and campaign maps.

Plain Python, no Django. A format is declared once as ``Obj``s of ``Field``s; `parse`
reads a file's bytes with hostile input refused before it costs anything (the size before
parsing, the nesting depth by a scan of the text, numbers by their length, NaN and
Infinity and repeated keys while parsing); `check_object` checks a value against the
declaration, each problem a line "place: rule"; `finish` raises them, at most a number of
them; `encode_object` writes a value back in the declared order; `schema_object` is the
JSON Schema of an ``Obj``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ID_PATTERN = "^[a-z0-9-]{1,40}$"
ID_RE = re.compile(ID_PATTERN)
COLOUR_PATTERN = "^#[0-9a-fA-F]{6}$"
COLOUR_RE = re.compile(COLOUR_PATTERN)
NAME_MAX = 80
"""Texts this long or shorter are one line: no control character, not even a newline."""
MAX_ITEMS = 200
TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]', re.DOTALL)
"""A string (to its end, even unclosed: never scanned twice) or a bracket."""
CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
CONTROL_BUT_NEWLINE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f\ud800-\udfff]")
"""Control characters (a newline is allowed in longer texts) and lone surrogates."""


Extend = Callable[["Obj", dict[str, Any]], None]


class FileProblems(Exception):
    """A file is not good: ``problems`` are lines "place: rule"."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems

    def __str__(self) -> str:
        return "\n".join(self.problems)


@dataclass(frozen=True)
class Field:
    """One field. Its kind is "text", "id" (a lowercase slug), "int", "bool", "enum",
    "object" (of ``item``), "list" (of ``item`` objects) or "ids" (a list of ids)."""

    name: str
    kind: str
    required: bool = True
    min_length: int = 0
    max_length: int = 0
    minimum: int = 0
    maximum: int = 0
    choices: tuple[str, ...] = ()
    item: Obj | None = None
    max_items: int = MAX_ITEMS
    description: str = ""


@dataclass(frozen=True)
class Obj:
    name: str
    cls: type
    fields: tuple[Field, ...]
    description: str = ""
    unique_id: bool = True

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)


@dataclass(frozen=True)
class Limits:
    """How much of a file is read before it is refused, and how much is said about it."""

    max_bytes: int
    max_depth: int
    max_number_digits: int = 12
    max_problems: int = 50
    noun: str = "file"
    """What the file is, in "NaN is not a number a pack can hold"."""


class _Refusal(Exception):
    """Raised from the parser's hooks; becomes a one-problem error."""


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


def parse(data: bytes, limits: Limits, error: type[FileProblems] = FileProblems) -> Any:
    """The JSON value of ``data``, or an ``error`` naming why it can't be read."""
    if len(data) > limits.max_bytes:
        raise error([f"(file): larger than {limits.max_bytes} bytes"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(["(file): not UTF-8 text"]) from None
    if _depth(text) > limits.max_depth:
        raise error([f"(file): nested deeper than {limits.max_depth} levels"])

    def constant(name: str) -> None:
        raise _Refusal(f"{name} is not a number a {limits.noun} can hold")

    def whole(number: str) -> int:
        if len(number) > limits.max_number_digits:
            raise _Refusal(f"a number of {len(number)} digits is too long")
        return int(number)

    def decimal(number: str) -> float:
        if len(number) > limits.max_number_digits:
            raise _Refusal(f"a number of {len(number)} characters is too long")
        value = float(number)
        if not math.isfinite(value):
            constant(number)
        return value

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise _Refusal(f'the key "{key[:40]}" appears twice in one object')
            result[key] = value
        return result

    try:
        return json.loads(
            text,
            object_pairs_hook=unique_keys,
            parse_constant=constant,
            parse_int=whole,
            parse_float=decimal,
        )
    except _Refusal as refusal:
        raise error([f"(file): {refusal}"]) from None
    except (ValueError, RecursionError) as failure:
        line = getattr(failure, "lineno", None)
        where = f" (line {line})" if line else ""
        raise error([f"(file): not JSON{where}"]) from None


def _check_text(f: Field, value: Any, place: str, problems: list[str]) -> Any:
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
        control = CONTROL if f.max_length <= NAME_MAX else CONTROL_BUT_NEWLINE
        if control.search(value):
            problems.append(f"{place}: must not hold control characters")
            return None
    return value


def _check_ids(f: Field, value: Any, place: str, problems: list[str]) -> Any:
    if not isinstance(value, list):
        problems.append(f"{place}: must be a list")
        return None
    if len(value) > f.max_items:
        problems.append(f"{place}: must hold at most {f.max_items} items")
        return None
    before = len(problems)
    seen: set[str] = set()
    for i, ident in enumerate(value):
        if not isinstance(ident, str) or not ID_RE.match(ident):
            problems.append(f"{place}[{i}]: must be 1 to 40 lowercase letters, digits or hyphens")
        elif ident in seen:
            problems.append(f'{place}[{i}]: "{ident}" is listed twice')
        else:
            seen.add(ident)
    return None if len(problems) > before else tuple(value)


def check_field(f: Field, value: Any, place: str, problems: list[str]) -> Any:
    """The checked value (lists become tuples of dataclasses), or None after a problem."""
    if f.kind in ("text", "id", "enum", "colour"):
        return _check_text(f, value, place, problems)
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
    if f.kind == "ids":
        return _check_ids(f, value, place, problems)
    assert f.item is not None
    if f.kind == "object":
        return check_object(f.item, value, place, problems)
    if not isinstance(value, list):
        problems.append(f"{place}: must be a list")
        return None
    if len(value) > f.max_items:
        problems.append(f"{place}: must hold at most {f.max_items} items")
        return None
    items = [check_object(f.item, v, f"{place}[{i}]", problems) for i, v in enumerate(value)]
    if f.item.unique_id:
        seen: set[str] = set()
        for i, item in enumerate(value):
            ident = item.get("id") if isinstance(item, dict) else None
            if isinstance(ident, str) and ident in seen:
                problems.append(f'{place}[{i}].id: "{ident}" is used twice')
            elif isinstance(ident, str):
                seen.add(ident)
    return None if None in items else tuple(items)


def check_object(obj: Obj, value: Any, place: str, problems: list[str]) -> Any:
    """``value`` as ``obj.cls``, or None after adding its problems to ``problems``."""
    if not isinstance(value, dict):
        problems.append(f"{place or '(file)'}: must be an object ({obj.name})")
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
        values[f.name] = check_field(f, value[f.name], where, problems)
    if len(problems) > before:
        return None
    return obj.cls(**values)


def finish(problems: list[str], limits: Limits, error: type[FileProblems] = FileProblems) -> None:
    """Raise ``error`` with at most ``limits.max_problems`` problems (then how many more)."""
    if problems:
        extra = len(problems) - limits.max_problems
        problems = problems[: limits.max_problems]
        if extra > 0:
            problems.append(f"(file): and {extra} more problems")
        raise error(problems)


def encode_object(obj: Obj, value: Any) -> dict[str, Any]:
    """``value`` back to JSON data, keys in the declared order; an optional field left
    out stays out, and so does an empty optional list."""
    result: dict[str, Any] = {}
    for f in obj.fields:
        item = getattr(value, f.name)
        if item is None or (f.kind in ("list", "ids") and not f.required and not item):
            continue
        if f.kind == "list":
            assert f.item is not None
            result[f.name] = [encode_object(f.item, entry) for entry in item]
        elif f.kind == "object":
            assert f.item is not None
            result[f.name] = encode_object(f.item, item)
        elif f.kind == "ids":
            result[f.name] = list(item)
        else:
            result[f.name] = item
    return result


def schema_field(f: Field, extend: Extend | None = None) -> dict[str, Any]:
    result: dict[str, Any]
    if f.kind == "text":
        result = {"type": "string", "maxLength": f.max_length}
        if f.min_length:
            result["minLength"] = f.min_length
    elif f.kind == "id":
        result = {"type": "string", "pattern": ID_PATTERN}
    elif f.kind == "colour":
        result = {"type": "string", "pattern": COLOUR_PATTERN}
    elif f.kind == "enum":
        result = {"type": "string", "enum": list(f.choices)}
    elif f.kind == "bool":
        result = {"type": "boolean"}
    elif f.kind == "int":
        result = {"type": "integer", "minimum": f.minimum, "maximum": f.maximum}
    elif f.kind == "ids":
        result = {
            "type": "array",
            "maxItems": f.max_items,
            "uniqueItems": True,
            "items": {"type": "string", "pattern": ID_PATTERN},
        }
    elif f.kind == "object":
        assert f.item is not None
        result = schema_object(f.item, extend)
    else:
        assert f.item is not None
        items = schema_object(f.item, extend)
        result = {"type": "array", "maxItems": f.max_items, "items": items}
    if f.description:
        result["description"] = f.description
    return result


def schema_object(obj: Obj, extend: Extend | None = None) -> dict[str, Any]:
    """The JSON Schema of ``obj``; ``extend(obj, schema)`` may add the rules that span
    fields to each object's schema."""
    result: dict[str, Any] = {"type": "object"}
    if obj.description:
        result["description"] = obj.description
    result["properties"] = {f.name: schema_field(f, extend) for f in obj.fields}
    result["required"] = [f.name for f in obj.fields if f.required]
    result["additionalProperties"] = False
    if extend is not None:
        extend(obj, result)
    return result
