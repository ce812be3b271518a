"""Mustering a Crusade army for one battle (R8, R3.7)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .enums import Keyword
from .tables import BATTLE_SIZES, MAX_SAME_DATASHEET, MAX_SAME_DATASHEET_BATTLELINE
from .units import UnitFacts


@dataclass(frozen=True, kw_only=True)
class MusterUnit(UnitFacts):
    """One Order of Battle unit offered for the army: its card facts and its place in it."""

    key: Hashable
    removed: bool = False
    pending: bool = False
    """An unsettled promotion, scar or honour choice (R3.7)."""
    embarked_unit_key: Hashable | None = None
    """For a DEDICATED TRANSPORT: the unit starting inside it (R8.6)."""
    leads_key: Hashable | None = None
    """For a Leader: the Bodyguard unit it attaches to (R8.7)."""
    second_leader_rule: str = ""
    """For a Bodyguard: the datasheet rule that lets it take a second Leader (R8.7)."""


@dataclass(frozen=True)
class MusterReport:
    """The result of checking an army: errors block it, warnings don't."""

    points: int
    limit: int
    errors: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Whether the army may fight."""
        return not self.errors


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def check_muster(
    *,
    battle_size: str,
    faction: str,
    units: Sequence[MusterUnit],
    warlord_key: Hashable | None,
) -> MusterReport:
    """R8: check a proposed army; every problem is reported, not just the first."""
    errors: list[str] = []
    warnings: list[str] = []
    points = sum(unit.points for unit in units)
    limit = BATTLE_SIZES.get(battle_size, 0)

    if battle_size not in BATTLE_SIZES:
        sizes = ", ".join(f"{name} ({pts})" for name, pts in BATTLE_SIZES.items())
        errors.append(f"'{battle_size}' is not a battle size; pick one of {sizes}.")
    elif points > limit:
        errors.append(
            f"The army is {points} points, {points - limit} over the "
            f"{limit}-point {battle_size} limit."
        )
    if not faction.strip():
        errors.append("Pick the army's Faction keyword.")
    if not units:
        errors.append("The army has no units.")
        return MusterReport(points, limit, tuple(errors), tuple(warnings))

    by_key: dict[Hashable, MusterUnit] = {}
    for unit in units:
        if unit.key in by_key:
            errors.append(f"{unit.name} is listed twice.")
        by_key[unit.key] = unit

    errors.extend(_unit_errors(units, faction))
    errors.extend(_composition_errors(units))
    errors.extend(_warlord_errors(by_key, warlord_key))
    attach_errors, attach_warnings = _attachment_problems(units, by_key)
    errors.extend(attach_errors)
    warnings.extend(attach_warnings)
    return MusterReport(points, limit, tuple(errors), tuple(warnings))


def _unit_errors(units: Sequence[MusterUnit], faction: str) -> list[str]:
    """R8.3/R3.7: each unit on its own."""
    errors: list[str] = []
    wanted = _norm(faction)
    for unit in units:
        if unit.removed:
            errors.append(f"{unit.name} was removed from the Order of Battle.")
        if wanted and wanted not in {_norm(k) for k in unit.faction_keywords}:
            errors.append(f"{unit.name} doesn't have the {faction.strip()} Faction keyword.")
        if unit.pending:
            errors.append(
                f"{unit.name} has a promotion, scar or honour to settle before it can fight."
            )
    return errors


def _composition_errors(units: Sequence[MusterUnit]) -> list[str]:
    """R8.3/R8.4: datasheet limits, a CHARACTER present, each EPIC HERO once."""
    errors: list[str] = []
    counts = Counter(_norm(unit.datasheet) for unit in units)
    for datasheet, count in counts.items():
        same = [unit for unit in units if _norm(unit.datasheet) == datasheet]
        if any(unit.has(Keyword.EPIC_HERO) for unit in same):
            if count > 1:
                errors.append(f"{same[0].datasheet} is an EPIC HERO and can be taken only once.")
            continue
        roomy = any(
            unit.has(Keyword.BATTLELINE) or unit.has(Keyword.DEDICATED_TRANSPORT) for unit in same
        )
        allowed = MAX_SAME_DATASHEET_BATTLELINE if roomy else MAX_SAME_DATASHEET
        if count > allowed:
            errors.append(f"{count} units of {same[0].datasheet}: at most {allowed} are allowed.")
    if not any(unit.is_character for unit in units):
        errors.append("The army needs at least one CHARACTER unit.")
    return errors


def _warlord_errors(by_key: dict[Hashable, MusterUnit], warlord_key: Hashable | None) -> list[str]:
    """R8.5: the Warlord is one of the army's CHARACTER units."""
    if warlord_key is None:
        return ["Pick a Warlord."]
    warlord = by_key.get(warlord_key)
    if warlord is None:
        return ["The Warlord must be one of the army's units."]
    if not warlord.is_character:
        return [f"{warlord.name} can't be the Warlord: only a CHARACTER can."]
    return []


def _attachment_problems(
    units: Sequence[MusterUnit], by_key: dict[Hashable, MusterUnit]
) -> tuple[list[str], list[str]]:
    """R8.6/R8.7: transports' passengers and Leaders' Bodyguards are in the army."""
    errors: list[str] = []
    warnings: list[str] = []
    passengers: Counter[Hashable] = Counter()
    for unit in units:
        if unit.has(Keyword.DEDICATED_TRANSPORT) and unit.embarked_unit_key is None:
            warnings.append(
                f"{unit.name} starts empty, so it counts as destroyed in the first battle round."
            )
        if unit.embarked_unit_key is not None:
            passengers[unit.embarked_unit_key] += 1
            if unit.embarked_unit_key == unit.key or unit.embarked_unit_key not in by_key:
                errors.append(f"The unit embarked in {unit.name} must be another unit of the army.")
        if unit.leads_key is not None:
            if not unit.is_character:
                errors.append(f"{unit.name} is not a CHARACTER, so it can't lead a unit.")
            if unit.leads_key == unit.key or unit.leads_key not in by_key:
                errors.append(f"The unit {unit.name} leads must be another unit of the army.")
            for member in (unit, by_key.get(unit.leads_key)):
                if member is not None and member.cannot_attach:
                    errors.append(
                        f"{member.name} bears Mark of Shame, so it can't form an Attached unit."
                    )
    for key, count in passengers.items():
        if count > 1 and key in by_key:
            errors.append(f"{by_key[key].name} can start embarked in only one transport.")
    errors.extend(_leader_errors(units, by_key))
    return errors, warnings


def _leader_errors(units: Sequence[MusterUnit], by_key: dict[Hashable, MusterUnit]) -> list[str]:
    """R8.7: one Leader per Bodyguard, unless a datasheet rule allows a second."""
    leaders: dict[Hashable, list[str]] = {}
    for unit in units:
        if unit.leads_key is not None and unit.leads_key in by_key:
            leaders.setdefault(unit.leads_key, []).append(unit.name)
    errors = []
    for key, names in leaders.items():
        bodyguard = by_key[key]
        if len(names) > 2 or (len(names) == 2 and not bodyguard.second_leader_rule.strip()):
            errors.append(
                f"{bodyguard.name} can have only one Leader ({' and '.join(names)} are "
                "attached); name the datasheet rule that allows a second one."
                if len(names) == 2
                else f"{bodyguard.name} can't have {len(names)} Leaders attached."
            )
    return errors


def attached_units(leads: Mapping[Hashable, Hashable | None]) -> list[tuple[Hashable, ...]]:
    """R8.7: the Attached units of an army, from each unit's key to the key of the
    Bodyguard it leads (None for a unit that leads nobody), in army order: each is its
    Bodyguard and every Leader attached to it (one or two), as keys in army order."""
    led = {bodyguard for bodyguard in leads.values() if bodyguard is not None}
    groups = []
    for bodyguard in (key for key in leads if key in led):
        groups.append(tuple(key for key in leads if key == bodyguard or leads[key] == bodyguard))
    return groups


NEVER_LED: frozenset[Keyword] = frozenset(
    {
        Keyword.CHARACTER,
        Keyword.VEHICLE,
        Keyword.DEDICATED_TRANSPORT,
        Keyword.FORTIFICATION,
    }
)
"""R8.7 (decision): units no Leader joins as a Bodyguard, so the muster asks none of them
for a second Leader's rule: a CHARACTER leads rather than being led, and the LEADER
abilities name infantry, mounted and beast units, never a vehicle or a building."""


def asks_second_leader_rule(keywords: Iterable[Keyword], *, characters: int) -> bool:
    """R8.7: whether the muster asks for the datasheet rule that lets this unit take a
    second Leader: only when the army could give it two (two CHARACTERs or more) and it
    is a unit a Leader joins."""
    return characters > 1 and not NEVER_LED.intersection(keywords)
