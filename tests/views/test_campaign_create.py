"""Starting a campaign: any signed-in player, unless the site's owner turned it off."""

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, HistoryEntry, Membership
from tests.factories import make_campaign, make_user, reload

from .helpers import texts

pytestmark = pytest.mark.django_db

URL = "/campaigns/new/"
STARTED = {
    "name": "Armageddon",
    "description": "The third war for the hive world.",
    "starting_supply_limit": 1000,
    "starting_rp": 5,
    "rp_cap": 10,
    "supply_limit_increase": 200,
}


@pytest.fixture
def player():
    return make_user("yarrick")


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client


def nothing_written(player) -> bool:
    return (
        not Campaign.objects.exists()
        and not HistoryEntry.objects.exists()
        and not reload(player).is_staff
    )


def test_it_has_the_url_the_dashboard_links_to(player_client):
    assert reverse("campaign_create") == URL

    dashboard = player_client.get(reverse("dashboard")).content.decode()

    assert f'href="{URL}"' in dashboard
    assert "Start a campaign" in dashboard


def test_it_offers_the_rulebooks_house_rules(player_client):
    response = player_client.get(URL)

    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="csrfmiddlewaretoken"' in body
    assert '<label for="id_name">' in body
    form = response.context["form"]
    assert [form[name].value() for name in Campaign.HOUSE_RULE_FIELDS] == [1000, 5, 10, 200]
    assert form["rp_cap"].label == "Requisition points cap"


def test_it_starts_a_campaign_and_makes_the_player_its_organiser(player_client, player):
    response = player_client.post(URL, STARTED)

    campaign = Campaign.objects.get(name="Armageddon")
    assert response.status_code == 302
    assert response.url == reverse("campaign_detail", args=[campaign.pk])
    assert campaign.memberships.get().user == player
    assert campaign.memberships.get().role == Membership.Role.ORGANISER
    assert reload(player).is_staff and not reload(player).is_superuser
    [message] = texts(response)
    assert "Armageddon has started and you are its organiser" in message
    assert campaign.invite_code in message
    assert "Manage the campaign in the admin" in message


def test_it_takes_the_new_organiser_to_the_invitation_and_the_admin(player_client):
    response = player_client.post(URL, STARTED, follow=True)

    campaign = Campaign.objects.get()
    body = response.content.decode()
    assert campaign.invite_code in body
    assert reverse("join_campaign", args=[campaign.invite_code]) in body
    assert reverse("admin:campaign_campaign_change", args=[campaign.pk]) in body
    assert f'href="{reverse("admin:index")}"' in body


def test_it_keeps_the_house_rules_the_player_typed(player_client):
    player_client.post(URL, {**STARTED, "starting_rp": 2, "rp_cap": 6})

    campaign = Campaign.objects.get()
    assert (campaign.starting_rp, campaign.rp_cap) == (2, 6)


@pytest.mark.parametrize(
    ("changes", "field", "error"),
    [
        ({"name": ""}, "name", "This field is required."),
        ({"name": "   "}, "name", "This field is required."),
        ({"starting_rp": 12}, "starting_rp", "Starting RP cannot be above the RP cap."),
        ({"rp_cap": 0, "starting_rp": 0}, "rp_cap", "Use a whole number from 1 to 100."),
        ({"rp_cap": "ten"}, "rp_cap", "Enter a whole number."),
        ({"starting_supply_limit": -5}, "starting_supply_limit", None),
        ({"name": "x" * 121}, "name", None),
        ({"rp_cap": str(10**30), "starting_rp": 0}, "rp_cap", None),
        ({"description": "x" * 1_000_000}, "description", None),
    ],
)
def test_it_puts_bad_input_next_to_its_field_and_writes_nothing(
    player_client, player, changes, field, error
):
    response = player_client.post(URL, {**STARTED, **changes})

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field]
    if error:
        assert errors[field] == [error]
    assert f'id="id_{field}_error"' in response.content.decode()
    assert nothing_written(player)


def test_it_changes_nothing_on_get(player_client, player):
    player_client.get(URL, STARTED)

    assert nothing_written(player)


def test_it_refuses_a_post_without_a_csrf_token(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)

    response = client.post(URL, STARTED)

    assert response.status_code == 403
    assert nothing_written(player)


def test_it_sends_anonymous_visitors_to_log_in(client):
    response = client.post(URL, STARTED)

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not Campaign.objects.exists()


def test_it_refuses_other_methods(player_client):
    assert player_client.put(URL).status_code == 405


# CRUSADE_SELF_SERVICE_CAMPAIGNS off


@pytest.fixture
def switched_off(settings):
    settings.CRUSADE_SELF_SERVICE_CAMPAIGNS = False


def test_it_explains_that_starting_campaigns_is_switched_off(switched_off, player_client):
    response = player_client.get(URL)

    assert response.status_code == 403
    body = response.content.decode()
    assert "Starting a campaign is switched off here" in body
    assert reverse("join_with_code") in body
    assert "form" not in response.context


def test_it_starts_nothing_when_switched_off(switched_off, player_client, player):
    response = player_client.post(URL, STARTED)

    assert response.status_code == 403
    assert nothing_written(player)


def test_it_hides_the_dashboard_link_when_switched_off(switched_off, player_client):
    dashboard = player_client.get(reverse("dashboard")).content.decode()

    assert URL not in dashboard
    assert "Start a campaign" not in dashboard


def test_it_leaves_adding_campaigns_in_the_admin_to_superusers_when_switched_off(
    switched_off, client
):
    """Issue 18, item 3: an organiser no longer adds campaigns (a superuser grants them)."""
    organiser = make_user("warmaster", is_staff=True)
    make_campaign(organiser=organiser, name="Pariah Nexus")
    client.force_login(organiser)
    refused = client.get(reverse("admin:campaign_campaign_add"))
    client.force_login(make_user("root", is_staff=True, is_superuser=True))

    response = client.get(reverse("admin:campaign_campaign_add"))

    assert refused.status_code == 403
    assert response.status_code == 200
