"""A player starts a campaign: they organise it, and the admin opens to them."""

import pytest

from campaign import services
from campaign.models import Campaign, HistoryEntry, Membership
from tests.factories import make_user, reload
from tests.services.checks import latest_history, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return make_user("yarrick")


def test_it_makes_the_player_who_starts_a_campaign_its_organiser(player):
    campaign = services.start_campaign(
        actor=player, name="Armageddon", description="The third war for the hive world"
    )

    membership = campaign.memberships.get()
    assert (membership.user, membership.role) == (player, Membership.Role.ORGANISER)
    assert campaign.description == "The third war for the hive world"


def test_it_opens_the_admin_to_the_new_organiser_and_nothing_more(player):
    services.start_campaign(actor=player, name="Armageddon")

    player = reload(player)
    assert player.is_staff
    assert not player.is_superuser
    assert not player.user_permissions.exists() and not player.groups.exists()


def test_it_keeps_the_house_rules_the_player_chose(player):
    campaign = services.start_campaign(
        actor=player,
        name="Armageddon",
        starting_supply_limit=500,
        starting_rp=3,
        rp_cap=8,
        supply_limit_increase=250,
    )

    assert reload(campaign).house_rules.rp_cap == 8
    assert (campaign.starting_supply_limit, campaign.starting_rp) == (500, 3)
    assert campaign.supply_limit_increase == 250


def test_it_records_the_new_campaign_and_the_opened_admin(player):
    campaign = services.start_campaign(actor=player, name="Armageddon", rp_cap=8)

    created = latest_history("campaign_created", campaign=campaign)
    assert created.actor == player
    assert created.changes["rp_cap"] == [None, 8]
    opened = latest_history("member_role_changed", campaign=campaign)
    assert opened.actor == player
    assert opened.changes == {"is_staff": [False, True]}
    assert opened.summary == ("yarrick organises Armageddon and can now use the organisers' admin")


def test_it_writes_no_admin_row_for_a_player_who_is_already_staff():
    veteran = make_user("creed", is_staff=True)
    services.start_campaign(actor=veteran, name="Armageddon")

    campaign = services.start_campaign(actor=veteran, name="Cadia")

    assert reload(veteran).is_staff
    assert list(
        HistoryEntry.objects.filter(campaign=campaign).values_list("action", flat=True)
    ) == ["campaign_created"]


def test_it_lets_a_player_start_several_campaigns(player):
    services.start_campaign(actor=player, name="Armageddon")
    services.start_campaign(actor=player, name="Cadia")

    assert set(player.memberships.values_list("campaign__name", "role")) == {
        ("Armageddon", "organiser"),
        ("Cadia", "organiser"),
    }


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"name": "   "}, "Give the campaign a name."),
        (
            {"name": "Armageddon", "starting_rp": 9, "rp_cap": 6},
            "Starting RP cannot be above the RP cap.",
        ),
        ({"name": "Armageddon", "rp_cap": 0, "starting_rp": 0}, "The RP cap must be at least 1."),
    ],
)
def test_it_refuses_a_campaign_it_cannot_start_and_changes_nothing(player, values, message):
    with refused(message):
        services.start_campaign(actor=player, **values)

    assert not Campaign.objects.exists()
    assert not reload(player).is_staff
