"""Helpers the parsers share: decoding bytes, cutting lines, reading numbers and names."""

from __future__ import annotations

import codecs
import re

MAX_LINE = 2_000
"""Longer lines are never part of an army list; skipping them keeps every pattern linear."""

MAX_POINTS = 100_000
"""No unit or army costs this much; bigger numbers are damage, not points."""

BULLETS = "•◦▪‣∙·-*"
"""Characters exporters put in front of a list item."""

_NUMBER = r"\d{1,3}(?:[ ,.\u00a0\u202f]\d{3})+|\d{1,6}"
NUMBER = re.compile(_NUMBER)
"""A points figure, with or without thousands separators (``1 000``, ``1,995``, ``2000``)."""

_NOTE = re.compile(r"\[\[[^\]]{0,200}\]\]")
_COUNT = re.compile(r"(\d{1,4})\s*[x×]\s+(\S.*)$")
ALLIANCES = ("Imperium", "Chaos", "Xenos")
"""BattleScribe's top shelf of catalogues; never a faction on its own."""
_SIZE = re.compile(
    rf"^(?P<name>.*?)\s*\(\s*(?P<points>{_NUMBER})\s*(?:points?|pts|point limit)\s*\)$",
    re.IGNORECASE,
)
_ORDINAL = re.compile(r"^\d{1,2}\.\s*")


def decode(data: bytes) -> str:
    """The text of ``data``: UTF-8 or UTF-16 when it says so by a BOM, else UTF-8, else cp1252.

    Never fails: bytes no encoding knows become U+FFFD.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` (any newline convention), trailing spaces and ``[[notes]]`` cut.

    Overlong lines come back empty so no pattern ever runs over them.
    """
    result = []
    for line in text.splitlines():
        if len(line) > MAX_LINE:
            result.append("")
            continue
        if "[[" in line:
            line = _NOTE.sub("", line)
        result.append(line.rstrip())
    return result


def indent_of(line: str) -> int:
    """How many whitespace characters (spaces, tabs, no-break spaces) start ``line``."""
    return len(line) - len(line.lstrip())


def bullet_of(line: str) -> tuple[str, str]:
    """``(bullet, rest)`` for a list item such as ``  • 1x Boltgun``; ``("", text)`` otherwise."""
    text = line.strip()
    if len(text) > 1 and text[0] in "•◦▪‣∙·" and (text[1].isspace() or text[0] != "·"):
        return text[0], text[1:].strip()
    if len(text) > 2 and text[0] in "-*" and text[1].isspace():
        return text[0], text[2:].strip()
    return "", text


def to_points(text: str) -> int | None:
    """The number in a points figure such as ``1 000`` or ``1,995``; None if it isn't one."""
    digits = re.sub(r"[ ,.\u00a0\u202f]", "", text.strip())
    if not digits.isascii() or not digits.isdigit() or len(digits) > 6:
        return None
    value = int(digits)
    return value if value <= MAX_POINTS else None


def number_value(value: object) -> int | None:
    """A cost as JSON or XML gives it (``965.0``, ``"1205"``, ``80``) as an int; None if not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = float(value) if abs(value) <= MAX_POINTS * 10 else float("inf")
    elif isinstance(value, float):
        number = value
    elif isinstance(value, str) and len(value) <= 20:
        try:
            number = float(value.strip())
        except ValueError:
            return None
    else:
        return None
    if not -MAX_POINTS <= number <= MAX_POINTS:  # also refuses NaN
        return None
    return round(number)


def plausible_name(name: str) -> bool:
    """A unit name has letters and none of the marks of markup or code (so a README that
    happens to mention ``(100 points)`` is not read as an army list)."""
    return any(char.isalpha() for char in name) and not any(char in "`|<>{}" for char in name)


def split_count(item: str) -> tuple[int | None, str]:
    """``2x Boltgun`` -> ``(2, "Boltgun")``; ``Boltgun`` -> ``(None, "Boltgun")``."""
    match = _COUNT.match(item.strip())
    if match:
        return int(match.group(1)), match.group(2).strip()
    return None, item.strip()


def split_items(text: str) -> list[str]:
    """Split a comma-separated wargear list, keeping commas inside brackets."""
    items, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            items.append(text[start:index].strip())
            start = index + 1
    items.append(text[start:].strip())
    return [item for item in items if item]


def clean_faction(text: str) -> str:
    """A faction as players name it: BattleScribe's ``Imperium - ``/``Xenos - `` shelf dropped."""
    parts = [part.strip() for part in text.split(" - ") if part.strip()]
    while len(parts) > 1 and parts[0] in ALLIANCES:
        parts.pop(0)
    return " - ".join(parts)


def battle_size(text: str) -> str:
    """``2. Strike Force (2,000 Point limit)`` -> ``Strike Force (2000 points)``."""
    text = _ORDINAL.sub("", " ".join(text.split()))
    match = _SIZE.match(text)
    if not match:
        return text
    points = to_points(match.group("points"))
    name = match.group("name").strip()
    if points is None:
        return text
    return f"{name} ({points} points)" if name else f"{points} points"


def battle_size_line(text: str) -> str | None:
    """The battle size a header line such as ``Incursion (1 000 Points)`` gives; None when
    the line isn't one."""
    if _SIZE.match(_ORDINAL.sub("", " ".join(text.split()))) is None:
        return None
    return battle_size(text)
