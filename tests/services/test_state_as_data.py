"""State kept as data: open Out of Action tests, choice keys, and the data migration that
turned old free-text state into fields."""

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign import rules, services
from campaign.models import CustomContent, OutOfActionTest
from tests.factories import make_campaign
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


def migrate(target):
    """Migrate the test database to ``target`` (a migration, or None for the latest);
    returns the models as they were then."""
    executor = MigrationExecutor(connection)
    targets = [target] if target else executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def old_texts(old) -> dict:
    """Promotions settled by an Enhancement, marked by a text prefix, and a history action
    under its old name."""
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
    return {"force": force.pk, "heroes": heroes.pk, "honour": honour.pk}


def read_texts(apps, made: dict) -> dict:
    promotions = apps.get_model("campaign", "Promotion").objects.filter(unit__force=made["force"])
    fields = [f.name for f in apps.get_model("campaign", "Promotion")._meta.fields]
    history = apps.get_model("campaign", "HistoryEntry").objects.filter(force=made["force"])
    return {
        "settled_by": dict(promotions.values_list("pk", "settled_by"))
        if "settled_by" in fields
        else None,
        "settled_with": dict(promotions.values_list("pk", "settled_with")),
        "actions": set(history.values_list("action", flat=True)),
    }


def old_cards(old) -> dict:
    """A lord whose Enhancement was left out of his points, and cards with a traits table."""
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
    return {"force": force.pk, "lord": lord.pk, "pack": pack.pk}


def read_cards(apps, made: dict) -> dict:
    units = {u.pk: u for u in apps.get_model("campaign", "Unit").objects.all()}
    entry = apps.get_model("campaign", "HistoryEntry").objects.get(unit_id=made["lord"])
    force = apps.get_model("campaign", "CrusadeForce").objects.get(pk=made["force"])
    return {
        "points": units[made["lord"]].points,
        "infantry": (units[made["pack"]].is_infantry, units[made["lord"]].is_infantry),
        "changes": entry.changes,
        "supply_used": force.supply_used,
    }


def old_battles(old) -> dict:
    """Battles started before invitations: one open, one completed."""
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
    return {
        "alice": alice.pk,
        "bruno": bruno.pk,
        "completed_at": done.completed_at,
        "sides": {"waiting": waiting.pk, "won": won.pk, "lost": lost.pk},
    }


def read_battles(apps, made: dict) -> dict:
    Participant = apps.get_model("campaign", "BattleParticipant")
    sides = Participant.objects.in_bulk(made["sides"].values())
    return {
        name: {
            "invitation": sides[pk].invitation,
            "claimed_result": sides[pk].claimed_result,
            "recorded_by": sides[pk].recorded_by_id,
            "recorded_at": sides[pk].recorded_at,
        }
        for name, pk in made["sides"].items()
    }


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker) -> dict:
    """Old data for each test below, made once in the schema before group play, migrated
    forward by the data migration, back again, and forward to the latest schema: one
    round trip for the module (each takes a good part of a minute), read into plain
    values at each step. The database is emptied after, as a transactional test leaves
    it."""
    with django_db_blocker.unblock():
        try:
            old = migrate(OLD)
            made = {"texts": old_texts(old), "cards": old_cards(old), "battles": old_battles(old)}
            new = migrate(DATA)
            after = {
                "texts": read_texts(new, made["texts"]),
                "cards": read_cards(new, made["cards"]),
                "battles": read_battles(new, made["battles"]),
            }
            undone = read_texts(migrate(OLD), made["texts"])
        finally:
            migrate(None)
            call_command("flush", interactive=False, verbosity=0)
    return {"made": made, "after": after, "undone": undone}


@pytest.mark.django_db(transaction=True)
def test_it_moves_old_free_text_state_into_fields(migrated):
    """Promotions settled by an Enhancement were marked by a text prefix, and three history
    actions had other names: the migration rewrites both, and can be undone."""
    made, after, undone = migrated["made"]["texts"], migrated["after"]["texts"], migrated["undone"]

    assert after["settled_by"] == {
        made["heroes"]: "renowned_heroes",
        made["honour"]: "battle_honour",
    }
    assert after["settled_with"] == {
        made["heroes"]: "Drill Commander",
        made["honour"]: "Headhunters",
    }
    assert after["actions"] == {"unit_picture_changed"}
    assert set(undone["settled_with"].values()) == {
        "Renowned Heroes: Drill Commander",
        "Headhunters",
    }


@pytest.mark.django_db(transaction=True)
def test_it_counts_enhancements_left_out_of_old_cards_and_turns_tables_into_keywords(migrated):
    """R2.1: a unit's points include its Enhancement; R4.4: tables fit by keyword. Cards
    made before are brought in step, each with a history row."""
    after = migrated["after"]["cards"]

    assert after["points"] == 145
    assert after["infantry"] == (True, False)
    assert after["changes"] == {"points": [125, 145]}
    assert after["supply_used"] == 165


@pytest.mark.django_db(transaction=True)
def test_it_gives_battles_from_before_invitations_sides_that_accepted_and_recorded(migrated):
    """Battles started before invitations: every side was committed, so it is accepted; a
    completed battle's sides recorded the result that counted, by whoever recorded it."""
    made, sides = migrated["made"]["battles"], migrated["after"]["battles"]

    assert {side["invitation"] for side in sides.values()} == {"accepted"}
    assert (sides["waiting"]["claimed_result"], sides["waiting"]["recorded_at"]) == ("", None)
    assert (sides["won"]["claimed_result"], sides["won"]["recorded_by"]) == ("win", made["alice"])
    assert (sides["lost"]["claimed_result"], sides["lost"]["recorded_by"]) == (
        "loss",
        made["bruno"],
    )
    assert sides["lost"]["recorded_at"] == made["completed_at"]
