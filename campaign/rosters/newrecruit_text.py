"""New Recruit's plain-text exports.

Two grammars cover its text styles.

The *full* style (``[N pts]`` in square brackets)::

    <catalogue> - <list name> - [<N> pts]             title
    # ++ Army Roster ++ [<N> pts]                     one line per force
    ## Configuration
    Battle Size: Strike Force (2000 Point limit)
    Detachment: <name>
    ## <primary category> [<N> pts]                   Epic Hero, Character, Battleline...
    <unit> [<N> pts]: <wargear, ...>                  single-model unit
    <unit> [<N> pts]:
    • <N>x <model>[ [<N> pts]]: <wargear, ...>         one line per model kind

The *WTC*, *GW* and *short* styles (``(N pts)`` in round brackets)::

    +++++++++++++++++++                               optional header block
    + FACTION KEYWORD: <catalogue>
    + DETACHMENT: <name>
    + TOTAL ARMY POINTS: <N>pts
    + WARLORD: Char<N>: <unit>
    + NUMBER OF UNITS: <N>
    +++++++++++++++++++
    CHARACTER / OTHER DATASHEETS                      optional sections
    [Char<N>: ][<N>x ]<unit> (<N> pts)[: <wargear>]   <N>x is the unit's model count
    Enhancement: <name> (+<N> pts)
    • <N>x <model or wargear>[: <wargear>]
        <N> with <wargear, ...>
    • <enhancement> (+<N> pts)
    Leading <unit> / Attached to <unit>
    Created with newrecruit.eu ...

In both, a wargear item ``Warlord`` marks the Warlord, an item with its own cost
(``Name [15 pts]``) is an Enhancement, and so is an item ``X`` beside an ``X upgrade``
(the weapon an Enhancement changes). Unit points include the Enhancement. The full style
may also list an Enhancement as a plain item (``Favoured of Khorne``): on a CHARACTER
with no other Enhancement, the one item named as a title is taken as it (see
`named_like_an_enhancement`), without its cost.
"""

from __future__ import annotations

import re

from ._build import RosterDraft, UnitDraft
from ._text import (
    ALLIANCES,
    NUMBER,
    battle_size,
    bullet_of,
    clean_faction,
    indent_of,
    plausible_name,
    split_count,
    split_items,
    to_points,
)
from .app_text import ENHANCEMENT, SECTIONS, is_heading, section_key
from .model import NEWRECRUIT_FULL, NEWRECRUIT_SHORT, NEWRECRUIT_WTC

BRACKET_POINTS = re.compile(rf"\[\s*({NUMBER.pattern})\s*pts?\b[^\]]{{0,80}}\]")
ROUND_POINTS = re.compile(rf"\(\s*({NUMBER.pattern})\s*pts?\s*\)", re.IGNORECASE)
FORCE_LINE = re.compile(r"^#\s*\+\+(.*?)\+\+\s*(.*)$")
_ITEM_COST = re.compile(r"[\[(]\s*\+?\s*(\d{1,4})\s*pts?\s*[\])]$", re.IGNORECASE)
_INNER_UPGRADE = re.compile(r"\(([^()]{1,120}?)\s+upgrade\)", re.IGNORECASE)

ROLE_GROUPS = {"character", "epic hero", "battleline", "dedicated transport"}
NO_ROLE_GROUPS = {"allied units", "other", "uncategorised", "no category", "unit"}
"""Full-style groups that say nothing about roles."""


def absorb_items(unit: UnitDraft, items: list[str], detachment: str = "") -> None:
    """Add wargear items to ``unit``, picking out Warlord and Enhancements."""
    upgrades: set[str] = set()
    plain: list[str] = []
    for item in items:
        if item.lower() == "warlord":
            unit.warlord = True
            continue
        cost = _ITEM_COST.search(item)
        if cost and not split_count(item)[0]:
            unit.add_enhancement(item[: cost.start()], int(cost.group(1)))
            continue
        enhancement = ENHANCEMENT.match(item)
        if enhancement:
            unit.add_enhancement(enhancement.group(1), None)
            continue
        if detachment and item.lower() == f"{detachment} character".lower():
            unit.set_flag("character", True)
            continue
        if item.lower().endswith(" upgrade"):
            upgrades.add(item[: -len(" upgrade")].strip().lower())
        upgrades.update(found.strip().lower() for found in _INNER_UPGRADE.findall(item))
        plain.append(item)
    for item in plain:
        if not unit.enhancement and item.lower() in upgrades:
            unit.add_enhancement(item, None)
        else:
            unit.wargear.append(item)


# --- full style ----------------------------------------------------------------------


def parse_full(lines: list[str]) -> RosterDraft:
    """Read New Recruit's full ``[N pts]`` style, cut by ``lines_of``, into a draft."""
    draft = RosterDraft(format=NEWRECRUIT_FULL)
    force_totals: list[int] = []
    group: str | None = None
    unit: UnitDraft | None = None
    skipped = 0
    seen_title = False
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        if not seen_title:
            seen_title = True
            if _read_title(stripped, draft):
                continue
        force = FORCE_LINE.match(stripped)
        if force:
            found = BRACKET_POINTS.search(force.group(2))
            points = to_points(found.group(1)) if found else None
            if points is not None:
                force_totals.append(points)
            group, unit = None, None
            continue
        if stripped.startswith("#"):
            heading = stripped.lstrip("#").strip()
            found = BRACKET_POINTS.search(heading)
            group = (heading[: found.start()] if found else heading).strip()
            unit = None
            continue
        if group is not None and group.lower() == "configuration":
            _read_configuration(stripped, draft)
            continue
        bullet, rest = bullet_of(line)
        if bullet:
            if unit is None:
                skipped += 1
            else:
                _read_model_line(unit, rest, draft.detachment)
            continue
        found = full_unit_line(stripped)
        if found:
            unit = UnitDraft(name=found[0], points=found[1])
            _apply_group(unit, group)
            absorb_items(unit, split_items(found[2]), draft.detachment)
            draft.add_unit(unit)
        else:
            skipped += 1
    if draft.stated_total is None and force_totals:
        draft.stated_total = sum(force_totals)
    if skipped:
        draft.warnings.append(f"{skipped} line(s) weren't understood and were left out.")
    for unit in draft.units:
        _enhancement_by_its_name(unit, draft)
    _enhancement_warning(draft)
    return draft


_JOINING_WORDS = frozenset({"a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "the"})
"""Small words a title leaves in lower case (``Favoured of Khorne``)."""


def named_like_an_enhancement(item: str) -> bool:
    """Whether a wargear item is named as Enhancements are: a title of two words or more,
    each capitalised but the small joining words (``Favoured of Khorne``, ``Berzerker
    Glaive``). Weapons and wargear are named in sentence case (``Hellforged weapons``,
    ``Axe of dismemberment``, ``Bolt pistol``); a counted item (``2x Shield Drone``) is
    wargear."""
    if split_count(item)[0] or "(" in item:
        return False
    words = item.split()
    capitalised = [word for word in words if word[:1].isupper()]
    joining = [word for word in words if word in _JOINING_WORDS]
    return len(capitalised) >= 2 and len(capitalised) + len(joining) == len(words)


def _enhancement_by_its_name(unit: UnitDraft, draft: RosterDraft) -> None:
    """The full style sometimes lists an Enhancement as a plain item, without its own cost
    (the round styles print ``Name (+15 pts)``). On a CHARACTER that is no EPIC HERO (the
    only units that take one) and has no Enhancement found otherwise, the one item named
    like an Enhancement is taken as it, with a warning to check it; with two or more such
    items nothing is guessed. No list of names is needed: the shape of the name decides."""
    if unit.enhancements or not unit.flags.get("character") or unit.flags.get("epic_hero"):
        return
    named = [item for item in unit.wargear if named_like_an_enhancement(item)]
    if len(named) != 1:
        return
    unit.wargear.remove(named[0])
    unit.add_enhancement(named[0], None)
    draft.warnings.append(
        f'{unit.name}: "{named[0]}" is read as its Enhancement by its name, since the file '
        "gives it no cost; check it and type its points."
    )


def full_unit_line(line: str) -> tuple[str, int, str] | None:
    """``Ghostkeel Battlesuit [160 pts]: Ghostkeel fists`` -> name, points, wargear."""
    found = BRACKET_POINTS.search(line)
    if not found or line.startswith("#"):
        return None
    name, tail = line[: found.start()].strip(), line[found.end() :].strip()
    points = to_points(found.group(1))
    if (tail and not tail.startswith(":")) or points is None or not plausible_name(name):
        return None
    return name, points, tail[1:].strip()


def is_title(line: str) -> bool:
    """``Xenos - T'au Empire - Tauuuu - [1985 pts]``."""
    found = BRACKET_POINTS.search(line)
    return (
        bool(found)
        and not line[found.end() :].strip()
        and line[: found.start()].rstrip().endswith("-")
    )


def _read_title(line: str, draft: RosterDraft) -> bool:
    """``Xenos - T'au Empire - Tauuuu - [1985 pts]``: catalogue, list name and total."""
    found = BRACKET_POINTS.search(line)
    if not found or not is_title(line):
        return False
    head = line[: found.start()].strip().rstrip("-").strip()
    parts = [part.strip() for part in head.split(" - ")]
    if len(parts) == 2 and parts[0] in ALLIANCES:
        parts.append("")  # ``Xenos - Necrons - [1000 pts]``: a catalogue, no list name
    draft.name = parts[-1]
    draft.faction = clean_faction(" - ".join(parts[:-1]))
    draft.stated_total = to_points(found.group(1))
    return True


def _read_configuration(line: str, draft: RosterDraft) -> None:
    key, _, value = line.partition(":")
    key, value = key.strip().lower(), value.strip()
    if not value:
        return
    if key == "battle size":
        draft.battle_size = battle_size(value)
    elif key.startswith("detachment"):
        draft.detachment = value
    elif key == "faction" and not draft.faction:
        draft.faction = clean_faction(value)
    elif key == "list name" and not draft.name:
        draft.name = value


def _apply_group(unit: UnitDraft, group: str | None) -> None:
    """The group is the unit's primary category: it shows CHARACTERS reliably, not BATTLELINE."""
    key = " ".join(group.lower().split()) if group else ""
    if not key or key in NO_ROLE_GROUPS:
        return
    if key.endswith("s") and key[:-1] in ROLE_GROUPS:
        key = key[:-1]  # "Characters", "Dedicated Transports"
    unit.keywords.add(key.upper())
    unit.set_flag("character", key in ("character", "epic hero"))
    unit.set_flag("epic_hero", key == "epic hero")
    if key == "battleline":
        unit.set_flag("battleline", True)
    if key == "dedicated transport":
        unit.set_flag("dedicated_transport", True)


def _read_model_line(unit: UnitDraft, text: str, detachment: str) -> None:
    """``• 8x Kroot Carnivores: Close combat weapon, Kroot rifle`` (or an unlisted item)."""
    head, colon, gear = text.partition(":")
    head = ROUND_POINTS.sub("", BRACKET_POINTS.sub("", head)).strip()
    count, name = split_count(head)
    if count is None and not colon:
        absorb_items(unit, split_items(text), detachment)
        return
    unit.models.append((count or 1, name))
    absorb_items(unit, split_items(gear), detachment)


def _enhancement_warning(draft: RosterDraft) -> None:
    if not any(unit.enhancement_points is not None for unit in draft.units):
        draft.warnings.append(
            "This export style doesn't mark Enhancements clearly; check the ones found."
        )


# --- WTC, GW and short styles ---------------------------------------------------------

WTC_KEY = re.compile(
    r"^\+\s*(FACTION KEYWORD|DETACHMENT|TOTAL ARMY POINTS|WARLORD|ENHANCEMENTS?|"
    r"NUMBER OF UNITS|FORCE DISPOSITION|SECONDARY)\s*:\s*(.*)$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^(Char\d{1,3})\s*:\s*", re.IGNORECASE)
_WITH = re.compile(r"^\d{1,4}\s+with\s+(.*)$", re.IGNORECASE)
_LEADING = re.compile(r"^(Leading|Attached to)\b", re.IGNORECASE)
_FOOTER = re.compile(r"^Created with\b", re.IGNORECASE)
_WARLORD_REF = re.compile(r"^(?:(Char\d{1,3})\s*:\s*)?(.+)$", re.IGNORECASE)


def parse_round(lines: list[str]) -> RosterDraft:
    """Read New Recruit's ``(N pts)`` styles (WTC, GW, short), cut by ``lines_of``, into a draft."""
    draft = RosterDraft(format=NEWRECRUIT_SHORT)
    section: dict[str, bool] | None = None
    unit: UnitDraft | None = None
    labels: dict[int, str] = {}
    unit_lines: list[str] = []
    warlord_ref = ""
    stated_units: int | None = None
    skipped = 0
    for line in lines:
        stripped = line.strip()
        if not stripped or _FOOTER.match(stripped):
            continue
        if stripped.startswith(("+", "&")):
            draft.format = NEWRECRUIT_WTC
            key = WTC_KEY.match(stripped)
            if key:
                name, value = key.group(1).upper(), key.group(2).strip()
                if name == "FACTION KEYWORD":
                    draft.faction = clean_faction(value)
                elif name == "DETACHMENT":
                    draft.detachment = value
                elif name == "TOTAL ARMY POINTS":
                    found = re.match(rf"({NUMBER.pattern})", value)
                    draft.stated_total = to_points(found.group(1)) if found else None
                elif name == "WARLORD":
                    warlord_ref = value
                elif (
                    name == "NUMBER OF UNITS"
                    and value.isascii()
                    and value.isdigit()
                    and len(value) < 5
                ):
                    stated_units = int(value)
            continue
        bullet, rest = bullet_of(line)
        if not bullet and is_heading(stripped):
            _finish_round(unit, unit_lines, draft.detachment)
            unit, unit_lines = None, []
            section = _round_section(stripped)
            continue
        found = None if bullet else _unit_line(stripped)
        if found:
            _finish_round(unit, unit_lines, draft.detachment)
            label, count, name, points, gear = found
            unit, unit_lines = UnitDraft(name=name, points=points, model_count=count), []
            if label:
                labels[len(draft.units)] = label.lower()
            for flag, value in (section or {}).items():
                unit.set_flag(flag, value)
            absorb_items(unit, _gear_items(gear), draft.detachment)
            draft.add_unit(unit)
        elif unit is not None:
            unit_lines.append(line)
        else:
            skipped += 1
    _finish_round(unit, unit_lines, draft.detachment)
    if labels:
        for index, unit in enumerate(draft.units):
            unit.set_flag("character", index in labels)
    _fall_back_to_header_warlord(draft, labels, warlord_ref)
    if stated_units is not None and stated_units != len(draft.units):
        draft.warnings.append(
            f"The file says it has {stated_units} units but lists {len(draft.units)}."
        )
    if skipped:
        draft.warnings.append(f"{skipped} line(s) weren't understood and were left out.")
    if draft.format == NEWRECRUIT_SHORT:
        _enhancement_warning(draft)
    return draft


def _round_section(heading: str) -> dict[str, bool]:
    """New Recruit's sections follow primary categories: reliable for CHARACTERS only."""
    flags = dict(SECTIONS.get(section_key(heading), {}))
    return {flag: value for flag, value in flags.items() if value or flag == "character"}


def _unit_line(line: str) -> tuple[str, int | None, str, int, str] | None:
    """``Char2: 1x Blade Champion (135 pts): Vaultswords`` -> label, count, name, points, gear."""
    if ENHANCEMENT.match(line):
        return None
    found = ROUND_POINTS.search(line)
    if not found:
        return None
    head, tail = line[: found.start()].strip(), line[found.end() :].strip()
    if tail and not tail.startswith(":"):
        return None
    label = ""
    match = _LABEL.match(head)
    if match:
        label, head = match.group(1), head[match.end() :]
    count, name = split_count(head)
    points = to_points(found.group(1))
    if points is None or not plausible_name(name):
        return None
    return label, count, name, points, tail[1:].strip()


def round_unit_line(line: str) -> bool:
    """Whether ``line`` is a unit line of the ``(N pts)`` styles."""
    return _unit_line(line) is not None


def _finish_round(unit: UnitDraft | None, lines: list[str], detachment: str) -> None:
    """Read a unit's lines: Enhancement, bullets, ``N with`` lines.

    A top-level ``• 1x Long-quill`` is a model when lines under it follow, else wargear.
    """
    if unit is None:
        return
    bullets = [indent_of(line) for line in lines if bullet_of(line)[0]]
    top = min(bullets) if bullets else 0
    pending: tuple[int, str, str] | None = None

    def settle(as_model: bool) -> None:
        nonlocal pending
        if pending is not None:
            count, name, text = pending
            if as_model:
                unit.models.append((count, name))
            else:
                absorb_items(unit, [text], detachment)
        pending = None

    for line in lines:
        bullet, text = bullet_of(line)
        if not bullet and (ENHANCEMENT.match(text) or _LEADING.match(text)):
            settle(False)
            enhancement = ENHANCEMENT.match(text)
            if enhancement:
                unit.add_costed_enhancement(enhancement.group(1), _ITEM_COST)
            continue
        if bullet and indent_of(line) <= top:
            settle(False)
            head, colon, gear = text.partition(":")
            count, name = split_count(head)
            if count and colon:
                unit.models.append((count, name))
                absorb_items(unit, _gear_items(gear), detachment)
            elif count:
                pending = (count, name, text)
            else:
                absorb_items(unit, split_items(text), detachment)
            continue
        settle(True)
        absorb_items(unit, _gear_items(text), detachment)
    settle(False)


def _gear_items(text: str) -> list[str]:
    """``4 with Guardian Spear`` or ``Boltgun, Close combat weapon`` -> the items."""
    match = _WITH.match(text.strip())
    return split_items(match.group(1) if match else text)


def _fall_back_to_header_warlord(
    draft: RosterDraft, labels: dict[int, str], warlord_ref: str
) -> None:
    """Use ``+ WARLORD: Char1: Valerian`` when no unit line marks the Warlord."""
    if not warlord_ref or any(unit.warlord for unit in draft.units):
        return
    match = _WARLORD_REF.match(warlord_ref)
    label, name = (match.group(1) or "").lower(), match.group(2).strip().lower()
    named = [i for i, unit in enumerate(draft.units) if unit.name.lower() == name]
    labelled = [i for i in named if labels.get(i) == label]
    chosen = labelled or (named if len(named) == 1 else [])
    if chosen:
        draft.units[chosen[0]].warlord = True
