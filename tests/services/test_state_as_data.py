"""State kept as data: open Out of Action tests, choice keys, and the data migration that
turned old free-text state into fields."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign import rules, services
from campaign.models import CustomContent, OutOfActionTest
from tests.factories import make_campaign, make_user
from tests.services.cards import commissar, krieg_force, krieg_squad
from tests.services.fights import destroyed_in_battle


@pytest.mark.django_db
def test_it_lists_only_tests_waiting_for_a_roll_or_a_choice_as_open():
    force = krieg_force()
    leader = commissar(force)
    waiting = destroyed_in_battle(krieg_squad(force, "1st Line"), leader=leader)
    done = destroyed_in_battle(krieg_squad(force, "2nd Line"), leader=leader)
    done.status = OutOfActionTest.Status.DONE
    done.outcome = rules.OutOfAction.PASSED
    done.save()

    assert list(OutOfActionTest.objects.open()) == [waiting]
    assert waiting.is_open and not done.is_open


@pytest.mark.django_db
def test_it_builds_and_reads_back_a_custom_content_choice_key():
    campaign = make_campaign()
    content = services.add_custom_content(
        actor=campaign.memberships.first().user,
        campaign=campaign,
        kind="battle_scar",
        name="Gas-blinded",
    )

    assert CustomContent.pk_from_choice_key(content.choice_key) == content.pk
    assert CustomContent.pk_from_choice_key("Fatigued") is None
    assert CustomContent.pk_from_choice_key("custom-") is None


OLD = ("campaign", "0001_initial")
DATA = ("campaign", "0003_group_play_data")
"""Before group play, and once its data migration has run."""


def old_force(apps, **fields):
    """A force as an older schema stored it: a 1000-point Supply Limit and 5 of 10RP."""
    defaults = {"faction": "Astra Militarum", "supply_limit": 1000, "rp": 5, "rp_cap": 10}
    return apps.get_model("campaign", "CrusadeForce").objects.create(**defaults | fields)


@pytest.mark.django_db(transaction=True)
def test_it_moves_old_free_text_state_into_fields():
    """Promotions settled by an Enhancement were marked by a text prefix, and three history
    actions had other names: the migration rewrites both, and can be undone."""
    executor = MigrationExecutor(connection)
    executor.migrate([OLD])
    old = executor.loader.project_state([OLD]).apps
    user = old.get_model("auth", "User").objects.create(username="vell")
    campaign = old.get_model("campaign", "Campaign").objects.create(name="Vraks", invite_code="x")
    force = old_force(old, player=user, campaign=campaign, name="Krieg")
    unit = old.get_model("campaign", "Unit").objects.create(
        force=force, name="Vell", datasheet="Commissar", points=65, faction_keywords="Astra"
    )
    Promotion = old.get_model("campaign", "Promotion")
    heroes = Promotion.objects.create(
        unit=unit, rank=1, status="settled", settled_with="Renowned Heroes: Drill Commander"
    )
    honour = Promotion.objects.create(
        unit=unit, rank=2, status="settled", settled_with="Headhunters"
    )
    old.get_model("campaign", "HistoryEntry").objects.create(
        action="unit_picture", summary="New picture", force=force
    )

    executor = MigrationExecutor(connection)
    executor.migrate([DATA])
    new = executor.loader.project_state([DATA]).apps
    settled = dict(new.get_model("campaign", "Promotion").objects.values_list("pk", "settled_by"))
    names = dict(new.get_model("campaign", "Promotion").objects.values_list("pk", "settled_with"))
    actions = set(
        new.get_model("campaign", "HistoryEntry").objects.values_list("action", flat=True)
    )

    assert settled == {heroes.pk: "renowned_heroes", honour.pk: "battle_honour"}
    assert names == {heroes.pk: "Drill Commander", honour.pk: "Headhunters"}
    assert actions == {"unit_picture_changed"}

    executor = MigrationExecutor(connection)
    executor.migrate([OLD])
    assert set(
        old.get_model("campaign", "Promotion").objects.values_list("settled_with", flat=True)
    ) == {"Renowned Heroes: Drill Commander", "Headhunters"}
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    make_user("after-the-migration")  # the latest schema is back for the next test


@pytest.mark.django_db(transaction=True)
def test_it_counts_enhancements_left_out_of_old_cards_and_turns_tables_into_keywords():
    """R2.1: a unit's points include its Enhancement; R4.4: tables fit by keyword. Cards
    made before are brought in step, each with a history row."""
    before, after = OLD, DATA
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    user = old.get_model("auth", "User").objects.create(username="ragnar")
    force = old_force(old, player=user, name="Fenris")
    cards = old.get_model("campaign", "Unit").objects
    lord = cards.create(
        **{"force": force, "name": "Ragnar", "datasheet": "Wolf Lord", "points": 125},
        **{"enhancement": "Fury of the Storm", "enhancement_points": 20, "is_character": True},
        **{"trait_table": "Character", "faction_keywords": "Imperium"},
    )
    pack = cards.create(
        **{"force": force, "name": "Shadow Pack", "datasheet": "Infiltrators", "points": 20},
        **{"trait_table": "Infantry", "faction_keywords": "Imperium"},
    )

    executor = MigrationExecutor(connection)
    executor.migrate([after])
    new = executor.loader.project_state([after]).apps
    units = {u.pk: u for u in new.get_model("campaign", "Unit").objects.all()}
    entry = new.get_model("campaign", "HistoryEntry").objects.get(unit_id=lord.pk)

    assert units[lord.pk].points == 145
    assert units[pack.pk].is_infantry and not units[lord.pk].is_infantry
    assert entry.changes == {"points": [125, 145]}
    assert new.get_model("campaign", "CrusadeForce").objects.get().supply_used == 165

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_it_gives_battles_from_before_invitations_sides_that_accepted_and_recorded():
    """Battles started before invitations: every side was committed, so it is accepted; a
    completed battle's sides recorded the result that counted, by whoever recorded it."""
    before, after = OLD, DATA
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    User = old.get_model("auth", "User")
    alice, bruno = User.objects.create(username="alice"), User.objects.create(username="bruno")
    Force = old.get_model("campaign", "CrusadeForce")
    wolves, talons = (
        Force.objects.create(
            player=player, name=name, faction="Astartes", supply_limit=1000, rp=5, rp_cap=10
        )
        for player, name in ((alice, "Wolves"), (bruno, "Talons"))
    )
    Battle = old.get_model("campaign", "Battle")
    Participant = old.get_model("campaign", "BattleParticipant")
    open_battle = Battle.objects.create(battle_size="Incursion", created_by=alice)
    done = Battle.objects.create(
        battle_size="Incursion",
        created_by=alice,
        status="completed",
        completed_at=open_battle.created_at,
    )
    waiting = Participant.objects.create(battle=open_battle, force=wolves)
    won = Participant.objects.create(battle=done, force=wolves, result="win")
    lost = Participant.objects.create(battle=done, force=talons, result="loss")
    old.get_model("campaign", "HistoryEntry").objects.create(
        action="battle_recorded", summary="Talons: Defeat", force=talons, battle=done, actor=bruno
    )

    executor = MigrationExecutor(connection)
    executor.migrate([after])
    new = executor.loader.project_state([after]).apps
    sides = {p.pk: p for p in new.get_model("campaign", "BattleParticipant").objects.all()}

    assert {p.invitation for p in sides.values()} == {"accepted"}
    assert (sides[waiting.pk].claimed_result, sides[waiting.pk].recorded_at) == ("", None)
    assert (sides[won.pk].claimed_result, sides[won.pk].recorded_by_id) == ("win", alice.pk)
    assert (sides[lost.pk].claimed_result, sides[lost.pk].recorded_by_id) == ("loss", bruno.pk)
    assert sides[lost.pk].recorded_at == done.completed_at

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    make_user("after-the-migration")  # the latest schema is back for the next test
