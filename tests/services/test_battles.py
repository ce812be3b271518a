"""R3 (experience), R8 (mustering) and R9 (recording the end of a battle)."""

import pytest

from campaign import rules, services
from campaign.models import (
    Battle,
    BattleParticipant,
    BattleUnit,
    HistoryEntry,
    OutOfActionTest,
    Promotion,
)
from campaign.services import UnitOutcome
from tests.factories import make_battle, make_campaign, reload
from tests.services.cards import (
    ASTRA,
    chimera,
    commissar,
    dreir,
    krieg_force,
    krieg_squad,
    leman_russ,
    lord_of_contagion,
    no_xp_unit,
    plague_force,
    plague_marines,
)
from tests.services.checks import database_state, refused
from tests.services.earned import old_scars, pending_promotion, set_rp, set_xp
from tests.services.fights import fight, go_to_battle

pytestmark = pytest.mark.django_db


def muster(battle: Battle, force, units, *, warlord=None, faction=None, **kwargs):
    participant = battle.participants.get(force=force)
    return services.muster_army(
        actor=force.player,
        participant=participant,
        faction=faction or force.faction,
        detachment="Combined Arms",
        units=units,
        warlord=warlord,
        **kwargs,
    )


def open_battle(force, size="Incursion") -> Battle:
    return services.start_battle(actor=force.player, force=force, battle_size=size)


# --------------------------------------------------------------------------- R3 experience


def test_it_gives_every_unit_in_the_army_1xp_and_nothing_to_units_left_at_home():
    """R3.1: Battle Experience for each unit that was in the Crusade army."""
    force = krieg_force()
    leader, squad, reserve = commissar(force), krieg_squad(force), krieg_squad(force, "Reserve")

    fight([leader, squad])

    assert (reload(leader).xp, reload(squad).xp, reload(reserve).xp) == (1, 1, 0)
    assert reload(reserve).battles_played == 0


@pytest.mark.parametrize(
    ("kills", "xp_gained"),
    [(1, 2), (2, 2), (5, 3)],
    ids=["2-to-3", "2-to-4", "2-to-7"],
)
def test_it_gives_dealers_of_death_xp_for_each_new_multiple_of_3(kills, xp_gained):
    """R3.2: a Units Destroyed tally going 2 -> 4 gives 1XP more; 2 -> 7 gives 2XP more
    (on top of the 1XP Battle Experience)."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    services.correct_unit(
        actor=force.player, unit=squad, reason="Kills from the paper roster", units_destroyed=2
    )

    fight([leader, squad], outcomes={squad: UnitOutcome(enemy_units_destroyed=kills)})

    squad = reload(squad)
    assert squad.units_destroyed == 2 + kills
    assert squad.xp == xp_gained


def test_it_gives_3xp_to_the_unit_marked_for_greatness():
    """R3.3: Marked for Greatness adds 3XP on top of Battle Experience."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)

    fight([leader, squad], outcomes={squad: UnitOutcome(marked_for_greatness=True)})

    assert (reload(leader).xp, reload(squad).xp) == (1, 4)


def test_it_refuses_a_second_unit_marked_for_greatness_in_the_same_force():
    """R3.3: the player picks one unit per battle."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    battle = go_to_battle(
        [leader, squad],
        outcomes={
            leader: UnitOutcome(marked_for_greatness=True),
            squad: UnitOutcome(marked_for_greatness=True),
        },
    )

    with refused("13th Siege Regiment can Mark only one unit for Greatness."):
        battle.record()


def test_it_lets_each_force_mark_its_own_unit_for_greatness():
    """R3.3: one unit per force, so two forces mark one each."""
    krieg, plague = krieg_force(), plague_force()
    vell, lord = commissar(krieg), lord_of_contagion(plague)

    fight(
        [vell],
        [lord],
        outcomes={
            vell: UnitOutcome(marked_for_greatness=True),
            lord: UnitOutcome(marked_for_greatness=True),
        },
    )

    assert (reload(vell).xp, reload(lord).xp) == (4, 4)


def test_it_refuses_to_mark_a_no_xp_unit_for_greatness():
    """R3.3 / R2.6: an EPIC HERO never gains XP, so it can't be Marked."""
    force = krieg_force()
    marshal = dreir(force)
    battle = go_to_battle([marshal], outcomes={marshal: UnitOutcome(marked_for_greatness=True)})

    with refused("Lord Marshal Dreir never gains XP, so it can't be Marked for Greatness."):
        battle.record()


@pytest.mark.parametrize("scar", ["Disgraced", "Mark of Shame"])
def test_it_refuses_to_mark_a_shamed_unit_for_greatness(scar):
    """R3.3: not a unit with the Disgraced or Mark of Shame scar."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    old_scars(squad, scar)
    battle = go_to_battle([leader, squad], outcomes={squad: UnitOutcome(marked_for_greatness=True)})

    with refused(
        "1st Line Company bears Disgraced or Mark of Shame, so it can't be Marked for Greatness."
    ):
        battle.record()


def test_it_refuses_bonus_xp_without_a_reason():
    """R3.4: bonus XP (agendas, mission rewards) is recorded with a reason."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    battle = go_to_battle([leader, squad], outcomes={squad: UnitOutcome(bonus_xp=2)})

    with refused("Say why 1st Line Company earned bonus XP."):
        battle.record()


def test_it_gives_bonus_xp_with_its_reason():
    """R3.4: the reason is kept on the battle entry and in the history."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)

    done = fight(
        [leader, squad],
        outcomes={squad: UnitOutcome(bonus_xp=2, bonus_xp_reason="Agenda: Hold the Line")},
    )

    assert reload(squad).xp == 3
    entry = done.entry(squad)
    assert (entry.bonus_xp, entry.bonus_xp_reason) == (2, "Agenda: Hold the Line")
    assert (entry.xp_before, entry.xp_after) == (0, 3)
    history = HistoryEntry.objects.get(action="unit_battle_recorded", unit=squad)
    assert history.reason == "Agenda: Hold the Line"
    assert history.changes["xp"] == [0, 3]


def test_it_caps_a_non_character_at_30xp_and_loses_the_rest():
    """R3.6: XP beyond 30 is lost for a unit that is not a CHARACTER."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    set_xp(squad, 28)

    fight([leader, squad], outcomes={squad: UnitOutcome(marked_for_greatness=True)})

    squad = reload(squad)
    assert squad.xp == 30
    assert squad.rank == rules.Rank.BATTLE_HARDENED
    assert not squad.promotions.exists()


def test_it_never_caps_a_characters_xp():
    """R3.6: a CHARACTER passes 30XP and reaches Heroic, earning a promotion."""
    force = krieg_force()
    leader = commissar(force)
    set_xp(leader, 29)

    fight([leader], outcomes={leader: UnitOutcome(marked_for_greatness=True)})

    leader = reload(leader)
    assert leader.xp == 33
    assert list(leader.promotions.values_list("rank", "status")) == [
        (rules.Rank.HEROIC, Promotion.Status.PENDING)
    ]


def test_it_lifts_the_30xp_cap_for_legendary_veterans():
    """R3.6 / R6.3: after Legendary Veterans a unit goes past 30XP and ranks up."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    set_xp(squad, 30)
    services.legendary_veterans(actor=force.player, unit=squad)

    fight([leader, squad], outcomes={squad: UnitOutcome(marked_for_greatness=True)})

    squad = reload(squad)
    assert squad.xp == 34
    assert squad.rank == rules.Rank.HEROIC
    assert list(squad.promotions.values_list("rank", flat=True)) == [rules.Rank.HEROIC]


def test_it_queues_one_promotion_for_each_rank_gained():
    """R3.7: jumping from Battle-ready to Battle-hardened earns two promotions."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    set_xp(squad, 5)

    done = fight(
        [leader, squad],
        outcomes={
            squad: UnitOutcome(
                marked_for_greatness=True, bonus_xp=7, bonus_xp_reason="Mission: Take the Relic"
            )
        },
    )

    squad = reload(squad)
    assert squad.xp == 16
    promotions = list(squad.promotions.order_by("rank"))
    assert [(p.rank, p.status, p.battle_id) for p in promotions] == [
        (rules.Rank.BLOODED, Promotion.Status.PENDING, done.battle.pk),
        (rules.Rank.BATTLE_HARDENED, Promotion.Status.PENDING, done.battle.pk),
    ]
    assert done.entry(squad).promotions_earned == 2


@pytest.mark.parametrize(
    ("before", "message"),
    [
        pytest.param(
            lambda force, leader, squad: pending_promotion(squad),
            "1st Line Company has a promotion, scar or honour to settle before it can fight.",
            id="R3.7-pending-promotion",
        ),
        pytest.param(
            lambda force, leader, squad: fight(
                [leader, squad], outcomes={squad: UnitOutcome(destroyed=True)}
            ),
            "1st Line Company has a promotion, scar or honour to settle before it can fight.",
            id="R3.7-pending-out-of-action-test",
        ),
        pytest.param(
            lambda force, leader, squad: services.remove_unit(
                actor=force.player, unit=squad, reason="Disbanded"
            ),
            "1st Line Company was removed from the Order of Battle.",
            id="R8.3-removed",
        ),
    ],
)
def test_it_refuses_to_muster_a_unit_that_is_not_free_to_fight(before, message):
    """R3.7 decision: a promotion or a destroyed unit's Out of Action test is settled
    before the unit fights again. R8.3: only units on the Order of Battle join the army."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    before(force, leader, squad)
    battle = open_battle(force)

    with refused(message):
        muster(battle, force, [leader, squad], warlord=leader)


@pytest.mark.parametrize("keyword", ["EPIC HERO", "FORTIFICATION", "SWARM"])
def test_it_never_gives_xp_to_a_no_xp_unit_and_passes_its_out_of_action_test(keyword):
    """R2.6: no XP, even with kills and bonus XP; Out of Action is passed automatically."""
    force = plague_force()
    lord = lord_of_contagion(force)
    unit = no_xp_unit(force, keyword)

    done = fight(
        [lord, unit],
        outcomes={
            unit: UnitOutcome(
                destroyed=True,
                enemy_units_destroyed=3,
                bonus_xp=2,
                bonus_xp_reason="Agenda: Spread the Sickness",
            )
        },
    )

    unit = reload(unit)
    assert unit.xp == 0
    assert unit.xp_display == "N/A"
    assert (unit.battles_played, unit.battles_survived, unit.units_destroyed) == (1, 0, 3)
    assert not unit.promotions.exists()
    test = done.test_for(unit)
    assert (test.status, test.outcome) == (OutOfActionTest.Status.DONE, "passed")
    assert test.resolved_at is not None
    assert not unit.scars.exists()


# --------------------------------------------------------------------------- R8 muster


def test_it_refuses_to_start_a_battle_for_a_force_already_in_one():
    """R8 / R6: a force fights one battle at a time."""
    force = krieg_force()
    open_battle(force)

    with refused("13th Siege Regiment is already in a battle that has not been recorded."):
        open_battle(force)

    assert Battle.objects.count() == 1


def test_it_refuses_an_army_over_the_battle_size_with_the_numbers():
    """R8.1: Incursion is 1000 points."""
    force = krieg_force()
    services.increase_supply_limit(actor=force.player, force=force)
    leader = commissar(force, points=160)
    tanks = [leman_russ(force, f"Steel {n}", points=235) for n in range(1, 4)]
    squad = krieg_squad(force)
    assert sum(u.points for u in [leader, *tanks, squad]) == 935
    extra = krieg_squad(force, "2nd Line Company", points=165, model_count=20)
    battle = open_battle(force)

    with refused("The army is 1100 points, 100 over the 1000-point Incursion limit."):
        muster(battle, force, [leader, *tanks, squad, extra], warlord=leader)

    report = muster(battle, force, [leader, *tanks, squad], warlord=leader)
    assert (report.points, report.limit) == (935, 1000)


def test_it_refuses_a_unit_without_the_armys_faction_keyword():
    """R8.2 / R8.3: every unit has the chosen Faction keyword."""
    force = krieg_force()
    leader = commissar(force)
    ally = krieg_squad(force, "Tempestus Scions", faction_keywords="Imperium, Militarum Tempestus")
    battle = open_battle(force)

    with refused("Tempestus Scions doesn't have the Astra Militarum Faction keyword."):
        muster(battle, force, [leader, ally], warlord=leader)


@pytest.mark.parametrize(
    ("army", "warlord", "message"),
    [
        pytest.param(
            ["squad"],
            None,
            "The army needs at least one CHARACTER unit. Pick a Warlord.",
            id="R8.4-no-character",
        ),
        pytest.param(
            ["leader", "squad"],
            "squad",
            "1st Line Company can't be the Warlord: only a CHARACTER can.",
            id="R8.5-warlord-not-a-character",
        ),
        pytest.param(
            ["leader", "squad"],
            "absent",
            "The Warlord must be one of the army's units.",
            id="R8.5-warlord-not-in-the-army",
        ),
    ],
)
def test_it_refuses_an_army_without_a_character_of_its_own_as_warlord(army, warlord, message):
    """R8.4: at least one CHARACTER. R8.5: the Warlord is a CHARACTER of the army."""
    force = krieg_force()
    units = {
        "leader": commissar(force),
        "squad": krieg_squad(force),
        "absent": commissar(force, "Absent"),
    }
    battle = open_battle(force)

    with refused(message):
        muster(battle, force, [units[name] for name in army], warlord=units.get(warlord))


@pytest.mark.parametrize(
    ("card", "points", "allowed", "message"),
    [
        pytest.param(
            leman_russ,
            150,
            3,
            "4 units of Leman Russ Battle Tank: at most 3 are allowed.",
            id="3-of-a-datasheet",
        ),
        pytest.param(
            krieg_squad,
            60,
            6,
            "7 units of Death Korps of Krieg: at most 6 are allowed.",
            id="6-of-a-battleline-datasheet",
        ),
    ],
)
def test_it_refuses_one_unit_of_a_datasheet_too_many(card, points, allowed, message):
    """R8.3: at most 3 units of one datasheet, 6 for BATTLELINE."""
    force = krieg_force()
    leader = commissar(force)
    units = [card(force, f"Company {n}", points=points) for n in range(allowed + 1)]
    battle = open_battle(force)

    with refused(message):
        muster(battle, force, [leader, *units], warlord=leader)

    assert muster(battle, force, [leader, *units[:allowed]], warlord=leader).ok
    assert BattleUnit.objects.filter(participant__battle=battle).count() == allowed + 1


def test_it_refuses_the_same_epic_hero_twice():
    """R8.4: the same EPIC HERO at most once."""
    force = krieg_force()
    marshal = dreir(force)
    double = dreir(force, name="Lord Marshal Dreir (body double)")
    battle = open_battle(force)

    with refused("Lord Marshal Dreir is an EPIC HERO and can be taken only once."):
        muster(battle, force, [marshal, double], warlord=marshal)


def test_it_warns_but_musters_an_empty_dedicated_transport():
    """R8.6: an empty DEDICATED TRANSPORT counts as destroyed in round one: warn, don't refuse."""
    force = krieg_force()
    leader, transport = commissar(force), chimera(force)
    battle = open_battle(force)

    report = muster(battle, force, [leader, transport], warlord=leader)

    assert report.ok
    assert report.warnings == (
        "Chimera starts empty, so it counts as destroyed in the first battle round.",
    )
    participant = battle.participants.get()
    assert participant.mustered
    assert participant.army.count() == 2


def test_it_stores_which_unit_starts_embarked_in_a_transport():
    """R8.6: a transport with a unit inside raises no warning."""
    force = krieg_force()
    leader, squad, transport = commissar(force), krieg_squad(force), chimera(force)
    battle = open_battle(force)

    report = muster(
        battle, force, [leader, squad, transport], warlord=leader, embarked={squad.pk: transport.pk}
    )

    assert report.warnings == ()
    entry = BattleUnit.objects.get(participant__battle=battle, unit=squad)
    assert entry.embarked_in.unit == transport


def test_it_stores_a_leader_attached_to_its_bodyguard():
    """R8.7: a Leader attaches to a Bodyguard unit for the battle."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    battle = open_battle(force)

    muster(battle, force, [leader, squad], warlord=leader, attachments={leader.pk: squad.pk})

    entry = BattleUnit.objects.get(participant__battle=battle, unit=leader)
    assert entry.attached_to.unit == squad
    assert BattleUnit.objects.get(participant__battle=battle, unit=squad).attached_to is None


@pytest.mark.parametrize("who", ["bodyguard", "leader"])
def test_it_refuses_an_attached_unit_formed_with_a_mark_of_shame(who):
    """R8.7 / R5.4: a unit with Mark of Shame cannot form an Attached unit."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    shamed = squad if who == "bodyguard" else leader
    old_scars(shamed, "Mark of Shame")
    battle = open_battle(force)

    with refused(containing=[shamed.name]):
        muster(battle, force, [leader, squad], warlord=leader, attachments={leader.pk: squad.pk})

    assert muster(battle, force, [leader, squad], warlord=leader).ok


def test_it_refuses_a_leader_attachment_for_a_leader_left_out_of_the_army():
    """R8.7: attachments name units of the army; a leader left at home is a refusal."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    home = commissar(force, "Commissar Left Behind")
    battle = open_battle(force)

    with refused(containing=["Commissar Left Behind"]):
        muster(battle, force, [leader, squad], warlord=leader, attachments={home.pk: squad.pk})


def test_it_refuses_a_unit_embarked_in_a_transport_left_out_of_the_army():
    """R8.6: the transport a unit starts in is part of the army."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    transport = chimera(force)
    battle = open_battle(force)

    with refused(containing=["Chimera"]):
        muster(battle, force, [leader, squad], warlord=leader, embarked={squad.pk: transport.pk})


def test_it_replaces_the_army_when_mustering_again():
    """R8: mustering again replaces the earlier choice."""
    force = krieg_force()
    leader, first, second = commissar(force), krieg_squad(force), krieg_squad(force, "2nd Company")
    battle = open_battle(force)
    muster(battle, force, [leader, first], warlord=leader)

    muster(battle, force, [leader, second], warlord=leader)

    participant = battle.participants.get()
    assert {e.unit for e in participant.army.all()} == {leader, second}
    assert participant.warlord == leader
    assert HistoryEntry.objects.filter(action="army_mustered", battle=battle).count() == 2


def test_it_checks_the_battle_size_not_the_supply_limit():
    """R1.6: a 1500-point force musters 1000 points for an Incursion, but not 1100."""
    campaign = make_campaign(starting_supply_limit=1500)
    force = krieg_force(campaign=campaign)
    leader = commissar(force, points=100)
    tanks = [leman_russ(force, f"Steel {n}", points=300) for n in range(1, 4)]
    squads = [krieg_squad(force, f"Company {n}", points=100) for n in range(1, 6)]
    assert (reload(force).supply_used, reload(force).supply_limit) == (1500, 1500)
    battle = open_battle(force)

    with refused("The army is 1100 points, 100 over the 1000-point Incursion limit."):
        muster(battle, force, [leader, *tanks, squads[0]], warlord=leader)

    report = muster(battle, force, [leader, *tanks], warlord=leader)
    assert (report.points, report.limit, report.ok) == (1000, 1000, True)


# --------------------------------------------------------------------------- R9 recording


def test_it_records_the_end_of_a_battle_for_each_force():
    """R9: tallies, victories, RP, and each unit's tallies and XP, in one go."""
    krieg, plague = krieg_force(), plague_force()
    vell, line = commissar(krieg), krieg_squad(krieg)
    lord, marines = lord_of_contagion(plague), plague_marines(plague)

    done = fight(
        [vell, line],
        [lord, marines],
        outcomes={
            line: UnitOutcome(enemy_units_destroyed=2),
            marines: UnitOutcome(destroyed=True, enemy_units_destroyed=1),
        },
    )

    krieg, plague = reload(krieg), reload(plague)
    assert (krieg.battle_tally, krieg.victories, krieg.rp) == (1, 1, 6)
    assert (plague.battle_tally, plague.victories, plague.rp) == (1, 0, 6)
    line, marines = reload(line), reload(marines)
    assert (line.battles_played, line.battles_survived, line.units_destroyed, line.xp) == (
        1,
        1,
        2,
        1,
    )
    assert (
        marines.battles_played,
        marines.battles_survived,
        marines.units_destroyed,
        marines.xp,
    ) == (1, 0, 1, 1)
    battle = reload(done.battle)
    assert battle.status == Battle.Status.COMPLETED
    assert battle.completed_at is not None
    results = dict(battle.participants.values_list("force__name", "result"))
    assert results == {"13th Siege Regiment": "win", "Plague Wall": "loss"}
    assert done.test_for(marines).status == OutOfActionTest.Status.PENDING
    assert not OutOfActionTest.objects.filter(unit=line).exists()


def test_it_counts_no_victory_for_a_draw():
    """R9: victories +1 only on a win."""
    krieg, plague = krieg_force(), plague_force()

    fight([commissar(krieg)], [lord_of_contagion(plague)], results=["draw", "draw"])

    assert reload(krieg).victories == reload(plague).victories == 0
    assert reload(krieg).battle_tally == reload(plague).battle_tally == 1


def test_it_keeps_rp_at_the_cap_when_a_battle_is_recorded_at_10rp():
    """R1.5: the RP gained above the cap is lost."""
    force = set_rp(krieg_force(), 10)

    done = fight([commissar(force)])

    assert reload(force).rp == 10
    participant = done.participant(force)
    participant.refresh_from_db()
    assert (participant.rp_before, participant.rp_after) == (10, 10)


def test_it_changes_nothing_for_any_force_when_one_outcome_is_refused():
    """R9 all-or-nothing: one bad report (two Marked for Greatness) and no force changes."""
    krieg, plague = krieg_force(), plague_force()
    vell, line = commissar(krieg), krieg_squad(krieg)
    set_xp(line, 5)
    lord, marines = lord_of_contagion(plague), plague_marines(plague)
    battle = go_to_battle(
        [vell, line],
        [lord, marines],
        outcomes={
            line: UnitOutcome(marked_for_greatness=True, destroyed=True),
            lord: UnitOutcome(marked_for_greatness=True),
            marines: UnitOutcome(marked_for_greatness=True),
        },
    )

    with refused("Plague Wall can Mark only one unit for Greatness."):
        battle.record()

    assert reload(battle.battle).status == Battle.Status.IN_PROGRESS
    assert reload(line).xp == 5
    assert (reload(krieg).battle_tally, reload(krieg).rp) == (0, 5)
    assert not Promotion.objects.exists()
    assert not OutOfActionTest.objects.exists()


def test_it_previews_the_end_of_a_battle_without_writing_anything():
    """R9: the summary a player confirms is computed, not saved."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    set_xp(squad, 5)
    battle = go_to_battle(
        [leader, squad], outcomes={squad: UnitOutcome(destroyed=True, marked_for_greatness=True)}
    )
    before = database_state()

    gain = services.preview_side(battle.participant(force), result="win", outcomes=battle.outcomes)

    assert database_state() == before
    assert (gain.rp_before, gain.rp_after, gain.result) == (5, 6, "win")
    squad_gain = next(g for g in gain.units if g.entry.unit_id == squad.pk)
    assert (squad_gain.xp_before, squad_gain.xp_after, squad_gain.promotions) == (5, 9, 1)
    assert squad_gain.rank_after == rules.Rank.BLOODED
    assert squad_gain.out_of_action


def test_it_refuses_to_record_a_battle_twice():
    """R9: a battle's end is recorded once."""
    force = krieg_force()
    done = fight([commissar(force)])

    with refused("This battle has already been recorded."):
        done.record()

    assert reload(force).battle_tally == 1


def test_it_refuses_to_record_before_every_force_has_mustered():
    """R9: every side's army is known before its end is recorded."""
    krieg, plague = krieg_force(), plague_force()
    vell = commissar(krieg)
    lord_of_contagion(plague)
    battle = make_battle(krieg, plague)
    muster(battle, krieg, [vell], warlord=vell)
    results = {
        battle.participants.get(force=krieg).pk: "win",
        battle.participants.get(force=plague).pk: "loss",
    }

    with refused("Plague Wall has not mustered an army yet."):
        services.record_battle_end(actor=krieg.player, battle=battle, results=results, outcomes={})


def test_it_refuses_to_record_without_a_result_for_each_force():
    """R9: victories depend on each force's result."""
    force = krieg_force()
    battle = go_to_battle([commissar(force)])

    with refused("Choose a result for 13th Siege Regiment."):
        services.record_battle_end(
            actor=force.player, battle=battle.battle, results={}, outcomes={}
        )


def test_it_gives_an_attached_leader_and_bodyguard_their_own_xp_and_out_of_action_test():
    """R9: each unit of an Attached unit gains its own XP and takes its own test;
    the kills go to the one the player names."""
    force = krieg_force()
    leader, squad = commissar(force), krieg_squad(force)
    set_xp(leader, 2)

    done = fight(
        [leader, squad],
        attachments={leader: squad},
        outcomes={
            leader: UnitOutcome(destroyed=True),
            squad: UnitOutcome(destroyed=True, enemy_units_destroyed=3),
        },
    )

    leader, squad = reload(leader), reload(squad)
    assert (leader.xp, leader.units_destroyed) == (3, 0)
    assert (squad.xp, squad.units_destroyed) == (2, 3)
    assert done.entry(leader).attached_to == done.entry(squad)
    assert done.test_for(leader) != done.test_for(squad)
    assert OutOfActionTest.objects.filter(status="pending").count() == 2


def test_it_records_a_history_row_for_each_force_and_unit():
    """Style 4 / R9: the force's numbers before and after, and each unit's."""
    krieg, plague = krieg_force(), plague_force()
    vell, lord = commissar(krieg), lord_of_contagion(plague)

    done = fight([vell], [lord])

    entry = HistoryEntry.objects.get(action="battle_recorded", force=krieg)
    assert entry.battle == done.battle
    assert entry.actor == krieg.player
    assert entry.changes == {"battle_tally": [0, 1], "victories": [0, 1], "rp": [5, 6]}
    plague_entry = HistoryEntry.objects.get(action="battle_recorded", force=plague)
    assert plague_entry.changes == {"battle_tally": [0, 1], "victories": [0, 0], "rp": [5, 6]}
    unit_entry = HistoryEntry.objects.get(action="unit_battle_recorded", unit=lord)
    assert unit_entry.changes == {
        "xp": [0, 1],
        "battles_played": [0, 1],
        "battles_survived": [0, 1],
    }


def test_it_refuses_to_muster_for_a_battle_already_recorded():
    """R9: once recorded, a battle's armies can no longer change."""
    force = krieg_force()
    leader = commissar(force)
    done = fight([leader])

    with refused("This battle is over; its armies can no longer change."):
        services.muster_army(
            actor=force.player,
            participant=done.participant(force),
            faction=ASTRA,
            detachment="Combined Arms",
            units=[leader],
            warlord=leader,
        )


def test_it_refuses_to_start_a_campaign_battle_with_a_force_from_elsewhere():
    """R8: a campaign's battles are fought by its own forces."""
    campaign = make_campaign()
    member = krieg_force(campaign=campaign)
    stranger = plague_force()

    with refused(f"Plague Wall is not part of {campaign.name}."):
        services.start_battle(
            actor=member.player,
            force=member,
            opponents=[stranger],
            battle_size="Strike Force",
            campaign=campaign,
        )


def test_it_keeps_death_guard_and_krieg_armies_apart():
    """R8.3: a unit of another force can't be mustered."""
    krieg, plague = krieg_force(), plague_force()
    vell, lord = commissar(krieg), lord_of_contagion(plague)
    battle = open_battle(krieg)

    with refused(containing=["Not in this Order of Battle: Lord of Contagion."]):
        muster(battle, krieg, [vell, lord], warlord=vell, faction=ASTRA)
    assert BattleParticipant.objects.get(battle=battle).mustered is False
