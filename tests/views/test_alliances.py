"""A player's force picks its alliance on its Order of Battle: "Fight for an alliance"."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.urls import reverse

from campaign import services
from campaign.models import HistoryAction, HistoryEntry
from tests.factories import make_campaign, make_force, reload
from tests.packs.helpers import SAMPLE as SAMPLE_PACK

from .helpers import count_queries, texts

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def organiser_of(campaign):
    return campaign.memberships.get(role="organiser").user


def alliance(campaign, name="Wardens", colour="#3366cc", **extra):
    return services.define_alliance(
        actor=organiser_of(campaign), campaign=campaign, name=name, colour=colour, **extra
    )


def page(client, force) -> str:
    return client.get(reverse("force_detail", args=[force.pk])).content.decode()


def choose(client, force, value, **headers):
    return client.post(reverse("force_alliance", args=[force.pk]), {"alliance": value}, **headers)


def test_the_owner_is_offered_the_campaigns_alliances_with_colours_and_descriptions(
    client, owner, force, campaign
):
    alliance(campaign, description="Hold the gate")
    alliance(campaign, name="Raiders", colour="#aa2200")
    retired = alliance(campaign, name="Fallen", colour="#000000")
    services.retire_alliance(actor=organiser_of(campaign), alliance=retired, reason="Gone")
    client.force_login(owner)

    body = page(client, force)

    assert "Fight for an alliance" in body
    assert 'fill="#3366cc"' in body and 'fill="#aa2200"' in body
    assert "Hold the gate" in body
    assert "Fallen" not in body
    assert 'name="form_once"' in body.split('id="force-alliance"')[1]


def test_no_form_in_a_campaign_without_alliances_or_for_other_players(
    client, owner, member, force, campaign
):
    client.force_login(owner)
    assert "Fight for an alliance" not in page(client, force)

    alliance(campaign)
    client.force_login(member)
    assert "Fight for an alliance" not in page(client, force)


def test_the_owner_picks_an_alliance_and_the_page_then_shows_it(client, owner, force, campaign):
    wardens = alliance(campaign)
    client.force_login(owner)

    response = choose(client, force, wardens.pk)

    assert response.status_code == 302
    assert response.url == reverse("force_detail", args=[force.pk])
    assert texts(response) == ["Iron Crusade fights for Wardens."]
    assert reload(force).alliance == wardens
    body = page(client, force)
    assert "Fight for an alliance" not in body
    assert re.search(r'fill="#3366cc"/></svg> Wardens', body)


def test_htmx_gets_the_alliance_region_back(client, owner, force, campaign):
    wardens = alliance(campaign)
    client.force_login(owner)

    response = choose(client, force, wardens.pk, **HX)

    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="force-alliance"' in body
    assert "Iron Crusade fights for Wardens." in body
    assert "<html" not in body


@pytest.mark.parametrize("value", ["", "abc", "0", "-1", str(2**63), str(10**30)])
def test_a_choice_that_is_not_offered_is_refused_next_to_the_field(
    client, owner, force, campaign, value
):
    alliance(campaign)
    client.force_login(owner)
    history = HistoryEntry.objects.count()

    response = choose(client, force, value)

    assert response.status_code == 400
    assert "Pick one of this campaign&#x27;s alliances." in response.content.decode()
    assert reload(force).alliance is None
    assert HistoryEntry.objects.count() == history


@pytest.mark.parametrize("headers", [{}, HX])
def test_another_campaigns_or_a_retired_alliance_is_refused(
    client, owner, force, campaign, headers
):
    alliance(campaign)
    theirs = alliance(make_campaign(), name="Elsewhere")
    retired = alliance(campaign, name="Fallen")
    services.retire_alliance(actor=organiser_of(campaign), alliance=retired, reason="Gone")
    client.force_login(owner)

    for value in (theirs.pk, retired.pk):
        response = choose(client, force, value, **headers)
        assert response.status_code == 400
        assert "Pick one of this campaign&#x27;s alliances." in response.content.decode()
    assert reload(force).alliance is None


def test_once_chosen_the_player_cannot_change_it_here(client, owner, force, campaign):
    wardens, raiders = alliance(campaign), alliance(campaign, name="Raiders")
    services.choose_alliance(actor=owner, force=force, alliance=wardens)
    client.force_login(owner)

    response = choose(client, force, raiders.pk)

    assert response.status_code == 400
    assert "only an organiser can change that" in response.content.decode()
    assert reload(force).alliance == wardens


def test_another_player_gets_403_an_outsider_404_and_get_405(
    client, member, outsider, owner, force, campaign
):
    wardens = alliance(campaign)
    client.force_login(member)
    assert choose(client, force, wardens.pk).status_code == 403
    client.force_login(outsider)
    assert choose(client, force, wardens.pk).status_code == 404
    client.force_login(owner)
    assert client.get(reverse("force_alliance", args=[force.pk])).status_code == 405
    assert reload(force).alliance is None


def test_the_form_applies_once(client, owner, force, campaign):
    wardens = alliance(campaign)
    client.force_login(owner)
    token = re.search(
        r'name="form_once" value="([^"]+)"', page(client, force).split('id="force-alliance"')[1]
    ).group(1)
    data = {"alliance": wardens.pk, "form_once": token}
    url = reverse("force_alliance", args=[force.pk])

    client.post(url, data)
    again = client.post(url, data)

    assert again.status_code in (302, 303)
    assert HistoryEntry.objects.filter(action=HistoryAction.FORCE_ALLIANCE_CHANGED).count() == 1


def test_the_standings_show_each_forces_alliance(client, owner, force, campaign):
    wardens = alliance(campaign, colour="#123456")
    client.force_login(owner)
    url = reverse("campaign_detail", args=[campaign.pk])

    def force_row() -> str:
        html = client.get(url).content.decode()
        rows = html.split("<tr")
        return next(row for row in rows if f">{force.name}</a>" in row)

    assert 'fill="#123456"' not in force_row()

    services.choose_alliance(actor=owner, force=force, alliance=wardens)

    assert 'fill="#123456"' in force_row()


def test_the_force_page_asks_the_same_queries_however_many_alliances(
    client, owner, force, campaign
):
    client.force_login(owner)
    url = reverse("force_detail", args=[force.pk])
    alliance(campaign)
    count_queries(client, url)  # the units table is cached from now on
    one = count_queries(client, url)
    for n in range(5):
        alliance(campaign, name=f"Band {n}")

    assert count_queries(client, url) == one


def test_the_standings_ask_the_same_queries_however_many_forces_have_an_alliance(
    client, owner, force, campaign
):
    wardens = alliance(campaign)
    client.force_login(owner)
    url = reverse("campaign_detail", args=[campaign.pk])
    services.choose_alliance(actor=owner, force=force, alliance=wardens)
    caches["template_fragments"].clear()
    one = count_queries(client, url)
    for n in range(3):
        other = make_force(campaign=campaign, name=f"Other {n}")
        services.choose_alliance(actor=other.player, force=other, alliance=wardens)

    # Built again from nothing (the caches emptied), in as many queries.
    caches["template_fragments"].clear()
    assert count_queries(client, url) == one


def test_the_packs_page_lists_a_packs_alliances(client, owner, force, campaign):
    services.import_pack(
        actor=organiser_of(campaign), data=SAMPLE_PACK.read_bytes(), campaign=campaign
    )
    client.force_login(owner)

    body = client.get(reverse("campaign_packs", args=[campaign.pk])).content.decode()

    assert "Alliances (3)" in body
    assert 'fill="#2f6fb3"/></svg> Wardens of the Vell' in body
