"""Read a content pack file: a ``Pack`` of plain dataclasses, or a ``PackError``.

Hostile input is refused before it costs anything: the size is checked before
parsing, the nesting depth by a scan of the text, numbers by their length while
parsing, NaN and Infinity and repeated object keys while parsing. Then every field is
checked against ``spec``, and every problem is reported with its place and rule.
"""

from __future__ import annotations

from typing import Any

from ..jsonfiles import check_object, finish
from ..jsonfiles import parse as parse_file
from ..maps.validate import check_territories
from . import spec
from .errors import PackError
from .model import Pack
from .spec import EFFECT_KIND_FIELDS


def parse(data: bytes) -> Any:
    """The JSON value of ``data``, or a PackError naming why it can't be read."""
    return parse_file(data, spec.LIMITS, PackError)


def _check_links(pack: Pack, problems: list[str]) -> None:
    """The rules that span fields and sections."""
    counters = {c.id: c for c in pack.counters}
    upgrades = {u.id for u in pack.upgrades}
    for i, c in enumerate(pack.counters):
        if c.id == "rp":
            problems.append(f'counters[{i}].id: "rp" means Requisition points in cost_in')
        if not c.least <= c.start <= c.most:
            problems.append(f"counters[{i}]: must have least <= start <= most")
    if pack.map is not None:
        check_territories(pack.map.territories, problems, "map.territories")
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
    pack = check_object(spec.PACK, value, "", problems)
    if pack is not None:
        _check_links(pack, problems)
    finish(problems, spec.LIMITS, PackError)
    return pack


def load_pack(data: bytes) -> Pack:
    """Parse and check the bytes of a pack file."""
    return check(parse(data))
