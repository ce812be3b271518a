"""The official Warhammer 40,000 app's text export ("Copy to clipboard" / share as text).

Grammar, as the app writes it (10th edition, and the later "Detachment Points" dialect)::

    <list name> (<N> Points)                          title (may be missing); N may
                                                      read 1 000 or 1,995
    <blank>
    <faction>                                         one or two lines (army, then chapter)
    <detachment>[ (<N> Detachment Points)]            detachment and battle size in either
    [<force disposition>]                             order; the disposition comes after a
    <battle size> (<N> Points)                        "Detachment Points" line
    <blank>
    SECTION                                           CHARACTERS, BATTLELINE, DEDICATED
    <blank>                                           TRANSPORTS, OTHER DATASHEETS, ALLIED
    <unit> (<N> Points)                               UNITS, ATTACHED UNITS...
      • Warlord
      • Enhancements: <name>                          also "Enhancement:"
      • Attached as: Leader (Character)
      • <detachment> Keyword: Character
      • <N>x <model>                                  a model when sub-items follow it
         ◦ <N>x <wargear>                             (a "◦" or a deeper-indented bullet);
                                                      then all the unit's "Nx" items are
      • <N>x <wargear>
        <N>x <wargear>                                continuation, no bullet
    Exported with App Version: ...

Points on a unit line include its Enhancement; the app never prints the Enhancement's
own cost. Indentation may be spaces or no-break spaces; ``[[notes]]`` are ignored.
"""

from __future__ import annotations

import re

from ._build import RosterDraft, UnitDraft
from ._text import (
    NUMBER,
    battle_size_line,
    bullet_of,
    clean_faction,
    indent_of,
    plausible_name,
    split_count,
    to_points,
)
from .model import APP_TEXT

# Lines: units, headings to pass over, the footer.
POINTS_TAIL = re.compile(rf"\(\s*({NUMBER.pattern})\s*points?\s*\)$", re.IGNORECASE)
_GROUP_HEADING = re.compile(r"^Attached unit \d{1,3}$", re.IGNORECASE)
_FOOTER = re.compile(r"^Exported with\b", re.IGNORECASE)

# The header paragraph.
MAX_HEADER_LINES = 8
"""Faction (two lines at most), detachment, disposition, battle size, and some slack."""
_DETACHMENT_TAIL = re.compile(r"\(\s*\d{1,3}\s*Detachment\s+Points?\s*\)$", re.IGNORECASE)
_DISPOSITION = re.compile(r"^Force Dispositions?\s*:", re.IGNORECASE)

# A unit's items.
ENHANCEMENT = re.compile(r"^Enhancements?\s*:\s*(.*)$", re.IGNORECASE)
_ENHANCEMENT_COST = re.compile(r"\(\s*\+?\s*(\d{1,4})\s*(?:pts|points?)\s*\)$", re.IGNORECASE)
_ATTACHED_AS = re.compile(r"^Attached as\s*:\s*(.*)$", re.IGNORECASE)
_KEYWORD = re.compile(r"\bKeywords?\s*:\s*(.+)$", re.IGNORECASE)

SECTIONS: dict[str, dict[str, bool]] = {
    "CHARACTERS": {"character": True, "battleline": False, "dedicated_transport": False},
    "BATTLELINE": {
        "character": False,
        "battleline": True,
        "dedicated_transport": False,
    },
    "DEDICATED TRANSPORTS": {
        "character": False,
        "battleline": False,
        "dedicated_transport": True,
    },
    "OTHER DATASHEETS": {
        "character": False,
        "battleline": False,
        "dedicated_transport": False,
    },
}
"""What the app's sections say about the units under them; other sections say nothing."""

ROLE_WORDS: dict[str, str] = {
    "epic hero": "epic_hero",
    "character": "character",
    "battleline": "battleline",
    "dedicated transport": "dedicated_transport",
}


def section_key(heading: str) -> str:
    """``Dedicated Transport`` and ``DEDICATED TRANSPORTS`` both -> ``DEDICATED TRANSPORTS``."""
    key = " ".join(heading.upper().split())
    return key if key.endswith("S") or key in SECTIONS else key + "S"


def is_heading(text: str) -> bool:
    """A section heading: a short upper-case line with no digits or brackets."""
    return (
        len(text) <= 40
        and any(char.isalpha() for char in text)
        and text == text.upper()
        and not any(char.isdigit() or char in "()[]:•◦" for char in text)
    )


def points_line(text: str) -> tuple[str, int] | None:
    """``Tallyman (50 points)`` -> ``("Tallyman", 50)``; None for any other line."""
    match = POINTS_TAIL.search(text)
    if not match:
        return None
    points = to_points(match.group(1))
    head = text[: match.start()].strip()
    if points is None or not plausible_name(head):
        return None
    return head, points


def _says(text: str, words: str) -> bool:
    return re.search(rf"\b{words}\b", text, re.IGNORECASE) is not None


def apply_roles(unit: UnitDraft, text: str) -> None:
    """Read role words such as ``Leader (Character)`` or ``Dedicated Transport``."""
    for word, flag in ROLE_WORDS.items():
        if _says(text, word):
            unit.set_flag(flag, True)
            unit.keywords.add(word.upper())


def apply_attachment(unit: UnitDraft, text: str) -> None:
    """``Leader (Character)``, ``Bodyguard (Battleline)``, ``Dedicated Transport``: the role in
    brackets names the section the unit would otherwise be listed in."""
    for word, section in (
        ("dedicated transport", "DEDICATED TRANSPORTS"),
        ("battleline", "BATTLELINE"),
        ("character", "CHARACTERS"),
        ("epic hero", "CHARACTERS"),
        ("other", "OTHER DATASHEETS"),
    ):
        if _says(text, word):
            for flag, value in SECTIONS[section].items():
                unit.set_flag(flag, value)
            break
    apply_roles(unit, text)
    if _says(text, "leader"):
        unit.set_flag("character", True)
    elif _says(text, "bodyguard"):
        unit.set_flag("character", False)


def parse(lines: list[str]) -> RosterDraft:
    """Read an app export, cut by ``lines_of``, into a draft (the grammar: module docstring)."""
    draft = RosterDraft(format=APP_TEXT)
    index = _skip_blank(lines, 0)
    if _starts_with_title(lines, index):
        title = lines[index].strip()
        found = points_line(title)
        draft.name, draft.stated_total = found if found else (title, None)
        index += 1
    index = _read_header(lines, _skip_blank(lines, index), draft)
    _read_body(lines[index:], draft)
    return draft


def _starts_with_title(lines: list[str], index: int) -> bool:
    """Whether the export's first line (at ``index``) is the list's title. A file copied
    without it starts with the header paragraph (faction, detachment, battle size) or a
    unit. The title is a paragraph of its own, or a ``(N Points)`` line that is no
    battle size; a line followed by more of its paragraph is the header's faction."""
    if index >= len(lines):
        return False
    following = _skip_blank(lines, index + 1)
    if following < len(lines) and bullet_of(lines[following])[0]:
        return False  # a unit and its items
    if following > index + 1 or following >= len(lines):
        return True  # a paragraph of its own
    first = lines[index].strip()
    return points_line(first) is not None and battle_size_line(first) is None


def _skip_blank(lines: list[str], index: int) -> int:
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def _read_header(lines: list[str], index: int, draft: RosterDraft) -> int:
    """Read the faction/detachment/battle size paragraph; return where the body starts."""
    others: list[str] = []
    detachment_at: int | None = None
    end = index + MAX_HEADER_LINES
    while index < min(end, len(lines)) and lines[index].strip():
        line = lines[index].strip()
        next_line = lines[index + 1] if index + 1 < len(lines) else ""
        if is_heading(line) or _FOOTER.match(line) or bullet_of(line)[0]:
            break
        if points_line(line) and bullet_of(next_line)[0]:
            break  # a unit straight after the title: there is no header paragraph
        if tail := _DETACHMENT_TAIL.search(line):
            draft.detachment = line[: tail.start()].strip()
            detachment_at = len(others)
        elif size := battle_size_line(line):
            draft.battle_size = size
        elif not _DISPOSITION.match(line):
            others.append(line)
        index += 1
    if detachment_at is not None:
        factions = others[:detachment_at]
    elif len(others) >= 2:
        factions, draft.detachment = others[:-1], others[-1]
    else:
        factions = others
    draft.faction = clean_faction(" - ".join(factions))
    return index


def _read_body(lines: list[str], draft: RosterDraft) -> None:
    section: dict[str, bool] | None = None
    unit: UnitDraft | None = None
    items: list[str] = []
    skipped = 0
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if not bullet_of(line)[0]:
            if _FOOTER.match(text) or _GROUP_HEADING.match(text):
                continue
            if is_heading(text):
                _finish(unit, items)
                unit, items = None, []
                section = SECTIONS.get(section_key(text), {})
                continue
            found = points_line(text)
            if found:
                _finish(unit, items)
                unit, items = UnitDraft(name=found[0], points=found[1]), []
                for flag, value in (section or {}).items():
                    unit.set_flag(flag, value)
                draft.add_unit(unit)
                continue
        if unit is None:
            skipped += 1
        else:
            items.append(line)  # an item: a bullet, or a wargear line without one
    _finish(unit, items)
    if skipped:
        draft.warnings.append(f"{skipped} line(s) weren't understood and were left out.")


def _finish(unit: UnitDraft | None, lines: list[str]) -> None:
    """Sort a unit's item lines into models, wargear and the special items."""
    if unit is None or not lines:
        return
    bulleted = [indent_of(line) for line in lines if bullet_of(line)[0] == "•"]
    top = min(bulleted) if bulleted else min(indent_of(line) for line in lines)
    groups: list[tuple[str, list[str]]] = []
    for line in lines:
        bullet, text = bullet_of(line)
        if _special(unit, text):
            continue
        is_top = bullet and bullet != "◦" and indent_of(line) <= top
        if is_top or not groups:
            groups.append((text, []))
        else:
            groups[-1][1].append(line)
    # An item is a model when items are listed under it; once one is, the unit lists its
    # wargear under its models, so its other counted items are models without wargear.
    has_models = any(any(bullet_of(child)[0] for child in children) for _, children in groups)
    for text, children in groups:
        child_items = [bullet_of(child)[1] for child in children]
        count, name = split_count(text)
        if any(bullet_of(child)[0] for child in children) or (has_models and count):
            unit.models.append((count or 1, name))
            unit.wargear.extend(child_items)
        else:
            unit.wargear.extend([text, *child_items])


def _special(unit: UnitDraft, text: str) -> bool:
    """Handle Warlord, Enhancement, "Attached as" and "Keyword" items; False for others."""
    if text.lower() == "warlord":
        unit.warlord = True
        return True
    match = ENHANCEMENT.match(text)
    if match:
        unit.add_costed_enhancement(match.group(1), _ENHANCEMENT_COST)
        return True
    match = _ATTACHED_AS.match(text)
    if match:
        apply_attachment(unit, match.group(1))
        return True
    match = _KEYWORD.search(text)
    if match and not split_count(text)[0]:
        for keyword in match.group(1).split(","):
            apply_roles(unit, keyword)
            if keyword.strip():
                unit.keywords.add(keyword.strip().upper())
        return True
    return False
