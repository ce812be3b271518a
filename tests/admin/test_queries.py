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


def test_a_list_as_it_opens_shows_its_pages_as_they_are_now(organiser_client, campaign):
    """The opening list's SQL is compiled once for its scope, order and slice
    (`prepared.fetch_shaped`): a look after more cards came shows them, on the page they
    fall on (the first page's slice ended at the count while it was short of a page)."""
    add_forces(campaign, 12)  # 24 units
    url = reverse("admin:campaign_unit_changelist")
    assert len(organiser_client.get(url).context["cl"].result_list) == 24
    add_forces(campaign, 3)  # 30 units
    first, second = organiser_client.get(url), organiser_client.get(url, {"p": 2})
    assert len(first.context["cl"].result_list) == 25
    assert len(second.context["cl"].result_list) == 5


def test_a_list_as_it_opens_shows_each_organiser_their_own_campaigns(
    client, organiser, campaign, rival_campaign
):
    """Two organisers, one connection: each opening list is compiled for its own scope."""
    add_forces(campaign, 1)
    add_forces(rival_campaign, 2)
    url = reverse("admin:campaign_unit_changelist")
    seen = {}
    rival = rival_campaign.memberships.get(user__username="rival").user
    for user in (organiser, rival, organiser):
        client.force_login(user)
        rows = client.get(url).context["cl"].result_list
        seen.setdefault(user.username, set()).update(u.force.campaign_id for u in rows)
        assert len(rows) == (2 if user == organiser else 4)
    assert seen == {organiser.username: {campaign.pk}, "rival": {rival_campaign.pk}}


@pytest.mark.parametrize(
    ("model", "reads"),
    [("crusadeforce", 1), ("unit", 1), ("battle", 1), ("historyentry", 1)],
)
def test_a_changelist_reads_the_organisers_campaigns_once(organiser_client, campaign, model, reads):
    """The scope (which campaigns' rows), the campaign filter's choices (their names) and
    the versions the lists' counts are kept under come from one query."""
    url = reverse(f"admin:campaign_{model}_changelist")
    add_forces(campaign, 2)
    organiser_client.get(url)
    with CaptureQueriesContext(connection) as queries:
        response = organiser_client.get(url)
    assert response.status_code == 200
    assert campaign.name in response.text
    reading_roles = [q["sql"] for q in queries if '"campaign_membership"."role"' in q["sql"]]
    assert len(reading_roles) == reads, reading_roles


def test_the_units_list_reads_the_first_forces_by_name_not_every_card(organiser_client, campaign):
    """The cards are listed by force name: the forces come by the `force_campaign_name`
    index, so a page of 25 reads the first forces' cards rather than sorting a league's
    thousands (on PostgreSQL too, at league scale: see the benchmark)."""
    add_forces(campaign, 3)
    url = reverse("admin:campaign_unit_changelist")
    organiser_client.get(url)
    with CaptureQueriesContext(connection) as queries:
        organiser_client.get(url)
    [listed] = [q["sql"] for q in queries if 'ORDER BY "campaign_crusadeforce"."name"' in q["sql"]]
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, "campaign_crusadeforce")
        assert indexes["force_campaign_name"]["columns"] == ["campaign_id", "name"]
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {listed}")
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
            assert "USING INDEX force_campaign_name" in plan, plan


def test_the_lists_action_choice_is_djangos_markup():
    """The action select is written in Python (`scope.ActionForm`), as Django's widget
    templates write it."""
    from django.contrib.admin import helpers

    from campaign.admin.scope import ActionForm

    choices = [("", "---------"), ("remove", "Remove <the> cards")]
    ours, djangos = ActionForm(auto_id=None), helpers.ActionForm(auto_id=None)
    for form in (ours, djangos):
        form.fields["action"].choices = choices
    assert str(ours["action"]) == str(djangos["action"])
    assert 'name="action"' in str(ours["action"])
