"""The dataclasses a valid content pack becomes (content comes from packs, not code)."""

from __future__ import annotations

from dataclasses import dataclass

from ..maps.model import MapSection


@dataclass(frozen=True)
class Agenda:
    """XP per achievement; a tally Agenda also counts on the unit's card."""

    id: str
    name: str
    effect: str
    xp: int
    keeps_tally: bool
    limit_per_battle: int | None = None


@dataclass(frozen=True)
class Blessing:
    """What the underdog may pick."""

    id: str
    name: str
    effect: str


@dataclass(frozen=True)
class UnderdogThreshold:
    """A gap of at least ``gap_at_least`` Crusade points gives ``blessings`` picks."""

    gap_at_least: int
    blessings: int


@dataclass(frozen=True)
class Requisition:
    """A pack Requisition; ``cost_in`` is "rp" or one of the pack's counter ids."""

    id: str
    name: str
    effect: str
    cost: int
    cost_in: str
    timing: str
    target: str
    effect_kind: str
    counter: str | None = None
    change: int | None = None
    upgrade: str | None = None


@dataclass(frozen=True)
class Upgrade:
    id: str
    name: str
    effect: str
    crusade_points: int


@dataclass(frozen=True)
class TraitEntry:
    """One row of a Battle Traits table, in dice order."""

    id: str
    name: str
    effect: str


@dataclass(frozen=True)
class TraitTable:
    id: str
    name: str
    entries: tuple[TraitEntry, ...]


@dataclass(frozen=True)
class Relic:
    """A Crusade Relic; category is artificer, antiquity or legendary."""

    id: str
    name: str
    category: str
    effect: str


@dataclass(frozen=True)
class Scar:
    """A Battle Scar."""

    id: str
    name: str
    effect: str


@dataclass(frozen=True)
class Counter:
    """A named number per force or per unit, with its start and bounds."""

    id: str
    name: str
    per: str
    start: int
    least: int
    most: int


@dataclass(frozen=True)
class Alliance:
    """A side of a campaign: forces fight for it under its colour (#rrggbb)."""

    id: str
    name: str
    colour: str
    description: str


@dataclass(frozen=True)
class Header:
    slug: str
    name: str
    description: str
    source: str


@dataclass(frozen=True)
class Pack:
    """A whole content pack: one book or supplement, or a group's house rules."""

    format: str
    version: int
    pack: Header
    agendas_per_battle: int | None = None
    agendas: tuple[Agenda, ...] = ()
    blessings: tuple[Blessing, ...] = ()
    underdog_thresholds: tuple[UnderdogThreshold, ...] = ()
    requisitions: tuple[Requisition, ...] = ()
    upgrades: tuple[Upgrade, ...] = ()
    battle_traits: tuple[TraitTable, ...] = ()
    crusade_relics: tuple[Relic, ...] = ()
    battle_scars: tuple[Scar, ...] = ()
    counters: tuple[Counter, ...] = ()
    alliances: tuple[Alliance, ...] = ()
    map: MapSection | None = None
