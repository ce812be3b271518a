"""R1 (Order of Battle) and R2 (Crusade cards): creating, adding, editing, removing."""

import pytest
from django.core.exceptions import ValidationError

from campaign import rules, services
from campaign.models import CrusadeForce, HistoryEntry, Unit
from tests.factories import make_campaign, make_force, make_unit, make_user, reload
from tests.services.cards import ASTRA, commissar, dreir, krieg_force, krieg_squad
from tests.services.checks import database_state, latest_history, refused
from tests.services.earned import grant_trait, old_scars, set_rp, set_xp
from tests.services.fights import fight, go_to_battle

pytestmark = pytest.mark.django_db


def krieg_unit(name: str, points: int, **extra) -> services.NewUnit:
    return services.NewUnit(
        name=name,
        datasheet=extra.pop("datasheet", "Death Korps of Krieg"),
        points=points,
        faction_keywords="Imperium, Astra Militarum",
        **extra,
    )


# --------------------------------------------------------------------------- R1.2 create_force


def test_it_starts_a_force_in_a_campaign_with_1000_supply_and_5rp_capped_at_10():
    """R1.2, R1.5: the campaign's house rules, here the rulebook defaults."""
    campaign = make_campaign()
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=campaign)

    force = services.create_force(
        actor=player, player=player, campaign=campaign, name="13th Siege Regiment", faction=ASTRA
    )

    force = reload(force)
    assert (force.supply_limit, force.rp, force.rp_cap) == (1000, 5, 10)
    assert (force.battle_tally, force.victories, force.supply_used) == (0, 0, 0)
    assert force.campaign == campaign


def test_it_starts_a_force_with_the_campaigns_own_house_rules():
    """R1.2 (house): an organiser's numbers replace the rulebook's for new forces."""
    campaign = make_campaign(
        starting_supply_limit=1500, starting_rp=3, rp_cap=8, supply_limit_increase=250
    )

    force = reload(krieg_force(campaign=campaign))

    assert (force.supply_limit, force.rp, force.rp_cap) == (1500, 3, 8)


def test_it_starts_a_force_outside_any_campaign_with_the_rulebook_numbers():
    """R1.2: no campaign, no house rules: 1000 Supply Limit, 5RP, cap 10RP."""
    force = reload(krieg_force())

    assert force.campaign is None
    assert (force.supply_limit, force.rp, force.rp_cap) == (1000, 5, 10)
    assert force.house_rules == rules.DEFAULT_HOUSE_RULES


def test_it_refuses_a_force_in_a_campaign_the_player_has_not_joined():
    """R1: a player joins a campaign before raising a force in it."""
    campaign = make_campaign()
    outsider = make_user()

    with refused("Join the campaign before creating a force in it."):
        services.create_force(
            actor=outsider, player=outsider, campaign=campaign, name="Interlopers", faction=ASTRA
        )
    assert not CrusadeForce.objects.filter(player=outsider).exists()


def test_it_records_the_starting_numbers_in_the_history():
    """Style 4: the force's first history row holds its starting numbers."""
    force = krieg_force()

    entry = latest_history("force_created", force=force)
    assert entry.actor == force.player
    assert entry.changes == {"supply_limit": [None, 1000], "rp": [None, 5]}


# --------------------------------------------------------------------------- R1.3 supply


def test_it_counts_only_active_units_that_count_towards_supply():
    """R1.3: Supply Used sums active units; removed and "not counting" units are left out."""
    force = krieg_force()
    commissar(force)  # 65
    krieg_squad(force, "1st Line Company")  # 70
    gone = krieg_squad(force, "2nd Line Company")  # 70, removed below
    krieg_squad(force, "Conscripts", counts_towards_supply=False)  # 70, not counted
    services.remove_unit(actor=force.player, unit=gone, reason="Wiped out at Vraks")

    assert reload(force).supply_used == 135


def test_it_refuses_a_150_point_unit_when_the_force_has_used_900_of_1000():
    """R1.3 acceptance: refused with 150, 900, 1000 and the 100 points still free."""
    force = krieg_force()
    commissar(force, points=200)
    for n in range(1, 4):
        krieg_squad(force, f"{n}th Line Company", points=200, model_count=20)
    krieg_squad(force, "Grenadiers", points=100)
    assert reload(force).supply_used == 900

    with refused(
        "That needs 150 more points, but only 100 points are left of your 1000-point "
        "Supply Limit (900 used).",
        containing=("150", "900", "1000", "100"),
    ):
        services.add_unit(actor=force.player, force=force, unit=krieg_unit("Death Riders", 150))

    force = reload(force)
    assert (force.supply_used, force.supply_limit, force.units.count()) == (900, 1000, 5)


def test_it_accepts_a_unit_that_exactly_fills_the_supply_limit():
    """R1.3: Supply Used may reach the Supply Limit, just not pass it."""
    force = krieg_force()
    commissar(force, points=900)

    services.add_unit(actor=force.player, force=force, unit=krieg_unit("Death Riders", 100))

    assert reload(force).supply_used == 1000


def test_it_adds_a_unit_that_does_not_count_towards_supply_to_a_full_force():
    """R1.3 decision: a "does not count towards supply" unit fits even at the limit."""
    force = krieg_force()
    commissar(force, points=1000)

    unit = services.add_unit(
        actor=force.player,
        force=force,
        unit=krieg_unit("Penal Legion", 200, counts_towards_supply=False),
    )

    assert reload(unit).is_active
    assert reload(force).supply_used == 1000


# --------------------------------------------------------------------------- R1.4 removal


def test_it_frees_supply_but_keeps_the_limit_the_card_and_its_history_when_removing():
    """R1.4: removal is a status with a date and reason; the Supply Limit stays."""
    force = krieg_force()
    commissar(force)
    squad = krieg_squad(force)
    set_xp(squad, 7)
    grant_trait(squad, "Obdurate Obedience")
    old_scars(squad, "Fatigued")
    history_before = HistoryEntry.objects.filter(unit=squad).count()
    assert reload(force).supply_used == 135

    services.remove_unit(actor=force.player, unit=squad, reason="Lost holding the trench line")

    squad, force = reload(squad), reload(force)
    assert squad.status == Unit.Status.REMOVED
    assert squad.removed_at is not None
    assert squad.removed_reason == "Lost holding the trench line"
    assert (force.supply_used, force.supply_limit) == (65, 1000)
    # The card is still readable: XP, honours, scars and its history stay.
    assert squad.xp == 7
    assert [h.name for h in squad.honours.all()] == ["Obdurate Obedience"]
    assert [s.name for s in squad.scars.all()] == ["Fatigued"]
    assert HistoryEntry.objects.filter(unit=squad).count() == history_before + 1
    entry = latest_history("unit_removed", unit=squad)
    assert entry.reason == "Lost holding the trench line"
    assert entry.changes == {"status": ["active", "removed"], "supply_used": [135, 65]}


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda unit: services.update_unit_details(
                actor=unit.force.player, unit=unit, notes="Back from the dead"
            ),
            id="edit",
        ),
        pytest.param(
            lambda unit: services.remove_unit(actor=unit.force.player, unit=unit, reason="Again"),
            id="remove-again",
        ),
        pytest.param(
            lambda unit: services.fresh_recruits(
                actor=unit.force.player, unit=unit, models_added=5, points=100
            ),
            id="fresh-recruits",
        ),
        pytest.param(
            lambda unit: services.rearm_and_resupply(
                actor=unit.force.player, unit=unit, wargear="Meltaguns", points=80
            ),
            id="rearm",
        ),
    ],
)
def test_it_refuses_to_change_a_removed_unit(change):
    """R1.4: a removed unit can never come back, be edited, or be bought requisitions."""
    force = krieg_force()
    squad = krieg_squad(force)
    services.remove_unit(actor=force.player, unit=squad, reason="Overrun")

    with refused("1st Line Company has been removed from the Order of Battle and cannot change."):
        change(squad)


def test_it_refuses_a_second_active_unit_with_the_same_name():
    """R2.1: a name is unique within the force (whatever its capitals)."""
    force = krieg_force()
    krieg_squad(force, "1st Line Company")

    with refused("13th Siege Regiment already has a unit called 1st line company."):
        services.add_unit(actor=force.player, force=force, unit=krieg_unit("1st line company", 70))


def test_it_lets_a_new_unit_take_the_name_of_a_removed_one():
    """R1.4 decision: the removed card keeps its name; a new card may use it too."""
    force = krieg_force()
    fallen = krieg_squad(force, "1st Line Company")
    services.remove_unit(actor=force.player, unit=fallen, reason="Overrun")

    new = services.add_unit(
        actor=force.player, force=force, unit=krieg_unit("1st Line Company", 70)
    )

    assert new.pk != fallen.pk
    assert set(force.units.values_list("name", "status")) == {
        ("1st Line Company", "removed"),
        ("1st Line Company", "active"),
    }


def test_it_refuses_to_remove_a_unit_fighting_a_battle_not_yet_recorded():
    """R1.4 / R9: the battle's end is recorded for every unit that fought it."""
    force = krieg_force()
    squad = krieg_squad(force)
    go_to_battle([commissar(force), squad])

    with refused("1st Line Company is in a battle that has not been recorded yet."):
        services.remove_unit(actor=force.player, unit=squad, reason="Changed my mind")


# --------------------------------------------------------------------------- R1.5 RP cap


def test_it_trims_rp_above_a_lowered_cap_and_records_it():
    """R1.5 (house): lowering the cap takes RP above it away, with a history row."""
    organiser = make_user()
    campaign = make_campaign(organiser=organiser)
    rich = set_rp(krieg_force(campaign=campaign), 9)
    poor = krieg_force(campaign=campaign, name="Cadian 8th")

    services.set_house_rules(actor=organiser, campaign=campaign, rp_cap=6, reason="Short season")

    rich, poor = reload(rich), reload(poor)
    assert (rich.rp, rich.rp_cap) == (6, 6)
    assert (poor.rp, poor.rp_cap) == (5, 6)
    entry = latest_history("rp_cap_changed", force=rich)
    assert entry.actor == organiser
    assert entry.changes == {"rp": [9, 6], "rp_cap": [10, 6]}
    assert entry.reason == "Short season"
    assert latest_history("rp_cap_changed", force=poor).changes == {"rp_cap": [10, 6]}


def test_it_refuses_an_rp_cap_below_the_starting_rp():
    """R1.5: a new force could never start above the cap."""
    organiser = make_user()
    campaign = make_campaign(organiser=organiser)
    krieg_force(campaign=campaign)

    with refused("Starting RP cannot be above the RP cap."):
        services.set_house_rules(actor=organiser, campaign=campaign, rp_cap=4)


def test_it_refuses_campaign_house_rules_that_start_forces_above_the_rp_cap():
    """R1.5: creating a campaign is refused like set_house_rules is, not a database crash."""
    organiser = make_user()
    before = database_state()

    with pytest.raises(ValidationError) as info:
        services.create_campaign(actor=organiser, name="Overflowing", starting_rp=12, rp_cap=10)

    assert info.value.messages == ["Starting RP cannot be above the RP cap."]
    assert database_state() == before


# --------------------------------------------------------------------------- R2 cards


def test_it_starts_a_new_card_at_zero():
    """R2.4: 0XP, 0 in every tally, 0 Crusade points, no honours or scars."""
    force = krieg_force()

    squad = reload(krieg_squad(force))

    assert (squad.xp, squad.battles_played, squad.battles_survived, squad.units_destroyed) == (
        0,
        0,
        0,
        0,
    )
    assert squad.crusade_points == 0
    assert squad.rank == rules.Rank.BATTLE_READY
    assert (squad.honours.count(), squad.scars.count(), squad.promotions.count()) == (0, 0, 0)
    assert squad.status == Unit.Status.ACTIVE


def test_it_edits_the_free_fields_of_a_card_and_nothing_else():
    """R2.3 decision: the player may edit only the name and narrative notes (and picture)."""
    force = krieg_force()
    squad = krieg_squad(force)
    set_xp(squad, 4)
    before = {k: v for k, v in reload(squad).__dict__.items() if not k.startswith("_")}

    services.update_unit_details(
        actor=force.player, unit=squad, name="Grim Diggers", notes="Held the line at Hive Tertius"
    )

    after = {k: v for k, v in reload(squad).__dict__.items() if not k.startswith("_")}
    changed = {k for k in after if after[k] != before[k]}
    assert changed == {"name", "notes"}
    assert after["name"] == "Grim Diggers"
    assert latest_history("unit_edited", unit=squad).changes["name"] == [
        "1st Line Company",
        "Grim Diggers",
    ]


@pytest.mark.parametrize(
    "locked",
    [
        {"points": 10},
        {"wargear": "Lasguns"},
        {"selectable_keywords": "Regiment: Cadia"},
        {"crusade_rules": "Born Soldiers"},
    ],
    ids=["points", "wargear", "selectable-keywords", "rules-chosen"],
)
def test_it_never_edits_what_the_card_fixed_at_creation_as_free_fields(locked):
    """R2.3: wargear and points change only through Fresh Recruits or Rearm and Resupply;
    the selectable keywords and rules chosen when the card was made never change (an
    organiser may correct them, with a reason)."""
    force = krieg_force()
    squad = krieg_squad(force)
    before = database_state()

    with pytest.raises(ValueError):
        services.update_unit_details(actor=force.player, unit=squad, **locked)

    assert database_state() == before


def test_it_refuses_to_rename_a_card_to_a_name_the_force_already_uses():
    """R2.1: names stay unique within the force when edited, too."""
    force = krieg_force()
    krieg_squad(force, "1st Line Company")
    second = krieg_squad(force, "2nd Line Company")

    with refused("13th Siege Regiment already has a unit called 1st Line Company."):
        services.update_unit_details(actor=force.player, unit=second, name="1st Line Company")


def test_it_shows_no_xp_units_xp_as_not_applicable():
    """R2.6: EPIC HERO, FORTIFICATION and SWARM units show their XP as N/A."""
    force = krieg_force()

    assert dreir(force).xp_display == "N/A"
    assert commissar(force).xp_display == "0"


def test_it_keeps_a_removed_unit_out_of_a_second_battle():
    """R1.4 / R8.3: a unit removed after a battle can't be mustered again."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    fight([leader, squad])
    services.remove_unit(actor=force.player, unit=squad, reason="Disbanded")
    assert reload(squad).battles_played == 1

    battle = services.start_battle(actor=force.player, force=force, battle_size="Incursion")
    with refused("1st Line Company was removed from the Order of Battle."):
        services.muster_army(
            actor=force.player,
            participant=battle.participants.get(),
            faction=ASTRA,
            detachment="Siege Regiment",
            units=[leader, squad],
            warlord=leader,
        )


def test_it_makes_a_force_for_a_player_with_another_faction():
    """R1.1: the faction is free text; the campaign may hold several factions."""
    campaign = make_campaign()
    force = make_force(campaign=campaign, faction="Adeptus Custodes", name="Shield Host")

    assert reload(force).faction == "Adeptus Custodes"


# ----------------------------------------------------- bringing a force into a campaign


def _raised_alone(**extra) -> CrusadeForce:
    """A force its player raised before joining any campaign (rulebook numbers)."""
    return make_force(name="The Ashen Host", **extra)


def test_it_brings_a_force_raised_alone_into_a_campaign_under_its_house_rules():
    """Decision (R1.2, R1.5): a force still being raised starts again from the campaign's
    starting Supply Limit and RP, as if created there, and takes its RP cap."""
    force = _raised_alone()
    make_unit(force, name="Squad Dorn", points=300)
    campaign = make_campaign(starting_supply_limit=1500, starting_rp=3, rp_cap=6)
    services.join_campaign(actor=force.player, user=force.player, campaign=campaign)

    services.bring_force_into_campaign(actor=force.player, force=force, campaign=campaign)

    force = reload(force)
    assert force.campaign == campaign
    assert (force.supply_limit, force.rp, force.rp_cap, force.supply_used) == (1500, 3, 6, 300)
    entry = latest_history("force_joined_campaign", force=force)
    assert entry.summary == f"The Ashen Host joined {campaign.name}"
    assert entry.changes == {
        "campaign": [None, campaign.name],
        "supply_limit": [1000, 1500],
        "rp": [5, 3],
        "rp_cap": [10, 6],
    }
    assert entry.campaign == campaign and entry.actor == force.player


def test_it_brings_the_forces_earlier_history_into_the_campaign_for_its_organisers():
    """Every change keeps a history row the campaign's organisers can see (style rule 4)."""
    force = _raised_alone()
    make_unit(force, name="Squad Dorn")
    campaign = make_campaign()
    services.join_campaign(actor=force.player, user=force.player, campaign=campaign)

    services.bring_force_into_campaign(actor=force.player, force=force, campaign=campaign)

    assert force.history.count() == 3
    assert set(force.history.values_list("campaign", flat=True)) == {campaign.pk}


def test_it_keeps_what_a_force_earned_in_battle_but_loses_rp_above_the_campaigns_cap():
    """Decision (R1.5): a force that has fought keeps its Supply Limit and RP, capped."""
    force = krieg_force()
    captain = commissar(force, "Commissar Raab")
    fight([captain])
    set_rp(force, 9)
    campaign = make_campaign(starting_supply_limit=1500, starting_rp=3, rp_cap=6)
    services.join_campaign(actor=force.player, user=force.player, campaign=campaign)

    services.bring_force_into_campaign(actor=force.player, force=force, campaign=campaign)

    force = reload(force)
    assert (force.supply_limit, force.rp, force.rp_cap, force.battle_tally) == (1000, 6, 6, 1)
    assert latest_history("force_joined_campaign").changes["rp"] == [9, 6]


def test_it_refuses_a_campaign_the_player_has_not_joined():
    force = _raised_alone()
    campaign = make_campaign()

    with refused("Join the campaign before bringing a force into it."):
        services.bring_force_into_campaign(actor=force.player, force=force, campaign=campaign)


def test_it_refuses_a_force_that_is_already_in_a_campaign():
    first, second = make_campaign(name="Vigilus"), make_campaign(name="Pariah Nexus")
    force = make_force(campaign=first, name="The Ashen Host")
    services.join_campaign(actor=force.player, user=force.player, campaign=second)

    with refused("The Ashen Host is already in Vigilus."):
        services.bring_force_into_campaign(actor=force.player, force=force, campaign=second)


def test_it_refuses_a_force_in_a_battle_that_is_not_over():
    force = _raised_alone()
    services.start_battle(actor=force.player, force=force, battle_size="Incursion")
    campaign = make_campaign()
    services.join_campaign(actor=force.player, user=force.player, campaign=campaign)

    with refused(containing=["is in a battle that has not been recorded yet"]):
        services.bring_force_into_campaign(actor=force.player, force=force, campaign=campaign)


def test_it_refuses_units_that_dont_fit_the_campaigns_starting_supply_limit():
    """R1.3: Supply Used may never exceed the Supply Limit, not even on joining."""
    force = _raised_alone()
    make_unit(force, name="Squad Dorn", points=600)
    campaign = make_campaign(starting_supply_limit=500)
    services.join_campaign(actor=force.player, user=force.player, campaign=campaign)

    with refused(containing=["uses 600 points, more than the 500-point Supply Limit"]):
        services.bring_force_into_campaign(actor=force.player, force=force, campaign=campaign)
