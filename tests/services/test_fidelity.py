"""Rules fidelity: each case where the app used to differ from the Crusade rules, checked
through the services (R1.3, R2.1, R2.3, R3.4, R4.4-R4.7, R6.2, R6.6, R8.7, R9)."""

import pytest
from django.core.exceptions import ValidationError

from campaign import rules, services
from campaign.models import BattleUnit, HistoryEntry, Promotion, RequisitionPurchase
from campaign.services import UnitOutcome
from tests.factories import make_character, make_unit, reload
from tests.services.cards import (
    commissar,
    krieg_force,
    krieg_squad,
    leman_russ,
    lord_of_contagion,
    plague_force,
    plague_marines,
)
from tests.services.checks import latest_history, refused
from tests.services.earned import (
    grant_relic,
    grant_weapon_mods,
    old_scars,
    pending_promotion,
    set_xp,
)
from tests.services.fights import fight, go_to_battle

pytestmark = pytest.mark.django_db
Req = rules.Requisition


def hero_with_enhancement(force, *, points=100, enhancement_points=25, **extra):
    return make_character(
        force,
        name="Lord Commissar Vell",
        points=points,
        enhancement="Drill Commander",
        enhancement_points=enhancement_points,
        faction_keywords="Imperium, Astra Militarum",
        **extra,
    )


# --- R1.3 / R2.1 / R6.2: an Enhancement is paid for, and counted --------------------------


def test_it_counts_a_new_characters_enhancement_in_its_points_and_supply():
    """R2.1/R1.3: the unit's points value includes its Enhancement, and so does Supply Used."""
    force = krieg_force()

    hero = hero_with_enhancement(force, points=100, enhancement_points=25)

    assert (hero.points, hero.enhancement, hero.enhancement_points) == (125, "Drill Commander", 25)
    assert reload(force).supply_used == 125


def test_it_refuses_an_enhancement_that_would_break_the_supply_limit():
    """R1.3: 100 points free, a 100-point CHARACTER with a 250-point Enhancement doesn't fit."""
    force = krieg_force()
    make_unit(force, name="Tanks", points=900)

    with refused(containing=["250 more points", "Supply Limit is used up"]):
        hero_with_enhancement(force, points=100, enhancement_points=250)


def test_it_charges_renowned_heroes_for_an_enhancement_while_the_force_is_raised():
    """R6.2: an Enhancement comes only through Renowned Heroes, at its cost."""
    force = krieg_force()

    hero_with_enhancement(force)
    make_character(
        force, name="Commissar Ruhl", enhancement="Grand Strategist", enhancement_points=15
    )

    purchases = list(RequisitionPurchase.objects.order_by("pk").values_list("requisition", "cost"))
    assert purchases == [(Req.RENOWNED_HEROES, 1), (Req.RENOWNED_HEROES, 2)]
    assert reload(force).rp == 5 - 3


def test_it_refuses_an_enhancement_on_a_new_card_once_the_force_has_fought():
    """R6.2: after the force's first battle, an Enhancement comes only at a promotion."""
    force = krieg_force()
    fight([commissar(force, "Commissar Ruhl")])

    with pytest.raises(ValidationError) as refusal:
        hero_with_enhancement(force)

    assert "only for a unit settling a promotion" in " ".join(
        refusal.value.message_dict["enhancement"]
    )


def test_it_musters_an_army_at_the_points_its_enhancements_cost():
    """R8.1: muster totals count the Enhancement."""
    force = krieg_force()
    hero = hero_with_enhancement(force, points=100, enhancement_points=25)

    battle = go_to_battle([hero, krieg_squad(force)])

    assert (
        services.check_army(
            participant=battle.participant(force),
            faction=force.faction,
            units=[reload(hero)],
            warlord=reload(hero),
        ).points
        == 125
    )


# --- R4.6 / R4.7: the Enhancement's weapon -------------------------------------------------


def enhancement_weapon(hero, enhancement: str, weapon: str):
    """Renowned Heroes for ``hero``: an Enhancement that is (or replaces) ``weapon``."""
    return services.renowned_heroes(
        actor=hero.force.player,
        unit=hero,
        enhancement=enhancement,
        enhancement_points=10,
        weapon=weapon,
    )


def test_it_refuses_a_weapon_modification_on_the_enhancement_weapon():
    """R4.6: not a relic or Enhancement weapon."""
    force = krieg_force()
    hero = commissar(force)
    enhancement_weapon(hero, "Blade of the Siege", "Power sword")

    with pytest.raises(ValidationError) as refusal:
        grant_weapon_mods(hero, "Power sword")

    assert refusal.value.message_dict["weapon"] == [
        "Power sword is the unit's Enhancement; pick another weapon."
    ]


def test_it_loses_the_relic_and_modifications_on_the_weapon_an_enhancement_replaces():
    """R4.7: replacing a relic or modified weapon (by an Enhancement) loses them."""
    force = krieg_force()
    hero = commissar(force)
    modified = grant_weapon_mods(hero, "Plasma pistol")
    kept = grant_relic(hero, "Master-crafted Armour")

    enhancement_weapon(hero, "Archeotech Pistol", "plasma pistol")

    assert reload(modified).status == "lost"
    assert reload(kept).status == "active"
    assert latest_history("requisition_renowned_heroes").changes["honours_lost"] == [
        [modified.name],
        [],
    ]


# --- R4.4: Battle Traits from a table that fits --------------------------------------------


def test_it_refuses_a_vehicle_trait_for_an_infantry_squad():
    """R4.4: an INFANTRY unit can't take a VEHICLE trait."""
    squad = krieg_squad(krieg_force())
    promotion = pending_promotion(squad)

    with refused("The Vehicle table doesn't fit 1st Line Company; pick the Infantry table."):
        services.settle_with_battle_trait(
            actor=squad.force.player, promotion=promotion, table="Vehicle", trait="Blessed Hull"
        )


def test_it_offers_only_the_tables_that_fit():
    """R4.4: offer only the tables that fit the unit."""
    force = krieg_force()

    assert list(services.battle_trait_choices(reload(krieg_squad(force)))) == ["Infantry"]
    assert list(services.battle_trait_choices(reload(leman_russ(force, "Lumbering")))) == [
        "Vehicle"
    ]
    assert list(services.battle_trait_choices(reload(commissar(force)))) == [
        "Character",
        "Infantry",
    ]


# --- R4.5 decision: a relic is gated by the rank its promotion reached ----------------------


def test_it_gates_a_relic_by_the_rank_of_the_promotion_it_settles():
    """R4.5 (decision): a unit that jumped to Legendary settles its Heroic promotion at the
    Heroic gate: no Legendary Relic for it, but one for the Legendary promotion."""
    hero = commissar(krieg_force())
    set_xp(hero, 55)
    heroic = pending_promotion(hero, rules.Rank.HEROIC)
    legendary = pending_promotion(hero, rules.Rank.LEGENDARY)

    with refused(containing=["Legendary Relics need Legendary rank", "reaching Heroic"]):
        grant_relic_for(heroic, "Vortex Grenade")
    honour = grant_relic_for(legendary, "Vortex Grenade")

    assert reload(honour).promotion == legendary
    offered = {key for key, _ in services.crusade_relic_choices(reload(hero), rank=heroic.rank)}
    assert "Vortex Grenade" not in offered and "Sigil of Sol" in offered


def grant_relic_for(promotion, relic):
    return services.settle_with_crusade_relic(
        actor=promotion.unit.force.player, promotion=promotion, relic=relic
    )


# --- R3.4: a mission's or Agenda's honour or scar -------------------------------------------


def mission_trait(unit, trait: str, *, reason: str = "Agenda"):
    """A Battle Trait from the Infantry table given by a mission, as its player records it."""
    return services.settle_with_battle_trait(
        actor=unit.force.player, unit=unit, reason=reason, table="Infantry", trait=trait
    )


def test_it_records_a_battle_honour_a_mission_awards_with_its_reason():
    """R3.4: a Battle Honour outside a promotion, with its reason."""
    squad = krieg_squad(krieg_force())

    honour = mission_trait(squad, "Headhunters", reason="Mission: Hold the Line")

    assert honour.promotion is None
    assert reload(squad).crusade_points == 1
    assert latest_history("honour_gained", unit=squad).reason == "Mission: Hold the Line"
    assert not Promotion.objects.exists()


def test_it_needs_a_reason_for_a_missions_honour():
    """R3.4: record it with its reason."""
    squad = krieg_squad(krieg_force())

    with refused(containing=["Say which mission or Agenda awarded it"]):
        mission_trait(squad, "Headhunters", reason=" ")


def test_it_keeps_a_missions_honour_within_the_honour_limit():
    """R3.4 / R4.3: within the caps: at the limit, one honour must be replaced."""
    squad = krieg_squad(krieg_force())
    for trait in ("Headhunters", "Obdurate Obedience", "Resolute Veterans"):
        mission_trait(squad, trait)

    with refused(containing=["already has 3 Battle Honours"]):
        mission_trait(squad, "Vanguard Espionage")


def test_it_inflicts_a_battle_scar_a_mission_gives_with_its_reason():
    """R3.4: a Battle Scar outside an Out of Action test, with its reason."""
    squad = krieg_squad(krieg_force())

    scar = services.inflict_battle_scar(
        actor=squad.force.player, unit=squad, reason="Agenda: Gas Attack", scar_name="Fatigued"
    )

    assert scar.name == "Fatigued"
    assert reload(squad).crusade_points == -1
    assert latest_history("scar_inflicted", unit=squad).reason == "Agenda: Gas Attack"


def test_it_inflicts_no_scar_past_the_most_a_unit_can_bear():
    """R3.4 / R5.3: a unit bears at most 3 Battle Scars."""
    squad = krieg_squad(krieg_force())
    old_scars(squad, "Fatigued", "Deep Scars", "Crippling Damage")

    with refused(containing=["already bears 3 Battle Scars"]):
        services.inflict_battle_scar(actor=squad.force.player, unit=squad, reason="Agenda")


# --- R6.6: Fresh Recruits ----------------------------------------------------------------


def test_it_refuses_fresh_recruits_that_leave_the_points_unchanged():
    """R6.6: points recalculated: more models, more points."""
    squad = krieg_squad(krieg_force())

    with pytest.raises(ValidationError) as refusal:
        services.fresh_recruits(actor=squad.force.player, unit=squad, models_added=2, points=70)

    assert "More models cost more points" in refusal.value.message_dict["points"][0]


def test_it_asks_for_the_datasheet_maximum_when_the_card_has_none():
    """R6.6: up to the datasheet maximum: a card without one must be told it."""
    force = krieg_force()
    squad = make_unit(force, name="Cadians", points=65, model_count=5, is_infantry=True)

    with pytest.raises(ValidationError) as refusal:
        services.fresh_recruits(actor=force.player, unit=squad, models_added=95, points=1300)
    assert "datasheet maximum" in refusal.value.message_dict["max_model_count"][0]

    services.fresh_recruits(
        actor=force.player, unit=squad, models_added=5, points=130, max_model_count=10
    )
    squad = reload(squad)
    assert (squad.model_count, squad.max_model_count, squad.points) == (10, 10, 130)


# --- R8.7: one Leader per Bodyguard ---------------------------------------------------------


def test_it_refuses_a_second_leader_on_one_bodyguard_unless_a_rule_allows_it():
    """R8.7: each Bodyguard unit can have only one Leader (decision: unless the player
    names the datasheet rule that allows a second, shown on the battle page)."""
    force = plague_force()
    first, second = lord_of_contagion(force), lord_of_contagion(force, "Lord of Virulence")
    marines = plague_marines(force)
    battle = services.start_battle(actor=force.player, force=force, battle_size="Incursion")
    participant = battle.participants.get()
    army = {
        "actor": force.player,
        "participant": participant,
        "faction": "Death Guard",
        "detachment": "Plague Company",
        "units": [first, second, marines],
        "warlord": first,
        "attachments": {first.pk: marines.pk, second.pk: marines.pk},
    }

    with pytest.raises(ValidationError) as refusal:
        services.muster_army(**army)
    assert "can have only one Leader" in " ".join(refusal.value.messages)

    services.muster_army(**army, second_leader_rules={marines.pk: "Two Leaders: Plague Lords"})
    entry = BattleUnit.objects.get(participant=participant, unit=marines)
    assert entry.second_leader_rule == "Two Leaders: Plague Lords"


# --- R9: results that agree, and credit for an Attached unit ---------------------------------


def test_it_refuses_two_victors_in_a_two_player_battle():
    """R9: a result that gives two victors is refused."""
    krieg, plague = krieg_force(), plague_force()
    battle = go_to_battle([commissar(krieg)], [lord_of_contagion(plague)], results=["win", "win"])

    with refused(containing=["two sides can't both claim a Victory"]):
        battle.record()


def test_it_credits_an_attached_units_kills_to_one_of_its_two_units():
    """R9: kills and bonus XP of an Attached unit go to the Leader or the Bodyguard."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    battle = go_to_battle(
        [leader, squad],
        attachments={leader: squad},
        outcomes={
            leader: UnitOutcome(enemy_units_destroyed=1),
            squad: UnitOutcome(enemy_units_destroyed=2),
        },
    )

    with refused(containing=["fought as one Attached unit"]):
        battle.record()

    battle.report(leader, UnitOutcome())
    battle.record()
    assert (reload(leader).units_destroyed, reload(squad).units_destroyed) == (0, 2)
    assert HistoryEntry.objects.filter(action="battle_recorded").exists()


def test_it_refuses_the_same_kills_on_both_leaders_of_one_bodyguard():
    """R9 (decision): with two Leaders (R8.7) each occurrence still goes to one unit: the
    battle's kills can't be entered on both Leaders, and nothing is recorded."""
    force = plague_force()
    first, second = lord_of_contagion(force), lord_of_contagion(force, "Lord of Virulence")
    marines = plague_marines(force)
    battle = go_to_battle(
        [first, second, marines],
        attachments={first: marines, second: marines},
        second_leader_rules={marines: "Two Leaders: Plague Lords"},
        outcomes={
            first: UnitOutcome(enemy_units_destroyed=3),
            second: UnitOutcome(enemy_units_destroyed=3),
        },
    )
    second_entry = battle.entry(second)

    with refused(containing=["Lord of Virulence fought as one Attached unit"]) as refusal:
        battle.record()
    assert list(refusal.value.message_dict) == [f"kills_{second_entry.pk}"]

    battle.report(second, UnitOutcome())
    battle.record()
    assert [reload(u).units_destroyed for u in (first, second, marines)] == [3, 0, 0]


def test_it_refuses_one_agenda_on_two_units_but_lets_kills_and_an_agenda_go_to_two():
    """R9 (decision): the kills to one unit and an Agenda's XP to another is allowed; the
    same Agenda on two units of one Attached unit is not."""
    force = plague_force()
    first, second = lord_of_contagion(force), lord_of_contagion(force, "Lord of Virulence")
    marines = plague_marines(force)
    agenda = UnitOutcome(bonus_xp=2, bonus_xp_reason="Agenda: Cull the Horde")
    battle = go_to_battle(
        [first, second, marines],
        attachments={first: marines, second: marines},
        second_leader_rules={marines: "Two Leaders: Plague Lords"},
        outcomes={first: UnitOutcome(enemy_units_destroyed=2), second: agenda, marines: agenda},
    )

    with refused(containing=["the bonus XP for 'Agenda: Cull the Horde' goes"]) as refusal:
        battle.record()
    assert list(refusal.value.message_dict) == [f"bonus_{battle.entry(marines).pk}"]

    battle.report(marines, UnitOutcome())
    battle.record()
    assert [reload(u).xp for u in (first, second, marines)] == [1, 3, 1]
    assert reload(first).units_destroyed == 2
