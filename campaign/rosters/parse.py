"""The one entry point: recognise a roster file by its content and read it."""

from __future__ import annotations

import re
from collections.abc import Callable

from . import app_text, battlescribe, newrecruit_text
from ._build import RosterDraft
from ._text import bullet_of, decode, lines_of
from .errors import RosterError, not_a_roster
from .model import Roster

MAX_BYTES = 1_000_000
"""Bigger uploads are refused before any parsing: a 3,000-point roster is far smaller."""

DETECTION_LINES = 500
"""Every format shows itself in its first lines; reading further only costs time."""

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_FULL_FORCE = re.compile(r"^#\s*\+\+.*\+\+")


def parse_roster(data: bytes | str, *, filename: str = "") -> Roster:
    """Read an army list from the apps players use, recognising the format by its content.

    ``filename`` only words messages; it never decides the format. Raises RosterError
    (one line, for the player) for anything it can't read, including files over
    MAX_BYTES.
    """
    raw = data.encode("utf-8", errors="replace") if isinstance(data, str) else bytes(data)
    subject = filename[:80] if filename else "The file"
    if len(raw) > MAX_BYTES:
        raise RosterError(f"{subject} is over 1 MB, far bigger than any army list; refused.")
    if not raw.strip():
        raise RosterError(f"{subject} is empty.")
    if raw.startswith(_ZIP_MAGIC):
        ros = battlescribe.unzip_rosz(raw, subject)
        return battlescribe.parse_ros(ros, subject, zipped=True).build()
    text = decode(raw)
    start = text.lstrip("\ufeff \t\r\n")[:1]
    if start == "<":
        return battlescribe.parse_ros(raw, subject).build()
    if start in "{[":
        return battlescribe.parse_json(text, subject).build()
    lines = lines_of(text)
    reader = _text_reader(lines)
    if reader is None:
        raise not_a_roster(subject)
    return reader(lines).build()


def _text_reader(lines: list[str]) -> Callable[[list[str]], RosterDraft] | None:
    """Pick the text grammar with the most lines that fit it; None if none fits well enough.

    The app's export always has a title line and a unit line, both ``(N Points)``; New
    Recruit's full style has a ``- [N pts]`` title or ``# ++ ... ++`` force line; the
    ``(N pts)`` styles may be a single unit line.
    """
    app = full = full_marks = rounded = 0
    for line in lines[:DETECTION_LINES]:
        text = line.strip()
        if not text or bullet_of(line)[0]:
            continue
        if newrecruit_text.WTC_KEY.match(text):
            return newrecruit_text.parse_round
        if _FULL_FORCE.match(text) or newrecruit_text.is_title(text):
            full_marks += 1
        elif newrecruit_text.full_unit_line(text):
            full += 1
        elif app_text.points_line(text):
            app += 1
        elif newrecruit_text.round_unit_line(text):
            rounded += 1
    candidates = [
        (full + full_marks if full and (full_marks or full > 1) else 0, newrecruit_text.parse_full),
        (app if app > 1 else 0, app_text.parse),
        (rounded, newrecruit_text.parse_round),
    ]
    score, reader = max(candidates, key=lambda candidate: candidate[0])
    return reader if score else None
