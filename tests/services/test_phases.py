"""A narrative campaign's phases: organisers define them and move the story on."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from campaign import rules, services
from campaign.models import Campaign, HistoryEntry, Phase
from campaign.models.phases import MOST_PHASE_POINTS
from campaign.services.phases import off_phase_size
from tests.factories import make_battle, make_campaign, make_character, make_force, make_user
from tests.services.checks import refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("phase-organiser", is_staff=True)


@pytest.fixture
def campaign(organiser):
    return make_campaign(organiser=organiser, name="Octarius")


def define(organiser, campaign, name, **values):
    return services.define_phase(actor=organiser, campaign=campaign, name=name, **values)


def test_it_appends_each_new_phase_after_the_others(organiser, campaign):
    first = define(organiser, campaign, "Landfall", battle_size="Incursion")
    second = define(organiser, campaign, "The Push", narrative="Into the hive.")

    assert (first.position, second.position) == (1, 2)
    assert second.narrative == "Into the hive."
    rows = HistoryEntry.objects.filter(action="phase_changed", campaign=campaign)
    assert rows.count() == 2
    assert all(row.force_id is None and row.actor == organiser for row in rows)


def test_a_new_phase_moves_the_campaigns_revision_so_its_page_is_built_again(organiser, campaign):
    before = Campaign.objects.get(pk=campaign.pk).revision

    define(organiser, campaign, "Landfall")

    assert Campaign.objects.get(pk=campaign.pk).revision > before


def test_it_edits_a_phase_with_the_numbers_before_and_after(organiser, campaign):
    phase = define(organiser, campaign, "Landfall", battle_size="Incursion")

    define(organiser, campaign, "Landfall", battle_size="Strike Force", phase=phase)

    phase.refresh_from_db()
    assert (phase.position, phase.battle_size) == (1, "Strike Force")
    edited = HistoryEntry.objects.filter(action="phase_changed").order_by("-pk").first()
    assert edited.changes == {"battle_size": ["Incursion", "Strike Force"]}


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"name": "  "}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"name": "Landfall", "battle_size": "Apocalypse Now"}, "battle_size"),
        ({"name": "Landfall", "points_limit": 0}, "points_limit"),
        ({"name": "Landfall", "points_limit": MOST_PHASE_POINTS + 1}, "points_limit"),
        ({"name": "Landfall", "points_limit": 10**30}, "points_limit"),
        ({"name": "Landfall", "narrative": "x" * 4001}, "narrative"),
    ],
)
def test_it_refuses_a_phase_it_cannot_keep_next_to_the_field(organiser, campaign, values, field):
    with refused() as info:
        services.define_phase(actor=organiser, campaign=campaign, **values)
    assert field in info.value.message_dict
    assert not Phase.objects.exists()


def test_it_refuses_to_edit_another_campaigns_phase(organiser, campaign):
    theirs = define(organiser, make_campaign(organiser=organiser), "Elsewhere")

    with refused("That phase is not one of this campaign's."):
        define(organiser, campaign, "Mine now", phase=theirs)


def test_the_first_advance_starts_phase_one(organiser, campaign):
    first = define(organiser, campaign, "Landfall")
    define(organiser, campaign, "The Push")

    started = services.advance_phase(actor=organiser, campaign=campaign, reason="We begin")

    campaign.refresh_from_db()
    first.refresh_from_db()
    assert started == first == campaign.current_phase
    assert first.started_at is not None and first.ended_at is None
    row = HistoryEntry.objects.get(action="phase_advanced")
    assert (row.campaign_id, row.force_id, row.reason) == (campaign.pk, None, "We begin")
    assert row.changes == {"current_phase": [None, "Landfall"]}


def test_a_later_advance_ends_the_current_phase_and_starts_the_next(organiser, campaign):
    first = define(organiser, campaign, "Landfall")
    second = define(organiser, campaign, "The Push")
    services.advance_phase(actor=organiser, campaign=campaign)

    services.advance_phase(actor=organiser, campaign=campaign)

    first.refresh_from_db()
    second.refresh_from_db()
    campaign.refresh_from_db()
    assert campaign.current_phase == second
    assert first.ended_at is not None
    assert second.started_at is not None and second.ended_at is None


def test_it_refuses_to_advance_past_the_last_phase(organiser, campaign):
    define(organiser, campaign, "Landfall")
    services.advance_phase(actor=organiser, campaign=campaign)

    with refused("Landfall is the last phase: add the next one in the admin first."):
        services.advance_phase(actor=organiser, campaign=campaign)


def test_it_refuses_to_advance_a_campaign_without_phases(organiser, campaign):
    with refused("This campaign has no phases yet: add one in the admin first."):
        services.advance_phase(actor=organiser, campaign=campaign)


def test_two_organisers_advancing_from_the_same_phase_advance_once(organiser, campaign):
    """Both saw phase 1 as current: the second is refused, phase 2 is not skipped."""
    first = define(organiser, campaign, "Landfall")
    second = define(organiser, campaign, "The Push")
    define(organiser, campaign, "The Fall")
    services.advance_phase(actor=organiser, campaign=campaign)

    services.advance_phase(actor=organiser, campaign=campaign, from_phase=first.pk)
    with refused("The campaign has moved on already: it is now at The Push."):
        services.advance_phase(actor=organiser, campaign=campaign, from_phase=first.pk)

    assert Campaign.objects.get(pk=campaign.pk).current_phase == second


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_two_advances_at_once_from_the_same_phase_apply_once():
    """Two requests at the same moment, each from its own connection: the campaign's row
    is locked, so the second sees the first's phase and is refused (PostgreSQL only:
    SQLite has no row locks)."""
    organiser = make_user("racer", is_staff=True)
    campaign = make_campaign(organiser=organiser)
    for name in ("Landfall", "The Push", "The Fall"):
        define(organiser, campaign, name)
    outcomes, start = [], threading.Barrier(2)

    def advance():
        start.wait()
        try:
            services.advance_phase(actor=organiser, campaign=campaign, from_phase=None)
            outcomes.append("advanced")
        except ValidationError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=advance) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert outcomes.count("advanced") == 1
    assert Campaign.objects.get(pk=campaign.pk).current_phase.name == "Landfall"
    assert HistoryEntry.objects.filter(action="phase_advanced").count() == 1


@pytest.mark.parametrize(
    ("battle_size", "points_limit", "suggested"),
    [
        ("Onslaught", None, "Onslaught"),
        ("", 500, "Incursion"),
        ("", 1000, "Incursion"),
        ("", 1001, "Strike Force"),
        ("", 2001, "Onslaught"),
        ("", None, ""),
        ("", 3001, ""),
    ],
)
def test_a_phase_is_played_at_its_size_or_the_smallest_that_covers_its_points(
    battle_size, points_limit, suggested
):
    assert rules.BATTLE_SIZES == {"Incursion": 1000, "Strike Force": 2000, "Onslaught": 3000}
    phase = Phase(battle_size=battle_size, points_limit=points_limit)
    assert phase.suggested_battle_size == suggested


def test_a_battle_belongs_to_the_phase_current_when_it_started(organiser, campaign):
    first = define(organiser, campaign, "Landfall", battle_size="Incursion")
    services.advance_phase(actor=organiser, campaign=campaign)
    campaign.refresh_from_db()
    force, rival = make_force(campaign=campaign), make_force(campaign=campaign)
    make_character(force)

    battle = make_battle(force, rival, battle_size="Strike Force", campaign=campaign)

    assert battle.phase == first
    assert off_phase_size(battle) == (
        "This battle is played at Strike Force, but Landfall is played at Incursion: "
        "agree on it with your opponent."
    )
    third = make_force(campaign=campaign)
    assert off_phase_size(make_battle(third, battle_size="Incursion", campaign=campaign)) == ""
