"""Each alliance's battles, wins and Campaign Points per phase, kept as battles end and
are voided (`AllianceTotal`), always what the sides of the completed battles add up to:
the campaign page reads them instead of adding the sides up at each look."""

from importlib import import_module

import pytest
from django.apps import apps

from campaign import services
from campaign.models import Alliance, AllianceTotal
from campaign.selectors.phases import alliance_totals_added_up as added_up
from campaign.selectors.phases import alliance_totals_kept as kept
from tests.factories import (
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_user,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    """Two alliances: Wardens (two forces) and Raiders (one)."""
    organiser = make_user(is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Vigilus")
    wardens, raiders = (
        Alliance.objects.create(campaign=campaign, name=name) for name in ("Wardens", "Raiders")
    )
    forces = []
    for name, alliance in (("Krieg", wardens), ("Cadia", wardens), ("Night Lords", raiders)):
        force = make_force(campaign=campaign, name=name)
        make_character(force)
        force.alliance = alliance
        force.save(update_fields=["alliance"])
        forces.append(force)
    return campaign, organiser, forces, (wardens, raiders)


def test_they_are_what_the_sides_add_up_to_before_and_in_each_phase(league):
    campaign, organiser, (krieg, cadia, lords), (wardens, raiders) = league
    make_recorded_battle(krieg, lords, campaign=campaign)  # before the first phase
    for name in ("The Landing", "The Siege"):
        services.define_phase(actor=organiser, campaign=campaign, name=name)
    services.advance_phase(actor=organiser, campaign=campaign)
    make_recorded_battle(lords, cadia, campaign=campaign)
    make_recorded_battle(krieg, cadia, campaign=campaign)  # Wardens on both sides
    services.advance_phase(actor=organiser, campaign=campaign)
    make_recorded_battle(cadia, lords, campaign=campaign, result="draw")

    totals = kept(campaign)

    assert totals == added_up(campaign)
    landing = campaign.phases.get(position=1).pk
    assert totals[(wardens.pk, None)] == (1, 1, totals[(wardens.pk, None)][2])
    assert totals[(wardens.pk, landing)][:2] == (2, 1), "their battle with each other counts once"
    assert totals[(raiders.pk, landing)][:2] == (1, 1)


def test_a_void_takes_the_battle_back_out(league):
    campaign, organiser, (krieg, cadia, lords), (wardens, raiders) = league
    make_recorded_battle(krieg, lords, campaign=campaign)
    voided = make_recorded_battle(lords, cadia, campaign=campaign)

    services.void_battle(actor=organiser, battle=voided, reason="Wrong mission")

    assert kept(campaign) == added_up(campaign)
    assert kept(campaign)[(raiders.pk, None)][:2] == (1, 0)


def test_a_side_without_an_alliance_counts_for_none(league):
    campaign, _, (krieg, _, lords), (wardens, raiders) = league
    lords.alliance = None
    lords.save(update_fields=["alliance"])

    make_recorded_battle(krieg, lords, campaign=campaign)

    assert set(kept(campaign)) == {(wardens.pk, None)}


def test_the_migration_adds_up_the_battles_completed_before_it(league):
    """What existing campaigns get when the totals are first kept: the same numbers."""
    campaign, organiser, (krieg, cadia, lords), _ = league
    make_recorded_battle(krieg, lords, campaign=campaign)
    make_recorded_battle(lords, cadia, campaign=campaign, result="draw")
    AllianceTotal.objects.all().delete()

    migration = import_module("campaign.migrations.0028_alliance_totals")
    migration.add_up_completed_battles(apps, None)

    assert kept(campaign) == added_up(campaign) != {}
