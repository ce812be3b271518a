"""The access helpers: each returns the object and whether the user may change it.

Owner / member / outsider / organiser / superuser, for every kind of object, decided
in `campaign.access` alone, by primary key and small indexed lookups.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from campaign import access
from campaign.models import Promotion
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

from .helpers import fight_alone, past_battles, record, set_table

pytestmark = pytest.mark.django_db

HIDDEN = "404"
# role -> can_write for an object of the owner's force, and for the campaign itself
CAN_WRITE = {
    "owner": (True, False),
    "member": (False, False),
    "outsider": (HIDDEN, HIDDEN),
    "organiser": (False, True),
    "superuser": (False, True),
}


@pytest.fixture
def world():
    organiser = make_user("org", is_staff=True)
    campaign = make_campaign(organiser=organiser)
    owner = make_user("owner")
    force = make_force(player=owner, campaign=campaign)
    member_force = make_force(player=make_user("member"), campaign=campaign)
    captain, squad = make_character(force), make_unit(force)
    side = fight_alone(force, [captain, squad], destroyed=[squad])
    return {
        "users": {
            "owner": owner,
            "member": member_force.player,
            "outsider": make_user("outsider"),
            "organiser": organiser,
            "superuser": make_user("root", is_superuser=True, is_staff=True),
        },
        "objects": {
            "get_force_for_user": force,
            "get_unit_for_user": squad,
            "get_battle_for_user": side.battle,
            "get_participant_for_user": side,
            "get_out_of_action_test_for_user": side.army.get(unit=squad).out_of_action,
            "get_promotion_for_user": Promotion.objects.create(unit=captain, rank=1),
        },
        "campaign": campaign,
    }


@pytest.mark.parametrize("role", sorted(CAN_WRITE))
@pytest.mark.parametrize(
    "helper",
    [
        "get_force_for_user",
        "get_unit_for_user",
        "get_battle_for_user",
        "get_participant_for_user",
        "get_out_of_action_test_for_user",
        "get_promotion_for_user",
    ],
)
def test_it_returns_the_object_and_whether_the_user_may_change_it(world, helper, role):
    user, obj = world["users"][role], world["objects"][helper]
    expected = CAN_WRITE[role][0]
    get = getattr(access, helper)

    if expected == HIDDEN:
        with pytest.raises(Http404):
            get(user, obj.pk)
        with pytest.raises(Http404):
            get(user, obj.pk, write=True)
        return
    assert get(user, obj.pk) == (obj, expected)
    if expected:
        assert get(user, obj.pk, write=True) == (obj, True)
    else:
        with pytest.raises(PermissionDenied):
            get(user, obj.pk, write=True)


@pytest.mark.parametrize("role", sorted(CAN_WRITE))
def test_it_lets_the_campaigns_organisers_change_it(world, role):
    user, campaign = world["users"][role], world["campaign"]
    expected = CAN_WRITE[role][1]

    if expected == HIDDEN:
        with pytest.raises(Http404):
            access.get_campaign_for_user(user, campaign.pk)
        return
    assert access.get_campaign_for_user(user, campaign.pk) == (campaign, expected)
    if not expected:
        with pytest.raises(PermissionDenied):
            access.get_campaign_for_user(user, campaign.pk, write=True)


def test_it_hides_everything_from_anonymous_users(world):
    for helper, obj in world["objects"].items():
        with pytest.raises(Http404):
            getattr(access, helper)(AnonymousUser(), obj.pk)


def test_it_answers_404_for_an_object_that_does_not_exist(world):
    with pytest.raises(Http404):
        access.get_force_for_user(world["users"]["owner"], 999_999)


def _battle_check(user, battle) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        access.get_battle_for_user(user, battle.pk)
    return [q["sql"] for q in queries.captured_queries]


def test_it_checks_a_battle_with_the_same_few_lookups_however_many_battles_there_are():
    quiet, busy = set_table(), set_table()
    past_battles(make_force(player=busy.member, campaign=busy.campaign), 25)
    record(busy)

    few, many = _battle_check(quiet.member, quiet.battle), _battle_check(busy.member, busy.battle)

    assert len(few) == len(many) == 1
    assert not any("IN (SELECT" in sql.upper() for sql in many), many


@pytest.mark.parametrize("role", sorted(CAN_WRITE))
@pytest.mark.parametrize("helper", ["get_battle_for_user", "get_unit_for_user"])
def test_it_checks_a_battle_and_a_card_in_the_one_query_that_fetches_it(world, helper, role):
    user, obj = world["users"][role], world["objects"][helper]
    with CaptureQueriesContext(connection) as queries:
        try:
            getattr(access, helper)(user, obj.pk)
        except Http404:
            assert CAN_WRITE[role][0] == HIDDEN

    assert len(queries.captured_queries) == 1
