"""A mission's or Agenda's reward outside a promotion (R3.4), from the card."""

import pytest
from django.urls import reverse

from campaign.models import BattleHonour, BattleScar, HistoryEntry
from tests.factories import reload

pytestmark = pytest.mark.django_db


def reward(client, unit, category, **data):
    return client.post(reverse("unit_reward", args=[unit.pk]), {"category": category, **data})


def test_it_offers_the_reward_page_from_the_card(client, owner, unit):
    client.force_login(owner)

    card = client.get(reverse("unit_detail", args=[unit.pk])).content.decode()
    page = client.get(reverse("unit_reward", args=[unit.pk]))

    assert reverse("unit_reward", args=[unit.pk]) in card
    assert page.status_code == 200
    assert "Mission or Agenda" in page.content.decode()


def test_it_records_a_battle_scar_a_mission_inflicts(client, owner, unit):
    """R3.4: a Battle Scar outside an Out of Action test, with its reason."""
    client.force_login(owner)

    response = reward(
        client, unit, "battle_scar", reason="Agenda: Gas Attack", **{"scar-scar": "Fatigued"}
    )

    assert response.status_code == 302
    assert list(BattleScar.objects.filter(unit=unit).values_list("name", flat=True)) == ["Fatigued"]
    assert reload(unit).force.crusade_points == -1


def test_it_asks_for_the_mission_next_to_its_field_and_changes_nothing(client, owner, unit):
    """R3.4: record it with its reason."""
    client.force_login(owner)

    response = reward(client, unit, "battle_scar", reason="", **{"scar-scar": "Fatigued"})

    assert response.status_code == 400
    assert response.context["reason_form"].errors["reason"]
    assert not BattleScar.objects.exists()


@pytest.mark.parametrize(
    ("table", "trait", "given"),
    [("Infantry", "Headhunters", True), ("Vehicle", "Blessed Hull", False)],
    ids=["a-table-that-fits", "a-table-that-does-not"],
)
def test_it_records_a_battle_trait_a_mission_awards_from_a_table_that_fits(
    client, owner, unit, table, trait, given
):
    """R3.4: a Battle Honour outside a promotion, recorded with its reason; R4.4: from a
    table that fits the unit (an INFANTRY unit can't take a VEHICLE trait)."""
    client.force_login(owner)

    response = reward(
        client,
        unit,
        "trait_choose",
        reason="Mission: Hold the Line",
        **{"trait-table": table, "trait-trait": f"{table}::{trait}"},
    )

    assert response.status_code == (302 if given else 400)
    honours = list(BattleHonour.objects.filter(unit=unit).values_list("name", "promotion"))
    assert honours == ([(trait, None)] if given else [])
    if given:
        assert HistoryEntry.objects.get(action="honour_gained").reason == "Mission: Hold the Line"
