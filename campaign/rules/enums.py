"""The named things of the Crusade rules, with their labels and fixed numbers.

Data only: this module imports nothing from the rest of the package, so every other
module (tables and logic alike) can import it without a cycle.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Rank(IntEnum):
    """R3.5: the five ranks, ordered so that a higher rank compares greater."""

    BATTLE_READY = 0
    BLOODED = 1
    BATTLE_HARDENED = 2
    HEROIC = 3
    LEGENDARY = 4

    @property
    def label(self) -> str:
        """The rank's name as printed on a Crusade card."""
        return _RANK_LABELS[self]

    @property
    def min_xp(self) -> int:
        """Fewest XP a unit needs to hold this rank (R3.5)."""
        return RANK_THRESHOLDS[self]

    @property
    def next(self) -> Rank | None:
        """The rank above this one, or None at the top."""
        return Rank(self + 1) if self < Rank.LEGENDARY else None


_RANK_LABELS: dict[Rank, str] = {
    Rank.BATTLE_READY: "Battle-ready",
    Rank.BLOODED: "Blooded",
    Rank.BATTLE_HARDENED: "Battle-hardened",
    Rank.HEROIC: "Heroic",
    Rank.LEGENDARY: "Legendary",
}

RANK_THRESHOLDS: dict[Rank, int] = {
    Rank.BATTLE_READY: 0,
    Rank.BLOODED: 6,
    Rank.BATTLE_HARDENED: 16,
    Rank.HEROIC: 31,
    Rank.LEGENDARY: 51,
}
"""R3.5: minimum XP for each rank."""


class Keyword(StrEnum):
    """R2.2: the keywords that change how the Crusade rules treat a unit, and (R4.4) the
    ones that say which Battle Traits tables fit it."""

    CHARACTER = "character"
    EPIC_HERO = "epic_hero"
    TITANIC = "titanic"
    FORTIFICATION = "fortification"
    SWARM = "swarm"
    BATTLELINE = "battleline"
    DEDICATED_TRANSPORT = "dedicated_transport"
    INFANTRY = "infantry"
    MOUNTED = "mounted"
    VEHICLE = "vehicle"
    MONSTER = "monster"

    @property
    def label(self) -> str:
        """The keyword as the rules print it, e.g. ``EPIC HERO``."""
        return self.value.replace("_", " ").upper()

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


class RelicCategory(StrEnum):
    """R4.5: the three kinds of Crusade Relic."""

    ARTIFICER = "artificer"
    ANTIQUITY = "antiquity"
    LEGENDARY = "legendary"

    @property
    def label(self) -> str:
        """Name of the category as the rules print it."""
        return f"{self.value.capitalize()} Relic"

    @property
    def crusade_points(self) -> int:
        """R4.5: Crusade points a relic of this category adds (instead of +1)."""
        return RELIC_CRUSADE_POINTS[self]

    @property
    def min_rank(self) -> Rank:
        """R4.5: lowest rank whose CHARACTER may take a relic of this category."""
        return RELIC_MIN_RANK[self]


RELIC_CRUSADE_POINTS: dict[RelicCategory, int] = {
    RelicCategory.ARTIFICER: 1,
    RelicCategory.ANTIQUITY: 2,
    RelicCategory.LEGENDARY: 3,
}
"""R4.5: Crusade points per relic category."""

RELIC_MIN_RANK: dict[RelicCategory, Rank] = {
    RelicCategory.ARTIFICER: Rank.BATTLE_READY,
    RelicCategory.ANTIQUITY: Rank.HEROIC,
    RelicCategory.LEGENDARY: Rank.LEGENDARY,
}
"""R4.5: rank gate per relic category (best reading; a campaign may change it)."""


class HonourCategory(StrEnum):
    """R4.1: kinds of Battle Honour; campaign books add more, so a campaign may too."""

    BATTLE_TRAIT = "battle_trait"
    WEAPON_MODIFICATION = "weapon_modification"
    CRUSADE_RELIC = "crusade_relic"
    CUSTOM = "custom"

    @property
    def label(self) -> str:
        return _HONOUR_LABELS[self]


_HONOUR_LABELS: dict[HonourCategory, str] = {
    HonourCategory.BATTLE_TRAIT: "Battle Trait",
    HonourCategory.WEAPON_MODIFICATION: "Weapon Modification",
    HonourCategory.CRUSADE_RELIC: "Crusade Relic",
    HonourCategory.CUSTOM: "Campaign honour",
}


class TraitTable(StrEnum):
    """R4.4: the Battle Traits tables, named after the units they fit."""

    CHARACTER = "Character"
    INFANTRY = "Infantry"
    MOUNTED = "Mounted"
    VEHICLE = "Vehicle"

    @property
    def label(self) -> str:
        return self.value


class OutOfAction(StrEnum):
    """R5.1-R5.3: how an Out of Action test ends."""

    PASSED = "passed"
    DEVASTATING_BLOW = "devastating_blow"
    BATTLE_SCAR = "battle_scar"
    REMOVED = "removed"

    @property
    def label(self) -> str:
        """Name shown to players."""
        return _OOA_LABELS[self]


_OOA_LABELS: dict[OutOfAction, str] = {
    OutOfAction.PASSED: "Passed",
    OutOfAction.DEVASTATING_BLOW: "Devastating Blow",
    OutOfAction.BATTLE_SCAR: "Battle Scar",
    OutOfAction.REMOVED: "Removed from the Order of Battle",
}


class Requisition(StrEnum):
    """R6.1-R6.6: the core Requisitions."""

    INCREASE_SUPPLY_LIMIT = "increase_supply_limit"
    RENOWNED_HEROES = "renowned_heroes"
    LEGENDARY_VETERANS = "legendary_veterans"
    REARM_AND_RESUPPLY = "rearm_and_resupply"
    REPAIR_AND_RECUPERATE = "repair_and_recuperate"
    FRESH_RECRUITS = "fresh_recruits"

    @property
    def label(self) -> str:
        """Name as the rules print it."""
        return _REQUISITION_LABELS[self]

    @property
    def needs_unit(self) -> bool:
        """Whether buying it means picking one unit (all but R6.1)."""
        return self is not Requisition.INCREASE_SUPPLY_LIMIT

    @property
    def max_cost(self) -> int:
        """R6: the most this Requisition can ever cost."""
        return REQUISITION_MAX_COST[self]


_REQUISITION_LABELS: dict[Requisition, str] = {
    Requisition.INCREASE_SUPPLY_LIMIT: "Increase Supply Limit",
    Requisition.RENOWNED_HEROES: "Renowned Heroes",
    Requisition.LEGENDARY_VETERANS: "Legendary Veterans",
    Requisition.REARM_AND_RESUPPLY: "Rearm and Resupply",
    Requisition.REPAIR_AND_RECUPERATE: "Repair and Recuperate",
    Requisition.FRESH_RECRUITS: "Fresh Recruits",
}

REQUISITION_MAX_COST: dict[Requisition, int] = {
    Requisition.INCREASE_SUPPLY_LIMIT: 1,
    Requisition.RENOWNED_HEROES: 3,
    Requisition.LEGENDARY_VETERANS: 3,
    Requisition.REARM_AND_RESUPPLY: 1,
    Requisition.REPAIR_AND_RECUPERATE: 5,
    Requisition.FRESH_RECRUITS: 4,
}
"""R6: the most each Requisition can cost."""


class PromotionReward(StrEnum):
    """R3.7: what a unit takes for a rank gained."""

    BATTLE_HONOUR = "battle_honour"
    RENOWNED_HEROES = "renowned_heroes"

    @property
    def label(self) -> str:
        if self is PromotionReward.RENOWNED_HEROES:
            return Requisition.RENOWNED_HEROES.label
        return "Battle Honour"


class BattleResult(StrEnum):
    """R9: a side's result."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"

    @property
    def label(self) -> str:
        return _RESULT_LABELS[self]


_RESULT_LABELS: dict[BattleResult, str] = {
    BattleResult.WIN: "Victory",
    BattleResult.LOSS: "Defeat",
    BattleResult.DRAW: "Draw",
}


def choices(enum: type[StrEnum] | type[IntEnum]) -> list[tuple[object, str]]:
    """(value, label) pairs of ``enum``, in order: what a form or model field offers."""
    return [(member.value, member.label) for member in enum]
