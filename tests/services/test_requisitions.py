"""R6: Requisitions, their costs, and when they are refused."""

import pytest

from campaign import rules, services
from campaign.models import BattleHonour, RequisitionPurchase
from campaign.services import UnitOutcome
from tests.factories import make_campaign, reload
from tests.services.cards import commissar, dreir, krieg_force, krieg_squad
from tests.services.checks import latest_history, refused
from tests.services.earned import (
    grant_relic,
    grant_traits,
    grant_weapon_mods,
    old_scars,
    pending_promotion,
    renowned_hero,
    set_rp,
    set_xp,
)
from tests.services.fights import fight, go_to_battle

pytestmark = pytest.mark.django_db

Req = rules.Requisition


def player(unit_or_force):
    return getattr(unit_or_force, "player", None) or unit_or_force.force.player


def bought(force) -> list[tuple[str, int]]:
    return list(
        RequisitionPurchase.objects.filter(force=force)
        .order_by("pk")
        .values_list("requisition", "cost")
    )


def rearm(unit, wargear: str, points: int, *replaced_weapons: str) -> RequisitionPurchase:
    """Rearm and Resupply (R6.4), bought by the unit's player."""
    return services.rearm_and_resupply(
        actor=player(unit),
        unit=unit,
        wargear=wargear,
        points=points,
        replaced_weapons=replaced_weapons,
    )


def recruit(unit, models_added: int, points: int, **kwargs) -> RequisitionPurchase:
    """Fresh Recruits (R6.6), bought by the unit's player."""
    return services.fresh_recruits(
        actor=player(unit), unit=unit, models_added=models_added, points=points, **kwargs
    )


# --------------------------------------------------------------------------- R6.1


def test_it_raises_the_supply_limit_by_200_for_1rp():
    """R6.1: Increase Supply Limit, 1RP, +200."""
    force = krieg_force()

    purchase = services.increase_supply_limit(actor=force.player, force=force)

    force = reload(force)
    assert (force.rp, force.supply_limit) == (4, 1200)
    assert bought(force) == [(Req.INCREASE_SUPPLY_LIMIT, 1)]
    assert (purchase.bought_by, purchase.unit) == (force.player, None)
    entry = latest_history("requisition_increase_supply_limit", force=force)
    assert entry.actor == force.player
    assert entry.changes == {"rp": [5, 4], "supply_limit": [1000, 1200]}


def test_it_raises_the_supply_limit_by_the_campaigns_step():
    """R6.1 (house): a campaign may give another step than 200."""
    force = krieg_force(campaign=make_campaign(supply_limit_increase=250))

    services.increase_supply_limit(actor=force.player, force=force)

    assert reload(force).supply_limit == 1250


def test_it_refuses_a_requisition_the_force_cannot_pay_for():
    """R6: RP must cover the cost; nothing is bought, nothing changes."""
    force = set_rp(krieg_force(), 0)

    with refused("That needs 1RP; you have 0RP."):
        services.increase_supply_limit(actor=force.player, force=force)

    assert not RequisitionPurchase.objects.exists()


def test_it_refuses_legendary_veterans_with_2rp():
    """R6.3: 3RP."""
    force = set_rp(krieg_force(), 2)
    squad = krieg_squad(force)
    set_xp(squad, 30)

    with refused("That needs 3RP; you have 2RP."):
        services.legendary_veterans(actor=force.player, unit=squad)


@pytest.mark.parametrize(
    "buy",
    [
        pytest.param(
            lambda force, squad: services.increase_supply_limit(actor=force.player, force=force),
            id="increase-supply-limit",
        ),
        pytest.param(
            lambda force, squad: recruit(squad, 5, 110),
            id="fresh-recruits",
        ),
        pytest.param(
            lambda force, squad: rearm(squad, "Lasguns, meltagun", 75),
            id="rearm-and-resupply",
        ),
    ],
)
def test_it_refuses_requisitions_while_the_force_is_in_a_battle(buy):
    """R6: never between a battle's start and its end."""
    force = krieg_force()
    squad = krieg_squad(force)
    services.start_battle(actor=force.player, force=force, battle_size="Incursion")

    with refused("Requisitions can't be bought while a battle is being fought."):
        buy(force, squad)


# --------------------------------------------------------------------------- R6.2


def test_it_gives_an_enhancement_to_a_character_while_the_force_is_raised():
    """R6.2: 1RP with no other Enhancement; points recalculated."""
    force = krieg_force()
    leader = commissar(force)

    renowned_hero(leader)

    leader = reload(leader)
    assert (leader.enhancement, leader.enhancement_points, leader.points) == (
        "Drill Commander",
        20,
        85,
    )
    assert reload(force).rp == 4
    assert reload(force).supply_used == 85
    assert bought(force) == [(Req.RENOWNED_HEROES, 1)]


@pytest.mark.parametrize(
    ("others", "cost"),
    [
        pytest.param(1, 2, id="one-other-enhancement-2rp"),
        pytest.param(3, 3, id="three-others-at-most-3rp"),
    ],
)
def test_it_charges_renowned_heroes_1rp_plus_1_per_other_enhancement_up_to_3rp(others, cost):
    """R6.2 worked cost: one other Enhancement present = 2RP; at most 3RP (three others
    would make 4)."""
    force = set_rp(krieg_force(), 10)
    for name in ("Commissar Ruhl", "Commissar Stahl", "Commissar Brandt")[:others]:
        commissar(force, name, enhancement="Grand Strategist", enhancement_points=15)
    leader = commissar(force)

    renowned_hero(leader)

    # The other CHARACTERS bought their Enhancements while the force was raised (R6.2).
    earlier = [(Req.RENOWNED_HEROES, min(1 + n, 3)) for n in range(others)]
    assert bought(force) == [*earlier, (Req.RENOWNED_HEROES, cost)]
    assert reload(force).rp == 10 - cost - sum(c for _, c in earlier)


@pytest.mark.parametrize(
    ("buy", "needed"),
    [
        pytest.param(lambda leader, squad: renowned_hero(leader), 20, id="R6.2-renowned-heroes"),
        pytest.param(
            lambda leader, squad: rearm(squad, "Heavy", 110),
            20,
            id="R6.4-rearm-and-resupply",
        ),
        pytest.param(
            lambda leader, squad: recruit(squad, 10, 145),
            55,
            id="R6.6-fresh-recruits",
        ),
    ],
)
def test_it_refuses_a_requisition_whose_new_points_pass_the_supply_limit(buy, needed):
    """R6.2 / R6.4 / R6.6 / R1.3: the unit's new points must fit in the Supply Limit."""
    force = krieg_force()
    leader = commissar(force, points=900)
    squad = krieg_squad(force, points=90)

    with refused(
        f"That needs {needed} more points, but only 10 points are left of your 1000-point "
        "Supply Limit (990 used)."
    ):
        buy(leader, squad)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda force: krieg_squad(force),
            "Only a CHARACTER can take an Enhancement; 1st Line Company is not one.",
        ),
        (
            lambda force: dreir(force),
            "Lord Marshal Dreir is an EPIC HERO and can't take an Enhancement.",
        ),
        (
            lambda force: commissar(force, enhancement="Grand Strategist", enhancement_points=15),
            "Lord Commissar Vell already has an Enhancement.",
        ),
    ],
    ids=["not-a-character", "epic-hero", "already-enhanced"],
)
def test_it_gives_enhancements_only_to_characters_that_may_take_one(make, message):
    """R6.2: a CHARACTER, not an EPIC HERO, without an Enhancement."""
    force = krieg_force()
    unit = make(force)

    with refused(message):
        renowned_hero(unit)


def test_it_refuses_renowned_heroes_for_a_disgraced_character():
    """R6.2: not a unit with Disgraced or Mark of Shame."""
    force = krieg_force()
    leader = commissar(force)
    old_scars(leader, "Disgraced")

    with refused("Lord Commissar Vell bears Disgraced or Mark of Shame."):
        renowned_hero(leader)


def test_it_refuses_renowned_heroes_after_the_first_battle_without_a_promotion():
    """R6.2: at the force's start, or instead of a promotion's honour."""
    force = krieg_force()
    leader = commissar(force)
    fight([leader])

    with refused(
        "Renowned Heroes is only for a unit settling a promotion "
        "(instead of its Battle Honour) or while the force is first being raised."
    ):
        renowned_hero(leader)


def test_it_settles_a_promotion_with_renowned_heroes():
    """R3.7 / R6.2: the Enhancement replaces the promotion's Battle Honour."""
    force = krieg_force()
    leader = commissar(force)
    set_xp(leader, 5)
    fight([leader], outcomes={leader: UnitOutcome(marked_for_greatness=True)})
    promotion = reload(leader).promotions.get()

    renowned_hero(leader, promotion=promotion)

    promotion = reload(promotion)
    assert (promotion.status, promotion.settled_by, promotion.settled_with) == (
        "settled",
        rules.PromotionReward.RENOWNED_HEROES,
        "Drill Commander",
    )
    assert not reload(leader).honours.exists()
    assert reload(leader).enhancement == "Drill Commander"
    assert reload(force).rp == 5  # 5 + 1 for the battle - 1


# --------------------------------------------------------------------------- R6.3


def test_it_makes_a_30xp_unit_legendary_veterans_for_3rp():
    """R6.3: 3RP; no more XP cap, 6 honours."""
    force = krieg_force()
    squad = krieg_squad(force)
    set_xp(squad, 30)

    services.legendary_veterans(actor=force.player, unit=squad)

    assert reload(squad).legendary_veteran
    assert reload(force).rp == 2
    assert bought(force) == [(Req.LEGENDARY_VETERANS, 3)]
    assert latest_history("requisition_legendary_veterans", unit=squad).changes == {
        "rp": [5, 2],
        "legendary_veteran": [False, True],
    }


def test_it_refuses_legendary_veterans_below_30xp():
    squad = krieg_squad(krieg_force())
    set_xp(squad, 29)

    with refused("1st Line Company needs 30XP for Legendary Veterans; it has 29XP."):
        services.legendary_veterans(actor=player(squad), unit=squad)


def test_it_refuses_legendary_veterans_for_a_character():
    leader = commissar(krieg_force())
    set_xp(leader, 30)

    with refused("Lord Commissar Vell is a CHARACTER and has no XP cap to lift."):
        services.legendary_veterans(actor=player(leader), unit=leader)


# --------------------------------------------------------------------------- R6.4


def test_it_rearms_a_unit_within_the_supply_limit():
    """R6.4: 1RP; new wargear and points."""
    force = krieg_force()
    squad = krieg_squad(force)

    rearm(squad, "Lasguns, 2 meltaguns, vox-caster", 85)

    squad = reload(squad)
    assert (squad.wargear, squad.points) == ("Lasguns, 2 meltaguns, vox-caster", 85)
    assert reload(force).rp == 4
    assert reload(force).supply_used == 85


def test_it_loses_weapon_modifications_and_relics_on_replaced_weapons():
    """R4.7: replacing a modified or relic weapon loses those honours; others stay."""
    force = krieg_force()
    squad = krieg_squad(force)
    longlas = grant_weapon_mods(squad, "Long-las")
    chainsword = grant_weapon_mods(squad, "Chainsword", ("Heirloom", "Brutal"))
    leader = commissar(force)
    fist = grant_relic(leader, "Artificer Weapon", weapon="Power fist")
    assert reload(squad).crusade_points == 2

    rearm(squad, "Lasguns, plasma gun, chainsword", 75, "long-las")
    set_rp(force, 5)
    rearm(leader, "Laspistol, plasma pistol, power sword", 65, "Power fist")

    longlas, chainsword, fist = reload(longlas), reload(chainsword), reload(fist)
    assert (longlas.status, longlas.lost_reason) == (
        BattleHonour.Status.LOST,
        "Long-las replaced by Rearm and Resupply",
    )
    assert chainsword.status == BattleHonour.Status.ACTIVE
    assert (fist.status, fist.lost_reason) == (
        BattleHonour.Status.LOST,
        "Power fist replaced by Rearm and Resupply",
    )
    assert (reload(squad).crusade_points, reload(leader).crusade_points) == (1, 0)
    assert latest_history("requisition_rearm_and_resupply", unit=squad).changes["honours_lost"] == [
        ["Long-las: Brutal and Precise"],
        [],
    ]


# --------------------------------------------------------------------------- R6.5


def test_it_repairs_a_scar_for_1rp_plus_1_per_honour():
    """R6.5 worked cost: 3 honours = 4RP; the scar goes, +1 Crusade point."""
    force = krieg_force()
    squad = krieg_squad(force)
    grant_traits(squad, 3)
    (scar,) = old_scars(squad, "Crippling Damage")
    assert reload(squad).crusade_points == 2

    services.repair_and_recuperate(actor=force.player, unit=squad, scar=scar)

    scar = reload(scar)
    assert scar.status == "repaired"
    assert scar.removed_at is not None
    assert reload(squad).crusade_points == 3
    assert bought(force) == [(Req.REPAIR_AND_RECUPERATE, 4)]
    assert reload(force).rp == 1


def test_it_refuses_repair_for_a_unit_without_scars():
    squad = krieg_squad(krieg_force())

    with refused("1st Line Company has no Battle Scar to remove."):
        services.repair_and_recuperate(actor=player(squad), unit=squad, scar=None)


def test_it_refuses_to_repair_another_units_scar():
    force = krieg_force()
    squad, other = krieg_squad(force), krieg_squad(force, "2nd Line Company")
    old_scars(squad, "Fatigued")
    (theirs,) = old_scars(other, "Deep Scars")

    with refused("1st Line Company does not bear that Battle Scar."):
        services.repair_and_recuperate(actor=force.player, unit=squad, scar=theirs)


# --------------------------------------------------------------------------- R6.6


@pytest.mark.parametrize(("honours", "cost"), [(0, 1), (3, 3), (6, 4)])
def test_it_charges_fresh_recruits_1rp_plus_1_per_2_honours(honours, cost):
    """R6.6 worked costs: 0 honours = 1RP, 3 = 3RP, 6 = 4RP."""
    force = krieg_force()
    squad = krieg_squad(force)
    if honours > 3:
        set_xp(squad, 30)
        services.correct_unit(
            actor=force.player,
            unit=squad,
            reason="Legendary in the last campaign",
            legendary_veteran=True,
        )
    grant_traits(squad, honours)

    recruit(squad, 10, 145, models_description="2 Watchmasters, 18 Troopers")

    squad = reload(squad)
    assert (squad.model_count, squad.points, squad.models_description) == (
        20,
        145,
        "2 Watchmasters, 18 Troopers",
    )
    assert bought(force) == [(Req.FRESH_RECRUITS, cost)]
    assert reload(force).rp == 5 - cost
    assert latest_history("requisition_fresh_recruits", unit=squad).changes == {
        "rp": [5, 5 - cost],
        "model_count": [10, 20],
        "points": [70, 145],
        "models_description": ["1 Watchmaster, 9 Troopers", "2 Watchmasters, 18 Troopers"],
    }


def test_it_refuses_fresh_recruits_beyond_the_datasheet_maximum():
    squad = krieg_squad(krieg_force())

    with refused("1st Line Company can have at most 20 models; it has 10, so at most 10 can join."):
        recruit(squad, 11, 160)


def test_it_accepts_fresh_recruits_that_exactly_fill_the_supply_limit():
    force = krieg_force()
    commissar(force, points=855)
    squad = krieg_squad(force, points=70)

    recruit(squad, 10, 145)

    assert reload(force).supply_used == 1000


# --------------------------------------------------------------------------- options


def test_it_lists_the_force_requisitions_with_costs_and_reasons():
    force = set_rp(krieg_force(), 0)

    (option,) = services.requisition_options(reload(force))

    assert (option.requisition, option.cost, option.available) == (
        Req.INCREASE_SUPPLY_LIMIT,
        1,
        False,
    )
    assert option.refusals == ("That needs 1RP; you have 0RP.",)


def test_it_lists_a_units_requisitions_with_costs_and_reasons():
    """R6: each option's cost now and every reason it can't be bought."""
    force = krieg_force()
    squad = krieg_squad(force)
    grant_traits(squad, 3)

    options = {o.requisition: o for o in services.requisition_options(force, unit=squad)}

    assert {req: o.cost for req, o in options.items()} == {
        Req.RENOWNED_HEROES: 1,
        Req.LEGENDARY_VETERANS: 3,
        Req.REARM_AND_RESUPPLY: 1,
        Req.REPAIR_AND_RECUPERATE: 4,
        Req.FRESH_RECRUITS: 3,
    }
    assert options[Req.REARM_AND_RESUPPLY].available
    assert options[Req.FRESH_RECRUITS].available
    assert options[Req.REPAIR_AND_RECUPERATE].refusals == (
        "1st Line Company has no Battle Scar to remove.",
    )
    assert options[Req.LEGENDARY_VETERANS].refusals == (
        "1st Line Company needs 30XP for Legendary Veterans; it has 0XP.",
    )
    assert "Only a CHARACTER can take an Enhancement; 1st Line Company is not one." in (
        options[Req.RENOWNED_HEROES].refusals
    )


def test_it_lists_every_requisition_as_unavailable_during_a_battle():
    force = krieg_force()
    leader = commissar(force)
    go_to_battle([leader])

    options = services.requisition_options(reload(force), unit=leader)

    assert all(
        "Requisitions can't be bought while a battle is being fought." in o.refusals
        for o in options
    )


def test_it_refuses_a_requisition_for_a_promotion_that_is_not_pending():
    force = krieg_force()
    leader = commissar(force)
    other = commissar(force, "Commissar Ruhl")
    promotion = pending_promotion(other)

    with refused("That promotion is not waiting to be settled."):
        renowned_hero(leader, promotion=promotion)


def test_it_charges_at_most_5rp_for_repair_and_recuperate():
    """R6.5: 1RP + 1 per honour, max 5RP (a CHARACTER with 6 honours would make 7)."""
    force = set_rp(krieg_force(), 10)
    leader = commissar(force)
    grant_traits(leader, 6)
    (scar,) = old_scars(leader, "Fatigued")

    services.repair_and_recuperate(actor=force.player, unit=leader, scar=scar)

    assert bought(force) == [(Req.REPAIR_AND_RECUPERATE, 5)]
    assert reload(force).rp == 5
