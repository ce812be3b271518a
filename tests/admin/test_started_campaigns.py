"""A player who starts a campaign on the site runs it in the admin, and only it."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import Campaign
from tests.admin.helpers import post_change, saved
from tests.factories import make_force, make_user

pytestmark = pytest.mark.django_db


def changelist(name: str) -> str:
    return reverse(f"admin:campaign_{name}_changelist")


@pytest.fixture
def started(client, rival_campaign):
    """yarrick, a plain player, starts Armageddon on the site; Octarius is someone else's."""
    player = make_user("yarrick")
    client.force_login(player)
    response = client.post(
        reverse("campaign_create"),
        {
            "name": "Armageddon",
            "description": "",
            "starting_supply_limit": 1000,
            "starting_rp": 5,
            "rp_cap": 10,
            "supply_limit_increase": 200,
        },
    )
    assert response.status_code == 302
    return Campaign.objects.get(name="Armageddon")


def test_it_opens_the_admin_to_the_player_who_started_a_campaign(client, started):
    response = client.get(reverse("admin:index"))

    assert response.status_code == 200
    assert changelist("campaign") in response.content.decode()


def test_it_shows_the_new_organiser_only_their_campaign(client, started, rival_campaign):
    ours = make_force(campaign=started, name="Steel Legion 252nd")
    make_force(campaign=rival_campaign, name="Goff Warband")

    campaigns = client.get(changelist("campaign")).context["cl"].result_list
    forces = client.get(changelist("crusadeforce")).context["cl"].result_list
    history = client.get(changelist("historyentry")).context["cl"].result_list

    assert [c.name for c in campaigns] == ["Armageddon"]
    assert list(forces) == [ours]
    assert history and {h.campaign_id for h in history} == {started.pk}


def test_it_keeps_another_campaign_out_of_the_new_organisers_reach(client, started, rival_campaign):
    response = client.get(reverse("admin:campaign_campaign_change", args=[rival_campaign.pk]))

    assert response.status_code in (302, 404)
    assert "Octarius" not in response.content.decode()


def test_it_lets_the_new_organiser_change_their_house_rules_in_the_admin(client, started):
    url = reverse("admin:campaign_campaign_change", args=[started.pk])

    response = post_change(client, url, supply_limit_increase=250, reason="Faster growth")

    entry = saved(response, "house_rules_changed", changes={"supply_limit_increase": [200, 250]})
    assert entry.reason == "Faster growth"


def test_it_lets_the_new_organiser_invite_a_player_in_the_admin(client, started):
    ollanius = make_user("ollanius")
    url = reverse("admin:campaign_campaign_change", args=[started.pk])

    response = post_change(
        client,
        url,
        **{"memberships-1-user": "ollanius", "memberships-1-role": "player"},
    )

    assert response.status_code == 302
    assert started.invitations.filter(user=ollanius, status="pending").exists()
    assert not started.memberships.filter(user=ollanius).exists()


def test_it_shows_the_new_organiser_no_campaign_they_only_play_in(client, rival_campaign):
    player = make_user("yarrick")
    services.join_campaign(actor=player, user=player, campaign=rival_campaign)
    services.start_campaign(actor=player, name="Armageddon")
    client.force_login(player)

    campaigns = client.get(changelist("campaign")).context["cl"].result_list

    assert [c.name for c in campaigns] == ["Armageddon"]
