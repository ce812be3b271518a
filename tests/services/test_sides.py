"""Each player records their own side of a battle's end; the battle completes once every
side has recorded and the results agree (R9), or is disputed until a side amends it or an
organiser settles it (with a reason kept in history)."""

import pytest

from campaign import models, services
from campaign.services import UnitOutcome
from tests.factories import make_user, reload
from tests.services import cards
from tests.services.checks import card_snapshot, database_state, refused
from tests.services.earned import set_xp
from tests.services.fights import Fight, go_to_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def armies():
    """Two players' forces, each with a leader and a squad."""
    krieg, plague = cards.krieg_force(), cards.plague_force()
    return {
        "krieg": krieg,
        "plague": plague,
        "vell": cards.commissar(krieg),
        "line": cards.krieg_squad(krieg),
        "lord": cards.lord_of_contagion(plague),
        "marines": cards.plague_marines(plague),
    }


def battle_of(armies, **kwargs) -> Fight:
    return go_to_battle(
        [armies["vell"], armies["line"]], [armies["lord"], armies["marines"]], **kwargs
    )


def test_it_keeps_a_sides_record_without_changing_any_force_until_every_side_has_recorded(
    armies,
):
    """R9: nothing is applied for one side alone; its report is kept on its army."""
    fight = battle_of(
        armies, outcomes={armies["line"]: UnitOutcome(destroyed=True, enemy_units_destroyed=2)}
    )
    before = card_snapshot(armies["krieg"], armies["plague"])

    battle = fight.record_side(armies["krieg"])

    assert battle.status == models.Battle.Status.IN_PROGRESS
    assert card_snapshot(armies["krieg"], armies["plague"]) == before
    side = reload(fight.participant(armies["krieg"]))
    assert (side.claimed_result, side.result, side.recorded_by) == (
        "win",
        "",
        armies["krieg"].player,
    )
    entry = fight.entry(armies["line"])
    assert (entry.destroyed, entry.enemy_units_destroyed, entry.xp_after) == (True, 2, None)
    assert not models.OutOfActionTest.objects.exists()
    recorded = models.HistoryEntry.objects.get(action="side_recorded")
    assert (recorded.force, recorded.actor) == (armies["krieg"], armies["krieg"].player)
    assert recorded.changes == {"claimed_result": ["", "win"]}


def test_it_completes_the_battle_in_one_go_once_both_sides_agree(armies):
    """R9: tallies, RP, XP, tests and promotions, applied once, from each side's report."""
    set_xp(armies["line"], 5)
    fight = battle_of(
        armies,
        outcomes={
            armies["line"]: UnitOutcome(destroyed=True, marked_for_greatness=True),
            armies["marines"]: UnitOutcome(enemy_units_destroyed=1),
        },
    )
    fight.record_side(armies["krieg"])

    battle = fight.record_side(armies["plague"])

    assert battle.status == models.Battle.Status.COMPLETED
    krieg, plague = reload(armies["krieg"]), reload(armies["plague"])
    assert (krieg.battle_tally, krieg.victories, krieg.rp) == (1, 1, 6)
    assert (plague.battle_tally, plague.victories, plague.rp) == (1, 0, 6)
    line = reload(armies["line"])
    assert (line.xp, line.battles_survived) == (9, 0)
    assert reload(armies["marines"]).units_destroyed == 1
    assert fight.test_for(armies["line"]).status == models.OutOfActionTest.Status.PENDING
    assert models.Promotion.objects.filter(unit=armies["line"]).count() == 1
    results = dict(battle.participants.values_list("force__name", "result"))
    assert results == {"13th Siege Regiment": "win", "Plague Wall": "loss"}


def test_it_credits_each_forces_changes_to_the_player_who_recorded_its_side(armies):
    """Style rule 4: who changed a force's cards is the one who recorded its side."""
    fight = battle_of(armies)
    fight.record_side(armies["krieg"])
    fight.record_side(armies["plague"])

    history = models.HistoryEntry.objects
    for name, unit in (("krieg", "line"), ("plague", "marines")):
        player = armies[name].player
        assert history.get(action="battle_recorded", force=armies[name]).actor == player
        assert history.get(action="unit_battle_recorded", unit=armies[unit]).actor == player


def test_it_never_reads_another_sides_units_from_a_players_report(armies):
    """Each player records their own side and nobody else's."""
    fight = battle_of(armies)
    fight.report(armies["marines"], UnitOutcome(destroyed=True, enemy_units_destroyed=5))

    fight.record_side(armies["krieg"])

    marines = fight.entry(armies["marines"])
    assert (marines.destroyed, marines.enemy_units_destroyed) == (False, 0)


def test_it_checks_a_sides_report_with_the_rules_before_keeping_it(armies):
    """R3.3, R3.4: one unit Marked for Greatness; bonus XP needs a reason."""
    fight = battle_of(
        armies,
        outcomes={
            armies["vell"]: UnitOutcome(marked_for_greatness=True),
            armies["line"]: UnitOutcome(marked_for_greatness=True),
        },
    )
    with refused("13th Siege Regiment can Mark only one unit for Greatness."):
        fight.record_side(armies["krieg"])

    fight.report(armies["vell"], UnitOutcome(bonus_xp=2))
    with refused(containing=["Say why Lord Commissar Vell earned bonus XP."]):
        fight.record_side(armies["krieg"])


def test_it_lets_a_side_amend_its_record_before_the_battle_completes(armies):
    fight = battle_of(armies)
    fight.record_side(armies["krieg"], "draw")

    fight.report(armies["line"], UnitOutcome(enemy_units_destroyed=3))
    fight.record_side(armies["krieg"], "win")

    side = reload(fight.participant(armies["krieg"]))
    assert side.claimed_result == "win"
    assert fight.entry(armies["line"]).enemy_units_destroyed == 3
    amended = models.HistoryEntry.objects.filter(action="side_recorded").order_by("-pk").first()
    assert "amends" in amended.summary
    assert amended.changes == {"claimed_result": ["draw", "win"]}


@pytest.mark.parametrize(
    ("claims", "why"),
    [
        (("win", "win"), "two sides can't both claim a Victory"),
        (("draw", "loss"), "A draw is a draw for both sides"),
        (("loss", "loss"), "Somebody won"),
    ],
)
def test_it_disputes_a_battle_whose_results_disagree_and_applies_nothing(armies, claims, why):
    """R9: two players: one Victory and one Defeat, or both Draw. Anything else is never
    applied: the battle is disputed, with the reason in each force's history."""
    fight = battle_of(armies, results=list(claims))
    fight.record_side(armies["krieg"])
    before = card_snapshot(armies["krieg"], armies["plague"])

    battle = fight.record_side(armies["plague"])

    assert battle.status == models.Battle.Status.DISPUTED
    assert card_snapshot(armies["krieg"], armies["plague"]) == before
    assert why in services.disagreement(list(battle.participants.all()))
    rows = models.HistoryEntry.objects.filter(action="battle_disputed", battle=battle)
    assert {row.force for row in rows} == {armies["krieg"], armies["plague"]}
    assert all(why in row.reason for row in rows)
    assert reload(armies["krieg"]).in_battle()  # still committed until it is settled


def test_it_completes_a_disputed_battle_once_a_side_amends_its_result(armies):
    fight = battle_of(armies, results=["win", "win"])
    fight.record_side(armies["krieg"])
    fight.record_side(armies["plague"])

    battle = fight.record_side(armies["plague"], "loss")

    assert battle.status == models.Battle.Status.COMPLETED
    assert (reload(armies["krieg"]).victories, reload(armies["plague"]).victories) == (1, 0)


def test_it_refuses_to_record_a_side_of_a_completed_battle(armies):
    fight = battle_of(armies)
    fight.record()

    with refused("This battle has already been recorded."):
        fight.record_side(armies["krieg"], "loss")


# --------------------------------------------------------------------------- settling


def test_it_lets_an_organiser_settle_a_dispute_with_the_results_they_choose(armies):
    """R9 and style rule 4: the organiser's results count, the reason is kept, and each
    side keeps what its player recorded for its units."""
    organiser = make_user()
    fight = battle_of(
        armies,
        results=["win", "win"],
        outcomes={armies["marines"]: UnitOutcome(enemy_units_destroyed=3)},
    )
    fight.record_side(armies["krieg"])
    fight.record_side(armies["plague"])
    krieg_side, plague_side = (fight.participant(armies[n]) for n in ("krieg", "plague"))

    battle = services.settle_battle(
        actor=organiser,
        battle=fight.battle,
        results={krieg_side.pk: "loss", plague_side.pk: "win"},
        reason="Photo of the scoresheet: Plague Wall held 3 objectives",
    )

    assert battle.status == models.Battle.Status.COMPLETED
    assert (reload(armies["krieg"]).victories, reload(armies["plague"]).victories) == (0, 1)
    assert reload(krieg_side).claimed_result == "win"  # what the player said stays
    assert reload(krieg_side).result == "loss"
    assert reload(armies["marines"]).units_destroyed == 3
    settled = models.HistoryEntry.objects.filter(action="battle_settled", battle=battle)
    assert {row.actor for row in settled} == {organiser}
    assert {row.reason for row in settled} == {
        "Photo of the scoresheet: Plague Wall held 3 objectives"
    }
    assert "it recorded Victory" in settled.get(force=armies["krieg"]).summary


def test_it_lets_an_organiser_record_for_an_absent_player(armies):
    """The absent side is recorded for its player: nothing destroyed, no kills."""
    organiser = make_user()
    fight = battle_of(armies, outcomes={armies["line"]: UnitOutcome(enemy_units_destroyed=1)})
    fight.record_side(armies["krieg"])
    krieg_side, plague_side = (fight.participant(armies[n]) for n in ("krieg", "plague"))

    services.settle_battle(
        actor=organiser,
        battle=fight.battle,
        results={krieg_side.pk: "win", plague_side.pk: "loss"},
        reason="Bruno is away; confirmed by phone",
    )

    plague_side = reload(plague_side)
    assert (plague_side.claimed_result, plague_side.recorded_by) == ("loss", organiser)
    assert reload(krieg_side).recorded_by == armies["krieg"].player
    marines = reload(armies["marines"])
    assert (marines.xp, marines.battles_survived, marines.units_destroyed) == (1, 1, 0)
    assert reload(armies["line"]).units_destroyed == 1
    recorded = models.HistoryEntry.objects.get(action="battle_recorded", force=armies["plague"])
    assert recorded.actor == organiser
    assert "recorded by an organiser" in (
        models.HistoryEntry.objects.get(action="battle_settled", force=armies["plague"]).summary
    )


def test_it_refuses_a_settlement_without_a_reason_or_with_two_victors(armies):
    fight = battle_of(armies, results=["win", "win"])
    fight.record_side(armies["krieg"])
    fight.record_side(armies["plague"])
    both_win = {side.pk: "win" for side in fight.participants.values()}

    with refused(containing=["Say why you settle this battle"]):
        services.settle_battle(actor=make_user(), battle=fight.battle, results={}, reason=" ")
    with refused(containing=["two sides can't both claim a Victory"]):
        services.settle_battle(
            actor=make_user(), battle=fight.battle, results=both_win, reason="Both won?"
        )
    with refused(containing=["Choose a result for Plague Wall."]):
        krieg_only = {fight.participant(armies["krieg"]).pk: "win"}
        services.settle_battle(
            actor=make_user(), battle=fight.battle, results=krieg_only, reason="Half"
        )


def test_it_refuses_to_settle_a_battle_that_is_over(armies):
    fight = battle_of(armies)
    fight.record()

    with refused("This battle has already been recorded."):
        services.settle_battle(
            actor=make_user(),
            battle=fight.battle,
            results={p.pk: "draw" for p in fight.participants.values()},
            reason="Again",
        )


def test_it_voids_a_settled_battle_and_every_force_reads_exactly_as_before(armies):
    """Voiding a completed battle still restores everything exactly."""
    before = card_snapshot(armies["krieg"], armies["plague"])
    fight = battle_of(
        armies,
        results=["win", "win"],
        outcomes={
            armies["line"]: UnitOutcome(destroyed=True, enemy_units_destroyed=3),
            armies["lord"]: UnitOutcome(marked_for_greatness=True),
        },
    )
    fight.record_side(armies["krieg"])
    fight.record_side(armies["plague"])
    services.settle_battle(
        actor=make_user(),
        battle=fight.battle,
        results={
            s.pk: r for s, r in zip(fight.participants.values(), ["draw", "draw"], strict=True)
        },
        reason="Called a draw",
    )

    services.void_battle(actor=make_user(), battle=fight.battle, reason="Wrong mission pack")

    assert card_snapshot(armies["krieg"], armies["plague"]) == before


def test_it_refuses_a_whole_battle_recorded_by_one_actor_when_the_results_disagree(armies):
    """R9: a result that gives two victors is refused (the demo's and tests' shortcut)."""
    fight = battle_of(armies, results=["win", "win"])
    before = database_state()

    with refused(containing=["two sides can't both claim a Victory"]):
        fight.record()

    assert database_state() == before
    assert not models.BattleUnit.objects.filter(destroyed=True).exists()
    assert not models.BattleParticipant.objects.exclude(claimed_result="").exists()
