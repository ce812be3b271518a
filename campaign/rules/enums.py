"""The named things of the Crusade rules, with their labels and fixed numbers.

Data only: this module imports nothing from the rest of the package but the edition's
numbers (`edition`, which imports nothing), so every other
module (tables and logic alike) can import it without a cycle. Members are declared as
``value, label``; a member without a label is labelled by its value.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from .edition import EDITION


class Labelled(StrEnum):
    """A string enum whose members carry the label players read."""

    label: str

    def __new__(cls, value: str, label: str | None = None) -> Labelled:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = value if label is None else label
        return member


class Rank(IntEnum):
    """R3.5: the five ranks, ordered so that a higher rank compares greater."""

    label: str

    def __new__(cls, value: int, label: str) -> Rank:
        member = int.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member

    BATTLE_READY = 0, "Battle-ready"
    BLOODED = 1, "Blooded"
    BATTLE_HARDENED = 2, "Battle-hardened"
    HEROIC = 3, "Heroic"
    LEGENDARY = 4, "Legendary"

    @property
    def min_xp(self) -> int:
        """Fewest XP a unit needs to hold this rank (R3.5)."""
        return RANK_THRESHOLDS[self]

    @property
    def next(self) -> Rank | None:
        """The rank above this one, or None at the top."""
        return Rank(self + 1) if self < Rank.LEGENDARY else None


RANK_THRESHOLDS: dict[Rank, int] = dict(zip(Rank, EDITION.rank_thresholds, strict=True))
"""R3.5: minimum XP for each rank."""


class Keyword(Labelled):
    """R2.2: the keywords that change how the Crusade rules treat a unit, and (R4.4) the
    ones that say which Battle Traits tables fit it."""

    CHARACTER = "character", "CHARACTER"
    EPIC_HERO = "epic_hero", "EPIC HERO"
    TITANIC = "titanic", "TITANIC"
    FORTIFICATION = "fortification", "FORTIFICATION"
    SWARM = "swarm", "SWARM"
    BATTLELINE = "battleline", "BATTLELINE"
    DEDICATED_TRANSPORT = "dedicated_transport", "DEDICATED TRANSPORT"
    INFANTRY = "infantry", "INFANTRY"
    MOUNTED = "mounted", "MOUNTED"
    VEHICLE = "vehicle", "VEHICLE"
    MONSTER = "monster", "MONSTER"

    @property
    def field(self) -> str:
        """The name of the yes/no field that records it on a card."""
        return f"is_{self.value}"


RULE_KEYWORDS: tuple[Keyword, ...] = tuple(Keyword)[:7]
"""R2.2: the keywords that change the Crusade rules themselves."""

NO_XP_KEYWORDS: frozenset[Keyword] = frozenset(
    {Keyword.EPIC_HERO, Keyword.FORTIFICATION, Keyword.SWARM}
)
"""R2.6: units with any of these never gain XP or Battle Honours."""


class RelicCategory(Labelled):
    """R4.5: the three kinds of Crusade Relic."""

    ARTIFICER = "artificer", "Artificer Relic"
    ANTIQUITY = "antiquity", "Antiquity Relic"
    LEGENDARY = "legendary", "Legendary Relic"

    @property
    def crusade_points(self) -> int:
        """R4.5: Crusade points a relic of this category adds (instead of +1)."""
        return RELIC_CRUSADE_POINTS[self]

    @property
    def min_rank(self) -> Rank:
        """R4.5: lowest rank whose CHARACTER may take a relic of this category."""
        return RELIC_MIN_RANK[self]


RELIC_CRUSADE_POINTS: dict[RelicCategory, int] = {
    category: EDITION.relic_crusade_points[category.value] for category in RelicCategory
}
"""R4.5: Crusade points per relic category."""

RELIC_MIN_RANK: dict[RelicCategory, Rank] = {
    category: Rank(EDITION.relic_min_rank[category.value]) for category in RelicCategory
}
"""R4.5: rank gate per relic category (best reading; a campaign may change it)."""


class HonourCategory(Labelled):
    """R4.1: kinds of Battle Honour; campaign books add more, so a campaign may too."""

    BATTLE_TRAIT = "battle_trait", "Battle Trait"
    WEAPON_MODIFICATION = "weapon_modification", "Weapon Modification"
    CRUSADE_RELIC = "crusade_relic", "Crusade Relic"
    CUSTOM = "custom", "Campaign honour"


class TraitTable(Labelled):
    """R4.4: the Battle Traits tables, named after the units they fit."""

    CHARACTER = "Character"
    INFANTRY = "Infantry"
    MOUNTED = "Mounted"
    VEHICLE = "Vehicle"


class OutOfAction(Labelled):
    """R5.1-R5.3: how an Out of Action test ends."""

    PASSED = "passed", "Passed"
    DEVASTATING_BLOW = "devastating_blow", "Devastating Blow"
    BATTLE_SCAR = "battle_scar", "Battle Scar"
    REMOVED = "removed", "Removed from the Order of Battle"


class Requisition(Labelled):
    """R6.1-R6.6: the core Requisitions."""

    INCREASE_SUPPLY_LIMIT = "increase_supply_limit", "Increase Supply Limit"
    RENOWNED_HEROES = "renowned_heroes", "Renowned Heroes"
    LEGENDARY_VETERANS = "legendary_veterans", "Legendary Veterans"
    REARM_AND_RESUPPLY = "rearm_and_resupply", "Rearm and Resupply"
    REPAIR_AND_RECUPERATE = "repair_and_recuperate", "Repair and Recuperate"
    FRESH_RECRUITS = "fresh_recruits", "Fresh Recruits"

    @property
    def needs_unit(self) -> bool:
        """Whether buying it means picking one unit (all but R6.1)."""
        return self is not Requisition.INCREASE_SUPPLY_LIMIT

    @property
    def max_cost(self) -> int:
        """R6: the most this Requisition can ever cost."""
        return REQUISITION_MAX_COST[self]


REQUISITION_MAX_COST: dict[Requisition, int] = {
    req: EDITION.requisition_costs[req.value].most for req in Requisition
}
"""R6: the most each Requisition can cost."""


class PromotionReward(Labelled):
    """R3.7: what a unit takes for a rank gained."""

    BATTLE_HONOUR = "battle_honour", "Battle Honour"
    RENOWNED_HEROES = "renowned_heroes", Requisition.RENOWNED_HEROES.label


class BattleResult(Labelled):
    """R9: a side's result."""

    WIN = "win", "Victory"
    LOSS = "loss", "Defeat"
    DRAW = "draw", "Draw"


def choices(enum: type[Labelled] | type[Rank]) -> list[tuple[object, str]]:
    """(value, label) pairs of ``enum``, in order: what a form or model field offers."""
    return [(member.value, member.label) for member in enum]
