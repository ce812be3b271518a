"""The dataclasses a valid campaign map file becomes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TerritoryEntry:
    """One territory: a hex of the grid, its neighbours by id, and who holds it (an
    alliance's name, or None)."""

    id: str
    name: str
    description: str
    column: int
    row: int
    neighbours: tuple[str, ...] = ()
    held_by: str | None = None


@dataclass(frozen=True)
class MapHeader:
    name: str
    description: str


@dataclass(frozen=True)
class CampaignMap:
    """A whole map file."""

    format: str
    version: int
    map: MapHeader
    territories: tuple[TerritoryEntry, ...] = ()


@dataclass(frozen=True)
class MapSection:
    """A map as a content pack carries it (its ``map`` section)."""

    name: str
    description: str
    territories: tuple[TerritoryEntry, ...] = ()
