"""A force's export carries each card's Agenda tallies (R11.1), and a restore keeps them
within what the card's battles could have given (R2.4): it never invents a tally."""

from __future__ import annotations

import copy

import pytest

from campaign import rules, services
from campaign.models import Unit
from tests.factories import make_user
from tests.services.checks import refused
from tests.services.test_restore import SQUAD, exported, restore, setting
from tests.services.veterans import veteran_force

pytestmark = pytest.mark.django_db


def member(campaign):
    """A player who joined ``campaign`` (beforehand, so that a refusal changes nothing)."""
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=campaign)
    return player


def restore_as(player, document, campaign):
    return services.restore_force(actor=player, player=player, campaign=campaign, document=document)


def with_tallies(force, **tallies):
    Unit.objects.filter(force=force, name="Squad Keller").update(agenda_tallies=tallies)
    return force


def test_it_exports_and_restores_a_cards_agenda_tallies():
    force = with_tallies(veteran_force(), **{"Trophy Takers": 3})
    document = exported(force)
    assert SQUAD(document)["agenda_tallies"] == {"Trophy Takers": 3}

    restored = restore(document, campaign=force.campaign)

    squad = restored.units.get(name="Squad Keller")
    assert squad.agenda_tallies == {"Trophy Takers": 3} and squad.agenda_tally == 3


def test_it_restores_an_older_export_without_agenda_tallies_at_none():
    force = veteran_force()
    document = copy.deepcopy(exported(force))
    for unit in document["units"]:
        del unit["agenda_tallies"]

    restored = restore(document, campaign=force.campaign)

    assert all(u.agenda_tallies == {} for u in restored.units.all())


def test_it_refuses_an_edited_export_whose_tally_its_battles_could_not_give():
    """R2.4/R11.1: past the most its battles could add (an edited file, not signed)."""
    force = veteran_force()
    document = copy.deepcopy(exported(force))
    played = SQUAD(document)["battles_played"]
    too_many = rules.agenda_tally_bound(battles_played=played) + 1
    setting(SQUAD, "agenda_tallies", {"Trophy Takers": too_many})(document)

    player = member(force.campaign)
    with refused(containing=["Squad Keller", "R11.1"]):
        restore_as(player, document, force.campaign)


@pytest.mark.parametrize(
    ("tallies", "message"),
    [
        ({"Trophy Takers": "3"}, "must be a whole number"),
        ({"Trophy Takers": 0}, "must be a whole number"),
        ({"Trophy Takers": True}, "must be a whole number"),
        ({"": 2}, "name of an Agenda"),
        ({f"Agenda {n}": 1 for n in range(101)}, "more than 100 Agendas"),
        (["Trophy Takers"], "wrong type"),
    ],
)
def test_it_refuses_agenda_tallies_of_the_wrong_shape(tallies, message):
    force = veteran_force()
    document = copy.deepcopy(exported(force))
    setting(SQUAD, "agenda_tallies", tallies)(document)

    player = member(force.campaign)
    with refused(containing=[message]):
        restore_as(player, document, force.campaign)
