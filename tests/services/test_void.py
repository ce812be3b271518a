"""Voiding a recorded battle undoes every effect exactly (acceptance line)."""

import pytest

from campaign import rules, services
from campaign.models import (
    Battle,
    BattleHonour,
    BattleScar,
    HistoryEntry,
    OutOfActionTest,
    Promotion,
    Unit,
)
from campaign.services import UnitOutcome
from tests.factories import make_user, reload
from tests.services.cards import (
    commissar,
    krieg_force,
    krieg_squad,
    lord_of_contagion,
    plague_force,
    plague_marines,
)
from tests.services.checks import card_snapshot, refused
from tests.services.earned import (
    grant_trait,
    grant_traits,
    old_scars,
    renowned_hero,
    set_xp,
    settle_trait,
)
from tests.services.fights import fight, go_to_battle, resolve, roll

pytestmark = pytest.mark.django_db

Outcome = rules.OutOfAction


def test_it_voids_a_battle_and_every_force_and_card_reads_exactly_as_before():
    """Acceptance: kills, Marked for Greatness, a scar, a Devastating Blow, a promotion
    settled with a Battle Trait and a unit removed by the 3-scars rule, all undone."""
    krieg, plague = krieg_force(), plague_force()
    vell = commissar(krieg)
    set_xp(vell, 4)  # the battle takes it to Blooded
    scarred = krieg_squad(krieg, "1st Line Company")
    honoured = krieg_squad(krieg, "2nd Line Company")
    grant_trait(honoured, "Obdurate Obedience")
    doomed = krieg_squad(krieg, "3rd Line Company")
    old_scars(doomed, "Fatigued", "Deep Scars", "Crippling Damage")
    lord, marines = lord_of_contagion(plague), plague_marines(plague)
    battle = go_to_battle(
        [vell, scarred, honoured, doomed],
        [lord, marines],
        outcomes={
            vell: UnitOutcome(enemy_units_destroyed=3, marked_for_greatness=True),
            scarred: UnitOutcome(destroyed=True, enemy_units_destroyed=1),
            honoured: UnitOutcome(destroyed=True),
            doomed: UnitOutcome(destroyed=True),
            lord: UnitOutcome(enemy_units_destroyed=2),
            marines: UnitOutcome(
                destroyed=True, bonus_xp=2, bonus_xp_reason="Agenda: Plague Vector"
            ),
        },
    )
    before = card_snapshot(krieg, plague)

    battle.record()
    for unit in (scarred, honoured, doomed):
        roll(battle.test_for(unit), 1)
    resolve(battle.test_for(scarred), Outcome.BATTLE_SCAR, scar_name="Battle-weary")
    resolve(battle.test_for(honoured), Outcome.DEVASTATING_BLOW, honour=honoured.honours.get())
    roll(battle.test_for(marines), 4)
    settle_trait(reload(vell).promotions.get(), table="Character", trait="Natural Leader")
    # Everything happened, so the void has work to do.
    during = card_snapshot(krieg, plague)
    assert reload(doomed).status == Unit.Status.REMOVED
    assert ("Battle-weary", "active") in during[f"scars of {scarred.pk}"]
    assert ("Obdurate Obedience", "lost") in during[f"honours of {honoured.pk}"]
    assert ("Natural Leader", "active") in during[f"honours of {vell.pk}"]
    assert (reload(vell).xp, reload(krieg).rp, reload(krieg).victories) == (9, 6, 1)

    services.void_battle(
        actor=make_user(), battle=battle.battle, reason="Played with the wrong mission pack"
    )

    assert card_snapshot(krieg, plague) == before
    assert reload(battle.battle).status == Battle.Status.VOIDED
    assert not Promotion.objects.filter(status=Promotion.Status.PENDING).exists()
    assert not OutOfActionTest.objects.filter(
        status__in=[OutOfActionTest.Status.PENDING, OutOfActionTest.Status.AWAITING_CHOICE]
    ).exists()
    for force in (krieg, plague):
        actions = set(
            HistoryEntry.objects.filter(force=force, battle=battle.battle).values_list(
                "action", flat=True
            )
        )
        assert {"battle_recorded", "battle_voided"} <= actions
    voided = HistoryEntry.objects.get(action="battle_voided", force=krieg)
    assert voided.reason == "Played with the wrong mission pack"
    assert voided.changes == {"battle_tally": [1, 0], "victories": [1, 0], "rp": [6, 5]}


def test_it_keeps_what_a_void_undid_as_history():
    """Style 4: the scar and the trait from a voided battle stay, marked voided."""
    force = krieg_force()
    vell, squad = commissar(force), krieg_squad(force)
    set_xp(vell, 5)
    done = fight([vell, squad], outcomes={squad: UnitOutcome(destroyed=True)})
    resolve(roll(done.test_for(squad), 1), Outcome.BATTLE_SCAR, scar_name="Fatigued")
    settle_trait(reload(vell).promotions.get(), table="Character", trait="Born Hunter")

    services.void_battle(actor=force.player, battle=done.battle, reason="Scored wrongly")

    assert reload(squad).scars.get().status == BattleScar.Status.VOIDED
    trait = reload(vell).honours.get()
    assert (trait.status, trait.lost_reason) == (BattleHonour.Status.VOIDED, "Battle voided")
    assert reload(vell).promotions.get().status == Promotion.Status.VOIDED
    assert done.test_for(squad).status == OutOfActionTest.Status.VOIDED
    assert (reload(vell).crusade_points, reload(squad).crusade_points) == (0, 0)


def test_it_gives_back_an_honour_replaced_by_a_promotion_from_the_voided_battle():
    """Void is exact: a promotion settled by replacing an honour (R4.3) gives it back."""
    force = krieg_force()
    vell, squad = commissar(force), krieg_squad(force)
    set_xp(squad, 5)
    grant_traits(squad, 3)
    done = fight([vell, squad], outcomes={squad: UnitOutcome(marked_for_greatness=True)})
    before_settling = {(h.name, h.status) for h in squad.honours.all()}
    settle_trait(
        reload(squad).promotions.get(status=Promotion.Status.PENDING),
        table="Infantry",
        trait="Headhunters",
        replace=squad.honours.get(name="Battle-scarred Resistance"),
    )

    services.void_battle(actor=force.player, battle=done.battle, reason="Scored wrongly")

    after = {(h.name, h.status) for h in squad.honours.exclude(status=BattleHonour.Status.VOIDED)}
    assert after == before_settling
    assert reload(squad).crusade_points == 3


def test_it_refuses_to_void_a_battle_twice():
    force = krieg_force()
    done = fight([commissar(force)])
    services.void_battle(actor=force.player, battle=done.battle, reason="Scored wrongly")

    with refused("This battle has already been voided."):
        services.void_battle(actor=force.player, battle=done.battle, reason="Again")

    assert reload(force).battle_tally == 0


@pytest.mark.parametrize("reason", ["", "   "])
def test_it_refuses_a_void_without_a_reason(reason):
    force = krieg_force()
    done = fight([commissar(force)])

    with refused("Say why the battle is voided."):
        services.void_battle(actor=force.player, battle=done.battle, reason=reason)


def test_it_refuses_to_void_a_battle_whose_promotion_became_an_enhancement():
    """A Renowned Heroes Enhancement is corrected first, then the battle voided."""
    force = krieg_force()
    vell = commissar(force)
    set_xp(vell, 5)
    done = fight([vell])
    renowned_hero(vell)

    with refused(
        "A promotion from this battle was settled with an Enhancement; "
        "correct that Enhancement first, then void the battle."
    ):
        services.void_battle(actor=force.player, battle=done.battle, reason="Scored wrongly")


def test_it_voids_a_battle_still_in_progress_and_frees_the_forces():
    krieg, plague = krieg_force(), plague_force()
    battle = go_to_battle([commissar(krieg)], [lord_of_contagion(plague)])

    services.void_battle(actor=krieg.player, battle=battle.battle, reason="Rained off")

    assert reload(battle.battle).status == Battle.Status.VOIDED
    assert not reload(krieg).in_battle()
    assert reload(krieg).battle_tally == 0
    assert HistoryEntry.objects.filter(action="battle_voided").count() == 2
    services.increase_supply_limit(actor=krieg.player, force=krieg)


def test_it_refuses_to_bring_back_a_removed_unit_whose_name_was_taken_since():
    """R1.4: restoring a unit removed by the battle needs its name free again."""
    force = krieg_force()
    vell, doomed = commissar(force), krieg_squad(force, "3rd Line Company")
    old_scars(doomed, "Fatigued", "Deep Scars", "Crippling Damage")
    done = fight([vell, doomed], outcomes={doomed: UnitOutcome(destroyed=True)})
    roll(done.test_for(doomed), 1)
    krieg_squad(force, "3rd Line Company")

    with refused("13th Siege Regiment has a new unit called 3rd Line Company; rename it first."):
        services.void_battle(actor=force.player, battle=done.battle, reason="Scored wrongly")
