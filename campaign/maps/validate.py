"""Read a campaign map file: a ``CampaignMap`` of plain dataclasses, or a ``MapError``.

The file is read as safely as a content pack (`campaign.jsonfiles`), then checked
against ``spec``, then the rules across territories."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..jsonfiles import FileProblems, check_object, finish
from ..jsonfiles import parse as parse_file
from . import spec
from .model import CampaignMap, MapSection, TerritoryEntry


class MapError(FileProblems):
    """A file is not a good campaign map: ``problems`` are lines "place: rule"."""


def parse(data: bytes) -> Any:
    """The JSON value of ``data``, or a MapError naming why it can't be read."""
    return parse_file(data, spec.LIMITS, MapError)


def check_territories(
    territories: Iterable[TerritoryEntry], problems: list[str], place: str = "territories"
) -> None:
    """The rules across territories: one per hex, and neighbours that name another
    territory of the map."""
    territories = list(territories)
    ids = {t.id for t in territories}
    hexes: dict[tuple[int, int], str] = {}
    for i, t in enumerate(territories):
        where = f"{place}[{i}]"
        taken = hexes.setdefault((t.column, t.row), t.id)
        if taken != t.id:
            problems.append(f'{where}: column {t.column}, row {t.row} is already "{taken}"\'s hex')
        for j, other in enumerate(t.neighbours):
            if other == t.id:
                problems.append(f"{where}.neighbours[{j}]: a territory can't border itself")
            elif other not in ids:
                problems.append(f'{where}.neighbours[{j}]: "{other}" is no territory of this map')


def check_holders(
    territories: Iterable[TerritoryEntry], alliances: Iterable[str], place: str = "territories"
) -> list[str]:
    """Problems of ``held_by`` names that are none of ``alliances``."""
    known = set(alliances)
    return [
        f'{place}[{i}].held_by: "{t.held_by}" is no alliance of this campaign'
        for i, t in enumerate(territories)
        if t.held_by is not None and t.held_by not in known
    ]


def check(value: Any) -> CampaignMap:
    """``value`` (parsed JSON) as a CampaignMap, or a MapError listing every problem."""
    if not isinstance(value, dict):
        raise MapError(["(file): must be a JSON object"])
    problems: list[str] = []
    result = check_object(spec.MAP, value, "", problems)
    if result is not None:
        check_territories(result.territories, problems)
    finish(problems, spec.LIMITS, MapError)
    return result


def load_map(data: bytes) -> CampaignMap:
    """Parse and check the bytes of a map file."""
    return check(parse(data))


def check_section(value: Any) -> MapSection:
    """A pack's map section (as a pack stores it) back as a MapSection, or a MapError."""
    problems: list[str] = []
    result = check_object(spec.SECTION, value, "map", problems)
    if result is not None:
        check_territories(result.territories, problems, "map.territories")
    finish(problems, spec.LIMITS, MapError)
    return result
