"""Every service call the benchmark makes, in one place.

The seed and the measurements change Crusade state only through these functions,
and these only through `campaign.services`, as players and organisers would. When a
service's signature changes, this is the one module to adapt.
"""

from __future__ import annotations

import random

from campaign import models, rules, services
from campaign.packs import SAMPLE_PACK
from campaign.services import scripted

from .rosters import Datasheet, Faction

Outcome = services.UnitOutcome

ENHANCEMENTS = ("Artificer Armour", "Fire Discipline", "Adept of the Codex", "Veil of Time")


def create_campaign(*, organiser, name: str, description: str) -> models.Campaign:
    """A league campaign with the sample house pack enabled, as a real group has a book."""
    campaign = services.create_campaign(actor=organiser, name=name, description=description)
    services.import_pack(actor=organiser, data=SAMPLE_PACK.read_bytes(), campaign=campaign)
    return campaign


def enlist(
    *, player, campaign: models.Campaign, name: str, faction: Faction
) -> models.CrusadeForce:
    """A player joins the campaign and musters a new Order of Battle in it."""
    services.join_campaign(
        actor=player, user=player, campaign=campaign, role=models.Membership.Role.PLAYER
    )
    return services.create_force(
        actor=player, player=player, campaign=campaign, name=name, faction=faction.name
    )


def carry_over_supply_limit(*, organiser, force: models.CrusadeForce, supply_limit: int) -> None:
    """An organiser sets the Supply Limit a force reached on paper before the league."""
    services.correct_force(
        actor=organiser,
        force=force,
        reason="Carried over from the league's paper rosters",
        supply_limit=supply_limit,
    )


BODY_KEYWORDS = {
    "Character": rules.Keyword.INFANTRY,
    "Infantry": rules.Keyword.INFANTRY,
    "Mounted": rules.Keyword.MOUNTED,
    "Vehicle": rules.Keyword.VEHICLE,
}
"""The keyword that makes a datasheet's Battle Traits table fit (a CHARACTER on foot is
INFANTRY, so the Character and Infantry tables both fit it)."""


def body_keyword(table: str) -> dict[str, bool]:
    keyword = BODY_KEYWORDS.get(table)
    return {keyword.field: True} if keyword else {}


def add_unit(
    *, force: models.CrusadeForce, faction: Faction, sheet: Datasheet, name: str
) -> models.Unit:
    """A new Crusade card copied from the army list."""
    return services.add_unit(
        actor=force.player,
        force=force,
        unit=services.NewUnit(
            name=name,
            datasheet=sheet.name,
            points=sheet.points,
            faction_keywords=faction.keywords,
            models_description=sheet.models,
            model_count=sheet.model_count,
            max_model_count=sheet.max_models,
            wargear=sheet.wargear,
            **body_keyword(sheet.table),
            is_character=sheet.character,
            is_epic_hero=sheet.epic_hero,
            is_battleline=sheet.battleline,
            is_dedicated_transport=sheet.transport,
            is_swarm=sheet.swarm,
        ),
    )


start_and_muster = scripted.start_and_muster


def open_battle(*, force, battle_size: str, mission: str, campaign, date) -> models.Battle:
    """A player starts a battle (its opponent to be told in person); nobody has mustered."""
    return services.start_battle(
        actor=force.player,
        force=force,
        opponents=[],
        battle_size=battle_size,
        mission=mission,
        campaign=campaign,
        date=date,
    )


"""Open a battle and muster each side's army, the first CHARACTER as Warlord: the demo
plays its battles the same way."""


def record_end(
    *,
    battle: models.Battle,
    results: dict[int, str],
    outcomes: dict[int, services.UnitOutcome],
) -> None:
    """Results by participant pk, what each unit did by army entry pk: each player
    records their own side."""
    services.record_battle_end(battle=battle, results=results, outcomes=outcomes)


def take_out_of_action_tests(battle: models.Battle, rng: random.Random) -> None:
    """Every destroyed unit rolls; a failed test takes a scar or a Devastating Blow."""
    tests = models.OutOfActionTest.objects.filter(
        battle_unit__participant__battle=battle, status=models.OutOfActionTest.Status.PENDING
    ).select_related("unit__force__player")
    for test in tests.order_by("pk"):
        player = test.unit.force.player
        test = services.take_out_of_action_test(actor=player, test=test, roll=rng.randint(1, 6))
        if test.status != models.OutOfActionTest.Status.AWAITING_CHOICE:
            continue  # passed, or removed for good with three scars and no honours
        choices = services.out_of_action_choices(test)
        blow = rules.OutOfAction.DEVASTATING_BLOW in choices
        if rules.OutOfAction.BATTLE_SCAR in choices and (not blow or rng.random() < 0.7):
            services.resolve_out_of_action(
                actor=player, test=test, choice=rules.OutOfAction.BATTLE_SCAR, rng=rng
            )
        else:
            honour = rng.choice(test.unit.active_honours())
            services.resolve_out_of_action(
                actor=player, test=test, choice=rules.OutOfAction.DEVASTATING_BLOW, honour=honour
            )


def settle_promotions(battle: models.Battle, rng: random.Random) -> None:
    """Settle every rank a battle brought, mostly with Battle Traits.

    CHARACTERS sometimes take an Artificer Relic or an Enhancement instead, and some units
    a Weapon Modification, so every kind of honour shows up on the cards.
    """
    promotions = models.Promotion.objects.filter(
        battle=battle, status=models.Promotion.Status.PENDING
    )
    for promotion in promotions.order_by("pk"):
        unit = (
            models.Unit.objects.with_card_details()
            .select_related("force")
            .get(pk=promotion.unit_id)
        )
        player = unit.force.player
        facts = unit.facts(pending_promotions=0)
        tables = rules.fitting_trait_tables(unit.keywords)
        replace = unit.active_honours()[0] if facts.at_honour_cap else None
        roll = rng.random()
        if unit.is_character and roll < 0.1 and _renowned_heroes(unit, promotion):
            continue
        relic = _artificer_relic(unit, facts) if unit.is_character and roll < 0.3 else None
        weapon = _unmodified_weapon(unit, rng) if roll > 0.8 or not tables else None
        if relic:
            services.settle_with_crusade_relic(
                actor=player, promotion=promotion, relic=relic, replace=replace
            )
        elif weapon:
            services.settle_with_weapon_modification(
                actor=player,
                promotion=promotion,
                model_name=_model_name(unit),
                weapon=weapon,
                replace=replace,
                rng=rng,
            )
        elif tables:
            services.settle_with_battle_trait(
                actor=player,
                promotion=promotion,
                table=tables[0],
                replace=replace,
                rng=rng,
            )


def _renowned_heroes(unit: models.Unit, promotion: models.Promotion) -> bool:
    """An Enhancement instead of the promotion's honour, when the force can buy it."""
    option = next(
        o
        for o in services.requisition_options(unit.force, unit=unit)
        if o.requisition is rules.Requisition.RENOWNED_HEROES
    )
    if not option.available or unit.enhancement:
        return False
    services.renowned_heroes(
        actor=unit.force.player,
        unit=unit,
        enhancement=ENHANCEMENTS[promotion.pk % len(ENHANCEMENTS)],
        enhancement_points=20,
        promotion=promotion,
    )
    return True


def _artificer_relic(unit: models.Unit, facts: rules.UnitFacts) -> str | None:
    """An Artificer Relic no unit of the force carries yet, if the rank allows."""
    taken = services.relics_in_force(unit)
    for name, (category, _effect) in rules.CRUSADE_RELICS.items():
        if category is rules.RelicCategory.ARTIFICER and name not in taken:
            return name if facts.rank >= category.min_rank else None
    return None


def _unmodified_weapon(unit: models.Unit, rng: random.Random) -> str | None:
    """A weapon of the unit's wargear that is neither modified nor a relic."""
    honoured = {h.weapon.strip().lower() for h in unit.active_honours() if h.weapon}
    weapons = [w.strip() for w in unit.wargear.split(",") if w.strip()]
    free = [w for w in weapons if w.lower() not in honoured]
    return rng.choice(free) if free else None


def _model_name(unit: models.Unit) -> str:
    """The model that carries a modified weapon: the unit's leader, as the list names it."""
    first = unit.models_description.split(",")[0].strip()
    return first.split(" ", 1)[1] if " " in first else unit.name


def buy_increase_supply_limit(force: models.CrusadeForce) -> None:
    """1RP for more Supply Limit, between battles."""
    services.increase_supply_limit(actor=force.player, force=force)
