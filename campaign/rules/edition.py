"""The numbers of one edition of the Crusade rules, declared once.

Every number the rules engine uses (rank thresholds, XP caps, honour and scar limits, RP
and XP per battle, Out of Action, battle sizes, muster limits, relic points and ranks,
Requisition costs, the house rules' defaults) is a field of ``Edition``; the rest of
``campaign.rules`` reads them from ``EDITION``. A new edition of the rules is a new
``Edition(...)`` here, not a change to the code that applies it.

This module imports nothing: values are keyed by the enums' values (a Requisition's
value, a relic category's value, ranks in order), and ``campaign.rules.enums`` builds its
tables from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RequisitionCost:
    """A Requisition's RP cost: ``base``, plus 1 for each ``honours_per_rp`` Battle Honours
    of the unit (rounded up) and 1 per other Enhancement when ``per_other_enhancement``,
    never more than ``most``."""

    base: int
    most: int
    honours_per_rp: int | None = None
    per_other_enhancement: bool = False


@dataclass(frozen=True)
class HouseDefaults:
    """The numbers a campaign organiser may change, as the rulebook sets them."""

    starting_supply_limit: int
    starting_rp: int
    rp_cap: int
    supply_limit_increase: int


@dataclass(frozen=True)
class Edition:
    name: str
    rank_thresholds: tuple[int, ...]
    """Least XP for each rank, in rank order (Battle-ready first)."""
    rp_per_battle: int
    battle_xp: int
    dealers_of_death_step: int
    marked_for_greatness_xp: int
    non_character_xp_cap: int
    max_battle_honours: int
    max_battle_honours_character: int
    out_of_action_pass: int
    battle_weary_modifier: int
    max_battle_scars: int
    battle_sizes: dict[str, int]
    max_same_datasheet: int
    max_same_datasheet_battleline: int
    relic_crusade_points: dict[str, int]
    relic_min_rank: dict[str, int]
    """Lowest rank (its place in ``rank_thresholds``) whose CHARACTER may take a relic."""
    requisition_costs: dict[str, RequisitionCost]
    house: HouseDefaults
    notes: tuple[str, ...] = field(default=())


TENTH = Edition(
    name="Crusade rules, tenth edition",
    rank_thresholds=(0, 6, 16, 31, 51),
    rp_per_battle=1,
    battle_xp=1,
    dealers_of_death_step=3,
    marked_for_greatness_xp=3,
    non_character_xp_cap=30,
    max_battle_honours=3,
    max_battle_honours_character=6,
    out_of_action_pass=2,
    battle_weary_modifier=-1,
    max_battle_scars=3,
    battle_sizes={"Incursion": 1000, "Strike Force": 2000, "Onslaught": 3000},
    max_same_datasheet=3,
    max_same_datasheet_battleline=6,
    relic_crusade_points={"artificer": 1, "antiquity": 2, "legendary": 3},
    relic_min_rank={"artificer": 0, "antiquity": 3, "legendary": 4},
    requisition_costs={
        "increase_supply_limit": RequisitionCost(base=1, most=1),
        "renowned_heroes": RequisitionCost(base=1, most=3, per_other_enhancement=True),
        "legendary_veterans": RequisitionCost(base=3, most=3),
        "rearm_and_resupply": RequisitionCost(base=1, most=1),
        "repair_and_recuperate": RequisitionCost(base=1, most=5, honours_per_rp=1),
        "fresh_recruits": RequisitionCost(base=1, most=4, honours_per_rp=2),
    },
    house=HouseDefaults(
        starting_supply_limit=1000, starting_rp=5, rp_cap=10, supply_limit_increase=200
    ),
    notes=("The rank gates of Antiquity and Legendary relics are the best reading of the text.",),
)

EDITION = TENTH
"""The edition the app plays."""
