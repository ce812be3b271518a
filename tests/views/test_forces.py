"""Force pages: create, Order of Battle, edit, history, Increase Supply Limit."""

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import services
from campaign.models import CrusadeForce, HistoryEntry, RequisitionPurchase
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user, reload

pytestmark = pytest.mark.django_db


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
def member(campaign):
    user = make_user("member")
    services.join_campaign(actor=user, user=user, campaign=campaign)
    return user


@pytest.fixture
def outsider():
    return make_user("outsider")


def texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# force_create


def test_it_creates_a_force_in_a_campaign_the_player_belongs_to(client, member, campaign):
    client.force_login(member)
    response = client.post(
        reverse("force_create"),
        {"name": "Hive Fleet Tiamat", "faction": "Tyranids", "campaign": campaign.pk},
    )
    force = CrusadeForce.objects.get(name="Hive Fleet Tiamat")
    assert response.status_code == 302
    assert response.url == reverse("force_detail", args=[force.pk])
    assert force.player == member
    assert force.campaign == campaign
    assert force.supply_limit == 1000 and force.rp == 5
    assert "Hive Fleet Tiamat is ready" in texts(response)[0]


def test_it_offers_only_the_players_campaigns(client, outsider, campaign):
    client.force_login(outsider)
    response = client.post(
        reverse("force_create"), {"name": "Sneaky", "faction": "Aeldari", "campaign": campaign.pk}
    )
    assert response.status_code == 200
    assert "campaign" in response.context["form"].errors
    assert not CrusadeForce.objects.filter(name="Sneaky").exists()


def test_it_creates_a_force_without_a_campaign(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("force_create"), {"name": "Lone", "faction": "Orks"})
    assert response.status_code == 302
    assert CrusadeForce.objects.get(name="Lone").campaign is None


def test_it_shows_errors_for_a_force_without_a_name(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("force_create"), {"name": "", "faction": "Orks"})
    assert response.status_code == 200
    assert response.context["form"].errors["name"]


def test_it_sends_anonymous_visitors_to_log_in(client, force):
    for url in [
        reverse("force_create"),
        reverse("force_detail", args=[force.pk]),
        reverse("force_edit", args=[force.pk]),
        reverse("force_history", args=[force.pk]),
    ]:
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))


# force_detail


def test_it_shows_the_order_of_battle_to_the_owner_with_controls(client, owner, force):
    make_unit(force, name="Squad Alpha", points=300)
    client.force_login(owner)
    response = client.get(reverse("force_detail", args=[force.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Squad Alpha" in body
    assert "300" in body and "1000" in body
    assert "5</strong> / 10" in body
    assert reverse("unit_create", args=[force.pk]) in body
    assert reverse("force_edit", args=[force.pk]) in body
    assert reverse("force_banner", args=[force.pk]) in body
    assert "Buy Increase Supply Limit" in body
    assert reverse("force_history", args=[force.pk]) in body


def test_it_shows_the_order_of_battle_to_a_member_without_controls(client, member, force):
    client.force_login(member)
    response = client.get(reverse("force_detail", args=[force.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert force.name in body
    assert reverse("unit_create", args=[force.pk]) not in body
    assert reverse("force_edit", args=[force.pk]) not in body
    assert reverse("force_banner", args=[force.pk]) not in body
    assert "Buy Increase Supply Limit" not in body
    assert reverse("force_history", args=[force.pk]) in body


def test_it_hides_the_force_from_outsiders(client, outsider, force):
    client.force_login(outsider)
    assert client.get(reverse("force_detail", args=[force.pk])).status_code == 404
    assert client.get(reverse("force_history", args=[force.pk])).status_code == 404


def test_it_marks_the_supply_bar_full_at_the_limit(client, owner, force):
    make_unit(force, points=1000)
    client.force_login(owner)
    body = client.get(reverse("force_detail", args=[force.pk])).content.decode()
    assert "bar bar--full" in body
    assert '1000</strong> / <span class="supply-limit">1000' in body


def test_it_shows_no_xp_units_as_na_and_removed_units_apart(client, owner, force):
    make_unit(force, name="Gribblers", is_swarm=True, points=40)
    gone = make_unit(force, name="Lost Squad")
    services.remove_unit(actor=owner, unit=gone, reason="Fell at the gate")
    client.force_login(owner)
    response = client.get(reverse("force_detail", args=[force.pk]))
    body = response.content.decode()
    assert "N/A" in body
    assert '<details class="removed">' in body
    assert "Fell at the gate" in body
    assert [u.name for u in response.context["oob"].units] == ["Gribblers"]


def _count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def _decorate(force, count):
    for i in range(count):
        unit = make_unit(force, name=f"Unit {i:03}", points=5)
        unit.honours.create(category="battle_trait", name="Headhunters")
        unit.scars.create(name="Fatigued")


def test_it_uses_the_same_number_of_queries_for_5_and_100_units(client, owner):
    small = make_force(player=owner, name="Small", faction="Orks")
    big = make_force(player=owner, name="Big", faction="Orks")
    _decorate(small, 5)
    _decorate(big, 100)
    client.force_login(owner)
    assert _count_queries(client, reverse("force_detail", args=[small.pk])) == _count_queries(
        client, reverse("force_detail", args=[big.pk])
    )


# force_edit


def test_it_lets_the_owner_edit_the_narrative(client, owner, force):
    client.force_login(owner)
    response = client.post(
        reverse("force_edit", args=[force.pk]),
        {"name": "Iron Crusade", "faction": "Adeptus Astartes", "goals": "Take the hive"},
    )
    assert response.status_code == 302
    assert reload(force).goals == "Take the hive"
    assert HistoryEntry.objects.filter(force=force, action="force_edited").exists()


def test_it_forbids_others_from_editing(client, member, outsider, force):
    client.force_login(member)
    assert client.get(reverse("force_edit", args=[force.pk])).status_code == 403
    assert client.post(reverse("force_edit", args=[force.pk]), {}).status_code == 403
    client.force_login(outsider)
    assert client.get(reverse("force_edit", args=[force.pk])).status_code == 404


# force_history


def test_it_lists_history_with_numbers_before_and_after(client, member, force, owner):
    services.increase_supply_limit(actor=owner, force=force)
    client.force_login(member)
    body = client.get(reverse("force_history", args=[force.pk])).content.decode()
    assert "Supply limit" in body
    assert "1000 → 1200" in body
    assert "owner" in body


# POST-only URLs


@pytest.mark.parametrize("name", ["force_banner", "force_requisition"])
def test_it_refuses_get_on_post_only_urls(client, owner, force, name):
    client.force_login(owner)
    kwargs = {"pk": force.pk}
    if name == "force_requisition":
        kwargs["requisition"] = "increase_supply_limit"
    assert client.get(reverse(name, kwargs=kwargs)).status_code == 405


# force_requisition


def _buy_url(force, requisition="increase_supply_limit"):
    return reverse("force_requisition", args=[force.pk, requisition])


def test_it_buys_increase_supply_limit(client, owner, force):
    client.force_login(owner)
    response = client.post(_buy_url(force))
    force = reload(force)
    assert response.status_code == 302
    assert (force.supply_limit, force.rp) == (1200, 4)
    assert texts(response) == [
        "Bought Increase Supply Limit for 1RP: your Supply Limit is now 1200."
    ]


def test_it_returns_the_summary_partials_to_htmx(client, owner, force):
    client.force_login(owner)
    response = client.post(_buy_url(force), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert '<section class="force-card" id="force-summary"' in body
    assert 'id="force-requisitions"' in body and 'hx-swap-oob="true"' in body
    assert "<html" not in body
    assert "1200" in body and "4</strong> / 10" in body
    assert reload(force).rp == 4


def test_it_refuses_without_enough_rp_and_changes_nothing(client, owner, force):
    for _ in range(5):
        services.increase_supply_limit(actor=owner, force=force)
    client.force_login(owner)
    response = client.post(_buy_url(force), HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "That needs 1RP; you have 0RP." in response.content.decode()
    assert reload(force).supply_limit == 2000
    assert RequisitionPurchase.objects.filter(force=force).count() == 5

    response = client.post(_buy_url(force))
    assert response.status_code == 302
    assert texts(response) == ["That needs 1RP; you have 0RP."]


@pytest.mark.parametrize("requisition", ["fresh_recruits", "renowned_heroes", "nonsense"])
def test_it_404s_for_requisitions_that_are_not_force_level(client, owner, force, requisition):
    client.force_login(owner)
    assert client.post(_buy_url(force, requisition)).status_code == 404
    assert reload(force).rp == 5


def test_it_forbids_members_and_hides_from_outsiders_buying(client, member, outsider, force):
    client.force_login(member)
    assert client.post(_buy_url(force)).status_code == 403
    client.force_login(outsider)
    assert client.post(_buy_url(force)).status_code == 404
    assert reload(force).rp == 5


def test_it_lists_pending_promotions_on_the_order_of_battle(client, owner, force):
    hero = make_character(force, name="Captain Varro")
    hero.promotions.create(rank=1)
    client.force_login(owner)
    body = client.get(reverse("force_detail", args=[force.pk])).content.decode()
    assert "Promotion to settle" in body
