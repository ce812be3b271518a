"""Expected units written as text tables, and the parsed units in the same shape.

A table has one unit a line: ``name | points | models | roles [| enhancement [| cost]]``.
``roles`` is five characters, one a flag: character (``C``), epic hero (``E``), battleline
(``B``), dedicated transport (``T``) and Warlord (``W``); the letter means yes, ``-`` no and
``?`` that the file doesn't say. An empty or missing cost is None: the file names the
Enhancement but not its cost. Blank lines and ``#`` comments are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rosters import RosterUnit

Flags = tuple[bool | None, bool | None, bool | None, bool | None]
"""(character, epic_hero, battleline, dedicated_transport)."""

ROLES = "CEBTW"
FLAGS = ("character", "epic_hero", "battleline", "dedicated_transport")


@dataclass(frozen=True)
class Row:
    name: str
    points: int
    models: int
    flags: Flags
    enhancement: str = ""
    enhancement_points: int | None = None
    warlord: bool = False


def cells(line: str) -> tuple[str, ...]:
    """``a | b |`` -> ``("a", "b", "")``."""
    return tuple(cell.strip() for cell in line.split("|"))


def cell_rows(table: str) -> list[tuple[str, ...]]:
    """The cells of each non-blank line of ``table``."""
    return [cells(line) for line in table.strip().splitlines()]


def role(code: str, letter: str) -> bool | None:
    """What the roles code says about the flag spelled ``letter``."""
    mark = code[ROLES.index(letter)]
    assert mark in (letter, "-", "?"), (code, letter)
    return None if mark == "?" else mark == letter


def row_of(line: str) -> Row:
    name, points, models, code, *enhancement = cells(line)
    assert len(code) == len(ROLES) and len(enhancement) <= 2, line
    flags = tuple(role(code, letter) for letter in ROLES[:4])
    text, cost = (*enhancement, "", "")[:2]
    warlord = role(code, "W")
    assert warlord is not None, line
    return Row(name, int(points), int(models), flags, text, int(cost) if cost else None, warlord)


def rows_of(table: str) -> tuple[Row, ...]:
    """The rows of a text table (see the module docstring)."""
    lines = (line.split("#")[0].strip() for line in table.splitlines())
    return tuple(row_of(line) for line in lines if line)


def as_row(unit: RosterUnit) -> Row:
    """A parsed unit in the shape of a table row."""
    flags = tuple(getattr(unit, flag) for flag in FLAGS)
    found = fields(unit, "enhancement enhancement_points warlord")
    return Row(unit.name, unit.points, unit.models, flags, *found)


def fields(source: object, names: str) -> tuple:
    """The attributes ``names`` (space-separated) of ``source``, in that order."""
    return tuple(getattr(source, name) for name in names.split())


HEADER = "format name faction detachment battle_size total_points"
"""A roster's header facts, as ``fields`` reads them."""
