"""A map file drawn on the grid: each territory borders the territories on the hexes
around it. For maps written by code (the demo's, the benchmark league's); an organiser's
own file may list any borders it likes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .spec import FORMAT, VERSION


@dataclass(frozen=True)
class Place:
    key: str
    name: str
    column: int
    row: int
    description: str = ""
    held_by: str = ""
    """The name of the alliance holding it, if any."""


def hex_neighbours(column: int, row: int) -> list[tuple[int, int]]:
    """The hexes bordering one (odd columns sit half a hex lower, as the map draws them)."""
    side_rows = (row - 1, row) if column % 2 == 0 else (row, row + 1)
    return [
        (column, row - 1),
        (column, row + 1),
        *((c, r) for c in (column - 1, column + 1) for r in side_rows),
    ]


def grid_map(places: Sequence[Place], *, name: str, description: str = "") -> dict[str, Any]:
    """A map file (as data) of ``places``, each bordering its neighbours on the grid."""
    at = {(place.column, place.row): place.key for place in places}
    territories = []
    for place in places:
        borders = (at[spot] for spot in hex_neighbours(place.column, place.row) if spot in at)
        entry: dict[str, Any] = {
            "id": place.key,
            "name": place.name,
            "description": place.description,
            "column": place.column,
            "row": place.row,
            "neighbours": sorted(borders),
        }
        if place.held_by:
            entry["held_by"] = place.held_by
        territories.append(entry)
    return {
        "format": FORMAT,
        "version": VERSION,
        "map": {"name": name, "description": description},
        "territories": territories,
    }
