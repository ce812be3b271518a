"""The campaign's content page (R11): the core rules and every enabled pack, each with
what it brings, for the campaign's members to read before a battle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from campaign import services
from tests.factories import make_campaign, make_user
from tests.packs.helpers import sample

pytestmark = pytest.mark.django_db

SAMPLE = Path("docs/sample-house-pack.json")


def url(campaign) -> str:
    return reverse("campaign_packs", args=[campaign.pk])


def organiser_of(campaign):
    return campaign.memberships.get(role="organiser").user


def a_pack(n: int) -> bytes:
    """The sample pack under another slug and name, with an upgrade and a Requisition
    that gives it, a unit counter and a Battle Traits table of its own."""
    data = sample()
    data["pack"].update(slug=f"book-{n}", name=f"Book {n}")
    data["upgrades"] = [
        {
            "id": "blessed-hull",
            "name": "Blessed Hull",
            "effect": "A tougher hull.",
            "crusade_points": 1,
        }
    ]
    data["requisitions"].append(
        {
            "id": "consecrate",
            "name": "Consecrate",
            "effect": "A priest blesses the unit's hull.",
            "cost": 2,
            "cost_in": "rp",
            "timing": "before_battle",
            "target": "unit",
            "effect_kind": "upgrade",
            "upgrade": "blessed-hull",
        }
    )
    data["counters"].append(
        {"id": "zeal", "name": "Zeal", "per": "unit", "start": 1, "least": 0, "most": 5}
    )
    data["battle_traits"] = [
        {
            "id": "hive-fleet",
            "name": "Hive fleet",
            "entries": [{"id": "swarm-born", "name": "Swarm-born", "effect": "Moves as one."}],
        }
    ]
    data["crusade_relics"] = [
        {"id": "old-banner", "name": "Old Banner", "category": "antiquity", "effect": "Flies."}
    ]
    data["battle_scars"] = [{"id": "limp", "name": "Limp", "effect": "Moves 1 inch less."}]
    return json.dumps(data).encode()


def test_it_shows_a_member_the_core_rules_and_every_enabled_pack(client, campaign, member):
    organiser = organiser_of(campaign)
    services.import_pack(actor=organiser, data=a_pack(1), campaign=campaign)
    client.force_login(member)

    response = client.get(url(campaign))

    assert response.status_code == 200
    html = response.content.decode()
    assert [s.pack.pack.name for s in response.context["sections"]] == ["Core rules", "Book 1"]
    for text in (
        "Hold the Beacon",
        "2 XP each time it is achieved",
        "at most 2 per battle",
        "3 or more Crusade points behind: 1 Blessing",
        "costs 3 Salvage; bought after a battle; for one unit",
        "costs 2 RP; bought before a battle; for one unit; gives the upgrade Blessed Hull",
        "+1 Crusade point",
        "Hive fleet",
        "Swarm-born",
        "Old Banner",
        "Antiquity",
        "Limp",
        "per force; starts at 0; from 0 to 20",
        "per unit; starts at 1; from 0 to 5",
        "Increase Supply Limit",
        "Deadly Combatant",
        "always on",
    ):
        assert text in html, text


def test_it_folds_each_pack_and_section_so_it_reads_without_javascript(client, campaign, member):
    services.import_pack(actor=organiser_of(campaign), data=a_pack(1), campaign=campaign)
    client.force_login(member)

    html = client.get(url(campaign)).content.decode()

    assert html.count('<details class="pack"') == 2
    assert "<summary>Agendas (3)</summary>" in html
    assert "<script" not in html.split("<main", 1)[1].split("</main>", 1)[0]


def test_it_leaves_out_a_pack_the_campaign_has_not_enabled_and_retired_items(
    client, campaign, member
):
    organiser = organiser_of(campaign)
    services.import_pack(actor=None, data=a_pack(1))
    mine = services.import_pack(actor=organiser, data=a_pack(2), campaign=campaign)
    services.retire_custom_content(actor=organiser, content=mine.items.get(key="limp"))
    client.force_login(member)

    response = client.get(url(campaign))

    assert [s.pack.pack.name for s in response.context["sections"]] == ["Core rules", "Book 2"]
    assert "Limp" not in response.content.decode()


def test_it_hides_the_page_from_a_player_of_another_campaign(client, campaign):
    services.import_pack(actor=organiser_of(campaign), data=a_pack(1), campaign=campaign)
    outsider = make_user("outsider")
    services.join_campaign(actor=outsider, user=outsider, campaign=make_campaign())
    client.force_login(outsider)

    response = client.get(url(campaign))

    assert response.status_code == 404
    assert "Book 1" not in response.content.decode()


def test_it_links_the_page_from_the_campaign_page(client, campaign, member):
    client.force_login(member)

    response = client.get(reverse("campaign_detail", args=[campaign.pk]))

    assert url(campaign) in response.content.decode()


def test_it_offers_the_organiser_the_admin_to_change_the_packs(client, campaign, member):
    admin_url = reverse("admin:campaign_campaign_change", args=[campaign.pk])
    client.force_login(member)
    as_member = client.get(url(campaign)).content.decode()
    client.force_login(organiser_of(campaign))
    as_organiser = client.get(url(campaign)).content.decode()

    assert admin_url not in as_member
    assert admin_url in as_organiser


@pytest.mark.parametrize("how_many", [1, 3])
def test_it_reads_the_page_in_the_same_queries_whatever_the_packs(
    client, campaign, member, django_assert_num_queries, how_many
):
    organiser = organiser_of(campaign)
    for n in range(how_many):
        services.import_pack(actor=organiser, data=a_pack(n), campaign=campaign)
    client.force_login(member)
    client.get(url(campaign))

    # the session with its user, the campaign with the viewer's role, the packs, their items
    with django_assert_num_queries(4):
        response = client.get(url(campaign))

    assert len(response.context["sections"]) == how_many + 1


def test_it_refuses_a_post(client, campaign, member):
    client.force_login(member)

    assert client.post(url(campaign)).status_code == 405
