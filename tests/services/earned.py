"""What a card or force earned before the test: XP, RP, promotions, honours, scars.

Each helper takes the shortest honest route and says which: an organiser correction, a
promotion settled through the services, or a row written directly (as if a past battle
had written it).
"""

from __future__ import annotations

from campaign import rules, services
from campaign.models import (
    BattleHonour,
    BattleScar,
    CrusadeForce,
    CustomContent,
    Promotion,
    Unit,
)
from campaign.services._common import refresh_totals
from tests.factories import make_campaign, make_user

PAPER_ROSTER = "Carried over from the paper roster"


def organiser():
    """An organiser account for corrections made while setting a test up."""
    return make_user()


def set_xp(unit: Unit, xp: int) -> Unit:
    """Give a unit XP it earned before the test, as an organiser correction (no promotion)."""
    return services.correct_unit(actor=organiser(), unit=unit, reason=PAPER_ROSTER, xp=xp)


def set_rp(force: CrusadeForce, rp: int) -> CrusadeForce:
    return services.correct_force(actor=organiser(), force=force, reason=PAPER_ROSTER, rp=rp)


def pending_promotion(unit: Unit, rank: rules.Rank | None = None) -> Promotion:
    """A promotion waiting to be settled, written directly (as if a past battle queued it):
    by default for the rank the unit holds now (Blooded for a unit still Battle-ready)."""
    if rank is None:
        xp = Unit.objects.values_list("xp", flat=True).get(pk=unit.pk)
        rank = max(rules.rank_for_xp(xp), rules.Rank.BLOODED)
    return Promotion.objects.create(unit=unit, rank=rank)


def first_table(unit: Unit) -> rules.TraitTable:
    """The first Battle Traits table that fits the unit (R4.4)."""
    return rules.fitting_trait_tables(unit.keywords)[0]


def settle_trait(promotion: Promotion, **kwargs) -> BattleHonour:
    """Settle `promotion` with a Battle Trait, as the unit's player (R3.7, R4.4)."""
    return services.settle_with_battle_trait(
        actor=promotion.unit.force.player, promotion=promotion, **kwargs
    )


def settle_mods(promotion: Promotion, weapon: str, **kwargs) -> BattleHonour:
    """Settle `promotion` with Weapon Modifications on the Watchmaster's `weapon` (R4.6)."""
    return services.settle_with_weapon_modification(
        actor=promotion.unit.force.player,
        promotion=promotion,
        model_name="Watchmaster",
        weapon=weapon,
        **kwargs,
    )


def settle_relic(promotion: Promotion, relic: str = "", **kwargs) -> BattleHonour:
    """Settle `promotion` with a Crusade Relic (R4.5)."""
    return services.settle_with_crusade_relic(
        actor=promotion.unit.force.player, promotion=promotion, relic=relic, **kwargs
    )


def grant_trait(unit: Unit, trait: str, *, table: str | None = None) -> BattleHonour:
    """Give a unit a Battle Trait through the service, settling a promotion made for it."""
    return settle_trait(pending_promotion(unit), table=table or first_table(unit), trait=trait)


def grant_traits(unit: Unit, count: int) -> list[BattleHonour]:
    names = [name for name, _ in rules.BATTLE_TRAIT_TABLES[first_table(unit)].values()]
    return [grant_trait(unit, name) for name in names[:count]]


def grant_relic(unit: Unit, relic: str, *, weapon: str = "") -> BattleHonour:
    return settle_relic(pending_promotion(unit), relic, weapon=weapon)


def grant_weapon_mods(unit: Unit, weapon: str, mods=("Brutal", "Precise")) -> BattleHonour:
    return settle_mods(pending_promotion(unit), weapon, modifications=mods)


def old_scars(unit: Unit, *names: str) -> list[BattleScar]:
    """Battle Scars from earlier failed Out of Action tests, written directly (with the
    force's stored totals brought up to date, as the services would)."""
    scars = [
        BattleScar.objects.create(unit=unit, name=n, effect=rules.BATTLE_SCAR_EFFECTS[n])
        for n in names
    ]
    refresh_totals(unit.force)
    return scars


def renowned_hero(unit: Unit, *, points: int = 20, **kwargs):
    """Renowned Heroes (R6.2) for `unit`, bought by its player: the Drill Commander
    Enhancement, 20 points unless said otherwise."""
    return services.renowned_heroes(
        actor=unit.force.player,
        unit=unit,
        enhancement="Drill Commander",
        enhancement_points=points,
        **kwargs,
    )


def campaign_content(kind: str, name: str, *, campaign=None, **fields) -> CustomContent:
    """A campaign's own Battle Trait, Battle Scar or Crusade Relic (R4.1: content is data),
    added by an organiser; a new campaign unless `campaign` is given."""
    return services.add_custom_content(
        actor=organiser(), campaign=campaign or make_campaign(), kind=kind, name=name, **fields
    )
