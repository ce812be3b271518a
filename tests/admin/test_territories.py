"""The campaign map in the admin: organisers add and edit their campaigns' territories,
hand one over with a reason, import a map file (or an enabled pack's map) and export it,
and set the map's rules on the campaign's page; a rival's map stays out of reach."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign.models import (
    Alliance,
    ContentPack,
    EnabledPack,
    HistoryEntry,
    Territory,
    TerritoryChange,
)
from tests.factories import make_user
from tests.maps.helpers import SMALL, encode, small

from .helpers import form_data, post_change, saved

pytestmark = pytest.mark.django_db

IMPORT = "admin:campaign_territory_import"


def map_file(data=SMALL) -> SimpleUploadedFile:
    return SimpleUploadedFile("map.json", encode(data), content_type="application/json")


@pytest.fixture
def alliances(campaign):
    return (
        Alliance.objects.create(campaign=campaign, name="Imperium", colour="#3366cc"),
        Alliance.objects.create(campaign=campaign, name="Chaos", colour="#cc3333"),
    )


@pytest.fixture
def mapped(organiser_client, campaign, alliances):
    response = organiser_client.post(reverse(IMPORT), {"file": map_file(), "campaign": campaign.pk})
    assert response.status_code == 302
    return {t.key: t for t in Territory.objects.filter(campaign=campaign)}


def change_url(territory) -> str:
    return reverse("admin:campaign_territory_change", args=[territory.pk])


def test_it_imports_a_map_file_into_a_campaign_with_no_map(mapped, campaign):
    assert set(mapped) == {"hive-vell", "ash-wastes", "moon"}
    assert HistoryEntry.objects.get(action="map_imported").actor.username == "warmaster"


def test_it_lists_each_problem_of_a_bad_map_on_the_field_with_a_400(organiser_client, campaign):
    data = small()
    data["territories"][0]["column"] = 99
    response = organiser_client.post(
        reverse(IMPORT), {"file": map_file(data), "campaign": campaign.pk}
    )
    assert response.status_code == 400
    assert response.context["form"].errors["file"] == [
        "territories[0].column: must be between 0 and 29"
    ]
    assert not Territory.objects.exists()


def test_it_refuses_a_map_naming_unknown_alliances_or_for_a_campaign_with_one(
    organiser_client, campaign, mapped
):
    response = organiser_client.post(reverse(IMPORT), {"file": map_file(), "campaign": campaign.pk})
    assert response.status_code == 400
    assert "already has a map" in response.context["form"].errors["file"][0]
    assert Territory.objects.count() == 3


def test_it_offers_only_the_organisers_campaigns_to_import_into(
    organiser_client, campaign, rival_campaign
):
    response = organiser_client.post(
        reverse(IMPORT), {"file": map_file(), "campaign": rival_campaign.pk}
    )
    assert response.status_code == 400
    assert "campaign" in response.context["form"].errors
    assert not Territory.objects.exists()


def test_it_exports_the_map_file_that_imports_back_the_same(organiser_client, campaign, mapped):
    response = organiser_client.get(reverse("admin:campaign_territory_export", args=[campaign.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="map-{campaign.pk}.json"'
    assert (
        response.content == encode(SMALL) or response.json()["territories"][0]["id"] == "hive-vell"
    )
    listing = organiser_client.get(reverse("admin:campaign_territory_changelist")).content.decode()
    assert f"Export the map of {campaign.name}" in listing


def test_it_keeps_a_rivals_map_from_an_organiser(organiser_client, rival_campaign):
    rivals = Territory.objects.create(campaign=rival_campaign, key="x", name="X", column=0, row=0)
    assert organiser_client.get(change_url(rivals)).status_code == 302
    export = reverse("admin:campaign_territory_export", args=[rival_campaign.pk])
    assert organiser_client.get(export).status_code == 404
    listing = organiser_client.get(reverse("admin:campaign_territory_changelist"))
    assert "X</a>" not in listing.content.decode()


def test_it_refuses_to_export_by_post(organiser_client, campaign, mapped):
    url = reverse("admin:campaign_territory_export", args=[campaign.pk])
    assert organiser_client.post(url).status_code == 405


def test_it_adds_a_territory_with_neighbours_of_the_same_campaign(
    organiser_client, campaign, mapped
):
    add = reverse("admin:campaign_territory_add")
    data = {**form_data(organiser_client.get(add))}
    data.update(
        campaign=campaign.pk,
        key="spire",
        name="The Spire",
        column=4,
        row=4,
        neighbours=[mapped["moon"].pk],
    )
    response = organiser_client.post(add, data)
    saved(response, "territory_changed")
    spire = Territory.objects.get(key="spire")
    assert list(mapped["moon"].neighbours.filter(pk=spire.pk)) == [spire]


def test_it_shows_a_taken_hex_next_to_the_field(organiser_client, campaign, mapped):
    response = post_change(organiser_client, change_url(mapped["moon"]), column=0, row=0)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["column"] == [
        "Hive Vell is already on that hex."
    ]


def test_it_hands_a_territory_over_with_a_reason(organiser_client, mapped, alliances):
    imperium, chaos = alliances
    url = change_url(mapped["ash-wastes"])
    refused = post_change(organiser_client, url, holder=chaos.pk, holder_reason="")
    assert refused.status_code == 200
    assert "holder_reason" in refused.context["adminform"].form.errors
    response = post_change(organiser_client, url, holder=chaos.pk, holder_reason="An uprising")
    assert response.status_code == 302
    change = TerritoryChange.objects.get()
    assert (change.held_after, change.reason) == (chaos, "An uprising")


def test_it_offers_only_the_campaigns_territories_and_alliances(
    organiser_client, campaign, mapped, rival_campaign
):
    Territory.objects.create(campaign=rival_campaign, key="x", name="Rival ground", column=0, row=0)
    Alliance.objects.create(campaign=rival_campaign, name="Orks")
    body = organiser_client.get(change_url(mapped["moon"])).content.decode()
    assert "Rival ground" not in body and "Orks" not in body


def test_it_applies_an_enabled_packs_map(organiser_client, campaign, alliances):
    section = {**SMALL["map"], "territories": SMALL["territories"]}
    pack = ContentPack.objects.create(
        slug="reach", name="Reach", source="house rules", campaign=campaign, map=section
    )
    EnabledPack.objects.create(campaign=campaign, pack=pack)
    page = organiser_client.get(reverse(IMPORT)).content.decode()
    assert f"Reach into {campaign.name}" in page
    response = organiser_client.post(reverse(IMPORT), {"pack_map": f"{campaign.pk}-{pack.pk}"})
    assert response.status_code == 302
    assert Territory.objects.filter(campaign=campaign).count() == 3


def test_it_sets_the_map_rules_on_the_campaign_page(organiser_client, campaign):
    url = reverse("admin:campaign_campaign_change", args=[campaign.pk])
    response = post_change(
        organiser_client, url, territory_rule="control_points", control_threshold=2
    )
    row = saved(response, "territory_changed")
    assert row.changes["control_threshold"] == [3, 2]


def test_it_keeps_the_map_pages_from_a_player(client, campaign):
    client.force_login(make_user("player"))
    assert client.get(reverse(IMPORT)).status_code == 302
    assert (
        client.get(reverse("admin:campaign_territory_export", args=[campaign.pk])).status_code
        == 302
    )
