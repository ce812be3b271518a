"""Fixtures shared by the view tests: the usual people and places, and a battle."""

from __future__ import annotations

import pytest

from campaign import services
from campaign.models import OutOfActionTest, Promotion
from tests.blessings import blessing_pack, give_honours
from tests.factories import make_campaign, make_force, make_unit, make_user

from .helpers import record, set_table


@pytest.fixture
def campaign():
    return make_campaign()


@pytest.fixture
def owner():
    return make_user("owner")


@pytest.fixture
def force(owner, campaign):
    return make_force(player=owner, campaign=campaign, name="Iron Crusade")


@pytest.fixture
def unit(force):
    return make_unit(force, name="Squad Alpha", points=100)


@pytest.fixture
def member(campaign):
    """Another player in the owner's campaign."""
    user = make_user("member")
    services.join_campaign(actor=user, user=user, campaign=campaign)
    return user


@pytest.fixture
def outsider():
    return make_user("outsider")


@pytest.fixture
def table():
    """Two mustered armies in a battle that has not been recorded."""
    return set_table()


@pytest.fixture
def underdog():
    """Two mustered armies; the opponent's captain holds 2 honours, so the owner's side is
    the underdog (R11.3), with a pack of Blessings enabled in the campaign."""
    table = set_table()
    blessing_pack(table.organiser, table.campaign)
    give_honours(table.enemy_captain, 2)
    return table


@pytest.fixture
def invited():
    """A battle the owner started; the opponent's invitation waits for an answer."""
    return set_table(accept=False)


@pytest.fixture
def unmustered():
    """A battle whose armies are still to be mustered."""
    return set_table(muster=False)


@pytest.fixture
def fallen(table):
    """The battle recorded with the owner's squad destroyed: its test waits to be taken."""
    record(table, destroyed=[table.squad])
    table.test = OutOfActionTest.objects.get(unit=table.squad)
    return table


@pytest.fixture
def promoted(table):
    """The battle recorded with the owner's captain reaching a new rank."""
    services.correct_unit(actor=table.owner, unit=table.captain, reason="setup", xp=5)
    record(table)
    table.promotion = Promotion.objects.get(unit=table.captain)
    return table
