"""Bringing an army list in from another app: a plan to preview, then one transaction.

The pages read the file (`campaign.rosters`) and turn each unit the player keeps into a
`NewUnit`; `plan_import` says what importing them would cost and what the rules refuse,
and `import_roster` makes the cards through `create_force` and `add_unit`, so every rule
of a new card applies, and a refusal anywhere leaves nothing behind.

A refusal about one unit names its field as ``units.<index>.<field>`` (see `unit_key`),
the index being the unit's place in the ``units`` given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction

from campaign import rules
from campaign.bounds import out_of_range
from campaign.models import Campaign, CrusadeForce, HistoryAction, Unit
from campaign.rosters import RosterUnit

from . import _common as common
from .forces import NewUnit, add_unit, create_force
from .requisitions import other_enhancements

Req = rules.Requisition

UNIT_PREFIX = "units."
SUPPLY = "supply"
"""The refusal that the chosen units don't fit in the Supply Limit."""
RP = "rp"
"""The refusal that the Enhancements kept cost more RP than the force has."""
MAX_UNITS = 300
"""Most cards one import makes: more than any army list, few enough for one request."""


def unit_key(index: int, field: str = NON_FIELD_ERRORS) -> str:
    """How a refusal names a field of the unit at ``index``."""
    return f"{UNIT_PREFIX}{index}.{field}"


def split_unit_key(key: str) -> tuple[int, str] | None:
    """``units.3.name`` -> ``(3, "name")``; None for a key about the whole import."""
    if not key.startswith(UNIT_PREFIX):
        return None
    index, _, field_name = key[len(UNIT_PREFIX) :].partition(".")
    return (int(index), field_name) if index.isascii() and index.isdigit() else None


def unique_names(names: Iterable[str], taken: Iterable[str] = ()) -> list[str]:
    """Each name, numbered (``Plague Marines 2``) where the force or the list already has it."""
    seen = {name.lower() for name in taken}
    unique = []
    for name in names:
        candidate, number = name, 1
        while candidate.lower() in seen:
            number += 1
            candidate = f"{name} {number}"
        seen.add(candidate.lower())
        unique.append(candidate)
    return unique


def _fit(field_name: str, value: str) -> str:
    """``value`` cut to what the card's field holds (files may say more)."""
    most = Unit._meta.get_field(field_name).max_length
    return value if most is None or len(value) <= most else value[: most - 1] + "…"


def roster_card(
    unit: RosterUnit,
    *,
    faction_keywords: str,
    name: str | None = None,
    keywords: Iterable[rules.Keyword] | None = None,
    enhancement: bool = True,
    enhancement_points: int | None = None,
) -> NewUnit:
    """The new card for one unit of an army list.

    The list's points include the unit's Enhancement; the card is given the datasheet's
    points, and the Enhancement (when kept) is bought as the card is made. Its cost is
    the file's, or ``enhancement_points`` when the file doesn't give it. ``keywords``
    default to those the file shows.
    """
    if keywords is None:
        keywords = [k for k in rules.Keyword if k.label in unit.keywords]
    cost = 0
    if unit.enhancement:
        stated = unit.enhancement_points
        cost = (stated if stated is not None else enhancement_points) or 0
    kept = bool(unit.enhancement) and enhancement
    ticked = set(keywords)
    return NewUnit(
        name=_fit("name", (unit.name if name is None else name).strip()),
        datasheet=_fit("datasheet", unit.datasheet),
        points=max(0, unit.points - cost),
        faction_keywords=_fit("faction_keywords", faction_keywords),
        models_description=_fit("models_description", unit.models_description),
        model_count=max(1, unit.models),
        wargear=unit.wargear,
        enhancement=_fit("enhancement", unit.enhancement) if kept else "",
        enhancement_points=cost if kept else 0,
        **{k.field: k in ticked for k in rules.Keyword},
    )


def card_points(unit: NewUnit) -> int:
    """The card's points once made: the datasheet's and, if it takes one, its Enhancement's."""
    if not unit.enhancement.strip():
        return unit.points
    return unit.points + (unit.enhancement_points or 0)


@dataclass(frozen=True)
class ImportPlan:
    """What importing some units would do to a force, before anything is written."""

    supply_used: int
    supply_limit: int
    points: int
    """Points the imported units add to Supply Used, Enhancements included."""
    rp: int
    enhancement_costs: tuple[int, ...]
    """What each Enhancement kept costs, in the order they are bought."""
    refusals: dict[str, str] = field(default_factory=dict)
    """What the rules refuse: by `SUPPLY`, `RP`, or a `unit_key`."""

    @property
    def supply_after(self) -> int:
        return self.supply_used + self.points

    @property
    def supply_over(self) -> int:
        return max(0, self.supply_after - self.supply_limit)

    @property
    def supply_percent(self) -> int:
        if not self.supply_limit:
            return 100
        return min(100, round(100 * self.supply_after / self.supply_limit))

    @property
    def rp_cost(self) -> int:
        return sum(self.enhancement_costs)

    @property
    def cost_text(self) -> str:
        """What the Enhancements kept cost, each and together."""
        return _enhancements_cost(list(self.enhancement_costs))

    @property
    def rp_after(self) -> int:
        return self.rp - self.rp_cost

    @property
    def unit_refusals(self) -> dict[int, list[str]]:
        """The refusals about single units, by their index."""
        found: dict[int, list[str]] = {}
        for key, message in self.refusals.items():
            where = split_unit_key(key)
            if where is not None:
                found.setdefault(where[0], []).append(message)
        return found

    def error(self) -> ValidationError:
        return ValidationError({key: [message] for key, message in self.refusals.items()})


def _facts(unit: NewUnit) -> rules.UnitFacts:
    """A card not made yet, as the rules see it: no XP, honours, scars or battles."""
    return rules.UnitFacts(
        name=unit.name,
        datasheet=unit.datasheet,
        points=unit.points,
        keywords=frozenset(k for k in rules.Keyword if getattr(unit, k.field)),
    )


def plan_import(
    *,
    units: Sequence[NewUnit],
    force: CrusadeForce | None = None,
    house: rules.HouseRules = rules.DEFAULT_HOUSE_RULES,
) -> ImportPlan:
    """What importing ``units`` into ``force`` (or a new force under ``house``) would cost.

    Each Enhancement kept is bought with its Requisition as the card is made, so each
    costs more than the one before, and the rules decide who may take one.
    """
    if force is None:
        used, limit, rp = 0, house.starting_supply_limit, house.starting_rp
        held, played, in_battle = 0, False, False
    else:
        used, limit, rp = force.supply_used, force.supply_limit, force.rp
        held, played, in_battle = other_enhancements(force), force.battle_tally > 0, None
    points = sum(card_points(unit) for unit in units if unit.counts_towards_supply)
    refusals: dict[str, str] = {}
    if refusal := rules.supply_refusal(
        supply_used=used, supply_limit=limit, extra_points=points, needing="The units ticked need"
    ):
        refusals[SUPPLY] = refusal
    for index, unit in enumerate(units):
        for name, message in out_of_range(Unit, vars(unit)).items():  # read, not copied
            refusals[unit_key(index, name)] = f"{unit.name}: {message}"
    costs: list[int] = []
    for index, unit in enumerate(units):
        if not unit.enhancement.strip():
            continue
        cost = rules.requisition_cost(Req.RENOWNED_HEROES, other_enhancements=held + len(costs))
        if in_battle is None:
            in_battle = force.in_battle()
        reasons = rules.requisition_refusals(
            Req.RENOWNED_HEROES,
            rp=cost,  # what RP the force has is checked once, for all of them, below
            in_battle=in_battle,
            unit=_facts(unit),
            force_has_played=played,
            unit_has_played=False,
        )
        if reasons:
            refusals[unit_key(index, "enhancement")] = f"{unit.name}: {' '.join(reasons)}"
        costs.append(cost)
    total = sum(costs)
    if refusal := rules.rp_refusal(rp=rp, cost=total):
        refusals[RP] = (
            f"{_enhancements_cost(costs)} ({Req.RENOWNED_HEROES.label} for each). "
            f"{refusal} Untick some of them."
        )
    return ImportPlan(used, limit, points, rp, tuple(costs), refusals)


def _enhancements_cost(costs: list[int]) -> str:
    """``The 3 Enhancements kept cost 1RP + 2RP + 3RP = 6RP``."""
    total = sum(costs)
    if len(costs) == 1:
        return f"The Enhancement kept costs {total}RP"
    each = " + ".join(f"{cost}RP" for cost in costs)
    return f"The {len(costs)} Enhancements kept cost {each} = {total}RP"


def _about_unit(error: ValidationError, index: int) -> ValidationError:
    """A refusal from `add_unit`, named as the field of the unit at ``index``."""
    if hasattr(error, "error_dict"):
        fields = error.error_dict
        return ValidationError({unit_key(index, name): fields[name] for name in fields})
    return ValidationError({unit_key(index): error.messages})


@transaction.atomic
def import_roster(
    *,
    actor,
    units: Sequence[NewUnit],
    force: CrusadeForce | None = None,
    player=None,
    campaign: Campaign | None = None,
    name: str = "",
    faction: str = "",
    source: str = "",
) -> CrusadeForce:
    """Make a card for each of ``units`` in ``force``, or in a new force of ``player``.

    All or nothing: the new force, the cards and the Enhancements bought for them are
    written in one transaction, so any refusal leaves the database as it was. ``source``
    says where the list came from, for the history.
    """
    if not units:
        common.refuse("Tick at least one unit to import.")
    if len(units) > MAX_UNITS:
        common.refuse(f"Import at most {MAX_UNITS} units at once; {len(units)} are ticked.")
    if force is None:
        for key, value in (("name", name), ("faction", faction)):
            if not value.strip():
                common.refuse("This can't be left empty.", field=key)
        force = create_force(
            actor=actor, player=player, name=name, faction=faction, campaign=campaign
        )
    force = common.lock_force(force)
    plan = plan_import(units=units, force=force)
    if plan.refusals:
        raise plan.error()
    before = common.snapshot(force, ("supply_used", "rp"))
    for index, unit in enumerate(units):
        try:
            add_unit(actor=actor, force=force, unit=unit)
        except ValidationError as error:
            raise _about_unit(error, index) from error
    force.refresh_from_db(fields=["supply_used", "rp", "unit_count", "crusade_points"])
    common.record(
        actor,
        HistoryAction.ROSTER_IMPORTED,
        f"{len(units)} units imported into {force.name}" + (f" from {source}" if source else ""),
        force=force,
        changed=common.changes(before, common.snapshot(force, ("supply_used", "rp"))),
    )
    return force
