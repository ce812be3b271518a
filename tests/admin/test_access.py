"""Who sees what in the admin: organisers their own campaigns, superusers everything."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import Membership
from tests.admin.helpers import recorded_battle
from tests.factories import make_force, make_unit, make_user

pytestmark = pytest.mark.django_db


def changelist(name: str) -> str:
    return reverse(f"admin:campaign_{name}_changelist")


def test_it_lets_an_organiser_open_the_admin_index(organiser_client):
    response = organiser_client.get(reverse("admin:index"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Crusade Tracker — organisers" in html
    for name in ["campaign", "crusadeforce", "unit", "battle", "historyentry"]:
        assert changelist(name) in html


def test_it_shows_an_organiser_only_their_own_campaign(organiser_client, rival_campaign):
    response = organiser_client.get(changelist("campaign"))

    assert response.status_code == 200
    assert [c.name for c in response.context["cl"].result_list] == ["Pariah Nexus"]
    assert "Octarius" not in response.content.decode()


def test_it_shows_an_organiser_only_their_campaigns_forces_units_and_history(
    organiser_client, campaign, rival_campaign
):
    ours = make_force(campaign=campaign, name="Ultramarines 2nd Company")
    theirs = make_force(campaign=rival_campaign, name="Goff Warband")
    make_unit(ours, name="Intercessors Alpha")
    make_unit(theirs, name="Boyz Mob")

    forces = organiser_client.get(changelist("crusadeforce")).context["cl"].result_list
    units = organiser_client.get(changelist("unit")).context["cl"].result_list
    history = organiser_client.get(changelist("historyentry")).context["cl"].result_list

    assert [f.name for f in forces] == ["Ultramarines 2nd Company"]
    assert [u.name for u in units] == ["Intercessors Alpha"]
    assert history and {h.campaign_id for h in history} == {campaign.pk}


def test_it_shows_an_organiser_only_their_campaigns_battles(
    organiser, organiser_client, campaign, rival_campaign
):
    ours, *_ = recorded_battle(actor=organiser, campaign=campaign)
    theirs, *_ = recorded_battle(actor=organiser, campaign=rival_campaign)

    response = organiser_client.get(changelist("battle"))

    assert list(response.context["cl"].result_list) == [ours]
    assert theirs not in response.context["cl"].result_list


def test_it_never_shows_another_campaigns_force_to_an_organiser(organiser_client, rival_campaign):
    force = make_force(campaign=rival_campaign, name="Goff Warband")

    response = organiser_client.get(reverse("admin:campaign_crusadeforce_change", args=[force.pk]))

    assert response.status_code in (302, 404)
    assert "Goff Warband" not in response.content.decode()


def test_it_refuses_a_correction_to_another_campaigns_force(organiser_client, rival_campaign):
    force = make_force(campaign=rival_campaign, name="Goff Warband")

    response = organiser_client.post(
        reverse("admin:campaign_crusadeforce_change", args=[force.pk]),
        {"name": "Mine now", "rp": 0, "reason": "Takeover"},
    )

    assert response.status_code in (302, 404)
    force.refresh_from_db()
    assert (force.name, force.rp) == ("Goff Warband", 5)


def test_it_offers_only_the_organisers_campaigns_and_members_in_the_add_force_form(
    organiser, organiser_client, campaign, rival_campaign
):
    ours = make_user("alice")
    services.join_campaign(actor=ours, user=ours, campaign=campaign)
    theirs = make_user("bob")
    services.join_campaign(actor=theirs, user=theirs, campaign=rival_campaign)

    form = (
        organiser_client.get(reverse("admin:campaign_crusadeforce_add")).context["adminform"].form
    )

    assert list(form.fields["campaign"].queryset) == [campaign]
    assert set(form.fields["player"].queryset) == {ours, organiser}


def test_it_lets_a_superuser_see_every_campaign_and_force(client, campaign, rival_campaign):
    make_force(campaign=campaign, name="Ultramarines 2nd Company")
    make_force(campaign=rival_campaign, name="Goff Warband")
    client.force_login(make_user("root", is_staff=True, is_superuser=True))

    campaigns = client.get(changelist("campaign")).context["cl"].result_list
    forces = client.get(changelist("crusadeforce")).context["cl"].result_list

    assert {c.name for c in campaigns} == {"Pariah Nexus", "Octarius"}
    assert {f.name for f in forces} == {"Ultramarines 2nd Company", "Goff Warband"}


def test_it_sends_a_player_to_the_admin_login(client, campaign):
    player = make_user("alice")
    services.join_campaign(actor=player, user=player, campaign=campaign)
    client.force_login(player)

    response = client.get(reverse("admin:index"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_it_shows_a_staff_user_who_organises_nothing_no_campaign_data(client, campaign):
    client.force_login(make_user("clerk", is_staff=True))

    assert client.get(changelist("crusadeforce")).status_code == 403
    assert client.get(changelist("campaign")).status_code == 403


def test_it_lets_a_player_organiser_who_is_not_staff_nowhere_near_the_admin(client, campaign):
    player = make_user("alice")
    Membership.objects.filter(campaign=campaign).update(user=player)
    client.force_login(player)

    assert client.get(changelist("crusadeforce")).status_code == 302
