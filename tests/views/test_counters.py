"""Pack counters and pack Requisitions on the force page and the cards (R6, R7, R11.4)."""

from html import unescape

import pytest
from django.core.cache import caches
from django.urls import reverse

from campaign import once, services
from campaign.models import CustomContent, PackRequisitionPurchase
from tests.counter_packs import item, organiser_of, with_sample_pack, with_veteran_pack
from tests.factories import make_campaign, make_force, make_unit, make_user, reload
from tests.views.test_once import sent

from .helpers import count_queries, texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return make_user("owner")


@pytest.fixture
def campaign():
    return with_veteran_pack(with_sample_pack(make_campaign()))


@pytest.fixture
def force(owner, campaign):
    return make_force(player=owner, campaign=campaign, name="Scrap Kings")


@pytest.fixture
def unit(force):
    return make_unit(force, name="Standard Bearers")


def force_buy(force, key: str) -> str:
    return reverse("force_pack_requisition", args=[force.pk, item(key).pk])


def unit_buy(unit, key: str) -> str:
    return reverse("unit_pack_requisition", args=[unit.pk, item(key).pk])


def correct(force, key: str, value: int, unit=None) -> None:
    services.correct_counter(
        actor=organiser_of(force.campaign),
        force=force,
        unit=unit,
        counter=item(key, CustomContent.Kind.COUNTER),
        value=value,
        reason="Paper records",
    )


def test_it_shows_the_forces_counters_and_the_packs_requisitions(client, owner, force):
    """R11.4: the force page shows Salvage and Honour, and the force's pack Requisitions."""
    client.force_login(owner)

    page = client.get(reverse("force_detail", args=[force.pk])).content.decode()

    assert "Salvage" in page and "Honour" in page
    assert "Scavenging Party" in page and "1RP" in page
    assert force_buy(force, "scavenging-party") in page
    assert "Raise a Pennant" not in page  # a unit's Requisition is on its card


def test_it_buys_a_pack_requisition_from_the_force_page(client, owner, force):
    """R6: 1RP paid and 2 Salvage gained; the player is told what it did."""
    client.force_login(owner)
    rp = force.rp

    response = client.post(force_buy(force, "scavenging-party"))

    assert response.status_code == 302
    assert reload(force).rp == rp - 1
    assert "Bought Scavenging Party for 1RP" in texts(response)[-1]
    page = client.get(reverse("force_detail", args=[force.pk])).content.decode()
    assert '<strong class="counter__value">2</strong>' in page


def test_it_refuses_with_the_numbers_and_a_400(client, owner, force, unit):
    """R6: Field Workshop costs 3 Salvage; the force has none."""
    client.force_login(owner)

    response = client.post(unit_buy(unit, "field-workshop"))

    assert response.status_code == 400
    assert "It costs 3 Salvage; the force has 0" in response.content.decode()
    assert not PackRequisitionPurchase.objects.exists()


def test_it_refuses_a_pack_requisition_during_a_battle(client, owner, force):
    """R6 and R9's timing decision: the page says why, and nothing is bought."""
    services.start_battle(
        actor=owner, force=force, battle_size="Incursion", campaign=force.campaign
    )
    client.force_login(owner)

    response = client.post(force_buy(force, "scavenging-party"))

    assert response.status_code == 400
    assert "while a battle is being fought" in response.content.decode()
    assert not PackRequisitionPurchase.objects.exists()


def test_it_shows_an_upgrade_with_its_crusade_points_on_the_card(client, owner, force, unit):
    """R7: the card shows Battle Pennant (2 Crusade points) and counts them."""
    correct(force, "honour", 2)
    client.force_login(owner)

    assert client.post(unit_buy(unit, "raise-pennant")).status_code == 302

    card = client.get(reverse("unit_detail", args=[unit.pk]))
    page = card.content.decode()
    assert "Battle Pennant" in page and "2 Crusade points" in page
    assert card.context["unit"].crusade_points == 2
    assert "Raise a Pennant (" in page  # the purchase, with its date and cost


def test_it_shows_a_units_counter_on_its_card(client, owner, force, unit):
    correct(force, "glory", 3, unit=unit)
    client.force_login(owner)

    page = client.get(reverse("unit_detail", args=[unit.pk])).content.decode()

    assert "Glory" in page and '<strong class="counter__value">3</strong>' in page


def test_it_shows_a_changed_counter_on_a_card_looked_at_before_at_once(client, owner, force, unit):
    other = make_unit(force, name="Other")
    client.force_login(owner)
    for card in (unit, other):  # both cards and the packs' items are now cached
        client.get(reverse("unit_detail", args=[card.pk]))

    correct(force, "glory", 3, unit=unit)
    page = client.get(reverse("unit_detail", args=[unit.pk])).content.decode()

    assert '<strong class="counter__value">3</strong>' in page


def test_it_buys_once_when_the_same_form_is_sent_twice(client, owner, force):
    """The once-token: a double click pays 1RP once."""
    client.force_login(owner)
    page = reverse("force_detail", args=[force.pk])
    buy = force_buy(force, "scavenging-party")
    data = sent(client.get(page), buy)

    first = client.post(buy, data)
    second = client.post(buy, data)

    assert first.status_code == 302
    assert (second.status_code, texts(second)[-1]) == (303, once.ALREADY_DONE)
    assert PackRequisitionPurchase.objects.count() == 1


def test_it_refuses_a_requisition_of_another_campaigns_pack(client, owner):
    """The item must be one of the force's campaign's packs."""
    with_sample_pack(make_campaign(name="Other"))
    mine = make_force(player=owner, campaign=make_campaign(name="Plain"))
    client.force_login(owner)
    other = CustomContent.objects.filter(key="scavenging-party").first()

    response = client.post(reverse("force_pack_requisition", args=[mine.pk, other.pk]))

    assert response.status_code == 400
    assert "not one of this campaign's Requisitions" in unescape(response.content.decode())


def test_it_keeps_the_force_page_queries_the_same_for_5_and_50_units_with_packs(
    client, owner, campaign
):
    forces = [make_force(player=owner, campaign=campaign, name=f"Force {n}") for n in (5, 50)]
    for force, size in zip(forces, (5, 50), strict=True):
        for n in range(size):
            make_unit(force, name=f"Squad {n}", points=5)
    client.force_login(owner)

    small, big = (count_queries(client, reverse("force_detail", args=[f.pk])) for f in forces)

    assert small == big


def test_it_asks_one_query_more_for_a_force_page_with_pack_content(client, owner, force):
    """A force whose campaign has no pack counters or Requisitions asks nothing more (the
    Order of Battle's 3 when cached); one with them asks once more for all of it, and
    nothing more when looked at again until the force or its campaign changes."""
    plain = make_force(player=owner, campaign=make_campaign(name="Plain"), name="Plain")
    # The sample pack brings alliances too: fighting for one, the force is offered none
    # (the offer asks its own query, tests/views/test_alliances.py).
    wardens = force.campaign.alliances.first()
    services.choose_alliance(actor=owner, force=force, alliance=wardens)
    client.force_login(owner)
    urls = [reverse("force_detail", args=[f.pk]) for f in (plain, force)]
    first = [count_queries(client, url) for url in urls]
    again = [count_queries(client, url) for url in urls]

    assert (first, again) == ([4, 5], [2, 2])


def test_it_keeps_the_card_queries_the_same_with_or_without_upgrades(client, owner, force):
    plain, decorated = make_unit(force, name="Plain"), make_unit(force, name="Decorated")
    correct(force, "honour", 5)
    correct(force, "glory", 2, unit=decorated)
    services.buy_pack_requisition(actor=owner, unit=decorated, requisition=item("raise-pennant"))
    client.force_login(owner)

    def first_look(unit) -> int:
        for cache in caches.all():  # the packs' items are cached for every card
            cache.clear()
        return count_queries(client, reverse("unit_detail", args=[unit.pk]))

    assert first_look(plain) == first_look(decorated)


def test_it_prints_a_cards_upgrade_with_its_crusade_points(client, owner, force, unit):
    """R2.1: a card holds its requisition upgrades; R7: with their Crusade points."""
    correct(force, "honour", 2)
    services.buy_pack_requisition(actor=owner, unit=unit, requisition=item("raise-pennant"))
    client.force_login(owner)

    page = client.get(reverse("force_print", args=[force.pk])).content.decode()

    assert "Battle Pennant (2 Crusade points)" in page


def test_it_shows_a_corrected_counter_on_the_next_look_at_the_force_page(client, owner, force):
    """R11.4: the counters the page kept from the last look give way to the organiser's
    correction at once (the correction moves the force's revision on)."""
    client.force_login(owner)
    url = reverse("force_detail", args=[force.pk])
    seven = '<strong class="counter__value">7</strong>'
    assert seven not in client.get(url).content.decode()

    correct(force, "salvage", 7)

    assert seven in client.get(url).content.decode()
