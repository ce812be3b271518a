"""Changelists cost the same number of queries for a small and a large campaign."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.admin.helpers import recorded_battle
from tests.factories import make_character, make_force, make_unit

pytestmark = pytest.mark.django_db


def add_forces(campaign, count: int) -> None:
    for _ in range(count):
        force = make_force(campaign=campaign)
        make_unit(force)
        make_character(force)


def queries_for(client, url: str) -> int:
    client.get(url)  # warm per-process caches (content types) first
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("model", ["crusadeforce", "unit", "historyentry", "campaign"])
def test_it_lists_5_and_30_forces_with_the_same_number_of_queries(
    organiser_client, campaign, model
):
    url = reverse(f"admin:campaign_{model}_changelist")
    add_forces(campaign, 5)
    small = queries_for(organiser_client, url)

    add_forces(campaign, 25)
    large = queries_for(organiser_client, url)

    assert small == large


def test_it_lists_2_and_6_battles_with_the_same_number_of_queries(
    organiser, organiser_client, campaign
):
    url = reverse("admin:campaign_battle_changelist")
    for _ in range(2):
        recorded_battle(actor=organiser, campaign=campaign)
    small = queries_for(organiser_client, url)

    for _ in range(4):
        recorded_battle(actor=organiser, campaign=campaign)
    large = queries_for(organiser_client, url)

    assert small == large


def test_it_shows_a_force_of_2_or_12_cards_with_the_same_number_of_queries(
    organiser_client, campaign
):
    force = make_force(campaign=campaign)
    url = reverse("admin:campaign_crusadeforce_change", args=[force.pk])
    make_unit(force)
    make_character(force)
    small = queries_for(organiser_client, url)

    for _ in range(10):
        make_unit(force)
    large = queries_for(organiser_client, url)

    assert small == large


def test_it_lists_twenty_five_units_a_page(organiser_client, campaign):
    """A league's lists run to thousands of rows: a page holds 25, the rest a click on."""
    add_forces(campaign, 15)  # 30 units
    url = reverse("admin:campaign_unit_changelist")

    first, second = organiser_client.get(url), organiser_client.get(url, {"p": 2})

    assert len(first.context["cl"].result_list) == 25
    assert len(second.context["cl"].result_list) == 5
