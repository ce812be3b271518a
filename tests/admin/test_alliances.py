"""Alliances in the admin: an organiser defines, edits and retires their campaign's, and
changes a force's alliance with a reason; nobody sees another campaign's."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import Alliance, HistoryAction, HistoryEntry
from tests.admin.helpers import form_errors, post_change, saved
from tests.factories import make_force, reload

pytestmark = pytest.mark.django_db

ADD = "admin:campaign_alliance_add"
CHANGELIST = "admin:campaign_alliance_changelist"


def define(campaign, name="Wardens", colour="#3366cc"):
    organiser = campaign.memberships.get(role="organiser").user
    return services.define_alliance(actor=organiser, campaign=campaign, name=name, colour=colour)


def test_an_organiser_forms_an_alliance_through_the_service(organiser, organiser_client, campaign):
    response = organiser_client.post(
        reverse(ADD),
        {"campaign": campaign.pk, "name": "Wardens", "colour": "#3366cc", "description": "Hold"},
    )

    entry = saved(response, HistoryAction.ALLIANCE_CHANGED)
    assert (entry.campaign, entry.actor) == (campaign, organiser)
    assert Alliance.objects.get().description == "Hold"


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"name": "wardens", "colour": "#000000"}, "name"),
        ({"name": "Raiders", "colour": "red"}, "colour"),
        ({"name": "", "colour": "#000000"}, "name"),
    ],
)
def test_it_refuses_a_bad_alliance_next_to_its_field(organiser_client, campaign, values, field):
    define(campaign)

    response = organiser_client.post(reverse(ADD), {"campaign": campaign.pk, **values})

    assert form_errors(response)[field]
    assert Alliance.objects.count() == 1


def test_it_cannot_form_one_in_another_campaign(organiser_client, rival_campaign):
    response = organiser_client.post(
        reverse(ADD), {"campaign": rival_campaign.pk, "name": "Spies", "colour": "#000000"}
    )

    assert form_errors(response)["campaign"]
    assert not Alliance.objects.exists()


def test_an_organiser_edits_an_alliance_with_a_history_row(organiser_client, campaign):
    wardens = define(campaign)
    url = reverse("admin:campaign_alliance_change", args=[wardens.pk])

    response = post_change(organiser_client, url, name="Gate Wardens")

    entry = saved(
        response,
        HistoryAction.ALLIANCE_CHANGED,
        changes={"name": ["Wardens", "Gate Wardens"]},
    )
    assert entry.campaign == campaign


def test_an_organiser_retires_an_alliance_with_a_reason(organiser_client, campaign):
    wardens = define(campaign)
    url = reverse("admin:campaign_alliance_retire", args=[wardens.pk])
    assert organiser_client.get(url).status_code == 200

    response = organiser_client.post(url, {"apply": "yes", "reason": "Broken at the gate"})

    assert response.status_code == 302
    assert reload(wardens).retired
    entry = HistoryEntry.objects.filter(action=HistoryAction.ALLIANCE_CHANGED).latest("pk")
    assert entry.reason == "Broken at the gate"


def test_the_list_action_retires_with_a_reason(organiser_client, campaign):
    wardens = define(campaign)

    organiser_client.post(
        reverse(CHANGELIST),
        {
            "action": "retire_alliance",
            "_selected_action": [wardens.pk],
            "apply": "yes",
            "reason": "End of season",
        },
    )

    assert reload(wardens).retired


def test_an_organiser_sees_only_their_campaigns_alliances(
    organiser_client, campaign, rival_campaign
):
    define(campaign, name="Ours")
    theirs = define(rival_campaign, name="Theirs")

    listing = organiser_client.get(reverse(CHANGELIST)).content.decode()

    assert "Ours" in listing and "Theirs" not in listing
    url = reverse("admin:campaign_alliance_change", args=[theirs.pk])
    assert organiser_client.get(url).status_code in (302, 403, 404)
    retire = reverse("admin:campaign_alliance_retire", args=[theirs.pk])
    assert organiser_client.post(retire, {"apply": "yes", "reason": "x"}).status_code == 404
    assert not reload(theirs).retired


def test_an_organiser_changes_a_forces_alliance_with_a_reason(
    organiser, organiser_client, campaign
):
    wardens, raiders = define(campaign), define(campaign, name="Raiders")
    force = make_force(campaign=campaign, name="Iron Host")
    services.choose_alliance(actor=force.player, force=force, alliance=wardens)
    url = reverse("admin:campaign_crusadeforce_change", args=[force.pk])

    response = post_change(organiser_client, url, alliance=raiders.pk, reason="Turned coat")

    entry = saved(
        response,
        HistoryAction.FORCE_ALLIANCE_CHANGED,
        changes={"alliance": ["Wardens", "Raiders"]},
    )
    assert (entry.actor, entry.reason, entry.force) == (organiser, "Turned coat", force)
    assert reload(force).alliance == raiders


def test_a_forces_alliance_changes_only_with_a_reason(organiser_client, campaign):
    wardens = define(campaign)
    force = make_force(campaign=campaign)
    url = reverse("admin:campaign_crusadeforce_change", args=[force.pk])

    response = post_change(organiser_client, url, alliance=wardens.pk, reason="")

    assert form_errors(response)["reason"]
    assert reload(force).alliance is None


def test_the_force_page_offers_only_its_campaigns_alliances(
    organiser_client, campaign, rival_campaign
):
    define(campaign, name="Ours")
    theirs = define(rival_campaign, name="Theirs")
    force = make_force(campaign=campaign)
    url = reverse("admin:campaign_crusadeforce_change", args=[force.pk])

    response = post_change(organiser_client, url, alliance=theirs.pk, reason="Spy")

    assert form_errors(response)["alliance"]
    assert reload(force).alliance is None
