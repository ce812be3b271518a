"""Phases and Campaign Points in the campaign's admin: defined, advanced and scored
through the services, each change a history row."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import Campaign, HistoryEntry, Phase
from tests.admin.helpers import form_data, post_change, saved
from tests.admin.test_number_bounds import number_fields
from tests.factories import reload

pytestmark = pytest.mark.django_db


def campaign_url(campaign) -> str:
    return reverse("admin:campaign_campaign_change", args=[campaign.pk])


def test_it_adds_a_phase_through_the_service(organiser_client, campaign):
    response = post_change(
        organiser_client,
        campaign_url(campaign),
        **{
            "phases-0-name": "Landfall",
            "phases-0-narrative": "The fleet arrives.",
            "phases-0-battle_size": "Incursion",
            "phases-0-points_limit": "900",
        },
    )

    row = saved(response, "phase_changed")
    assert row.campaign_id == campaign.pk and row.force_id is None
    phase = Phase.objects.get(campaign=campaign)
    assert (phase.position, phase.name, phase.battle_size, phase.points_limit) == (
        1,
        "Landfall",
        "Incursion",
        900,
    )


def test_it_edits_a_phase_through_the_service(organiser, organiser_client, campaign):
    phase = services.define_phase(actor=organiser, campaign=campaign, name="Landfall")
    url = campaign_url(campaign)
    data = form_data(organiser_client.get(url))
    data["phases-0-name"] = "The Landing"

    response = organiser_client.post(url, data)

    assert response.status_code == 302
    assert reload(phase).name == "The Landing"
    assert HistoryEntry.objects.filter(action="phase_changed").count() == 2


def test_it_shows_a_phase_refusal_next_to_its_field(organiser_client, campaign):
    response = post_change(
        organiser_client,
        campaign_url(campaign),
        **{"phases-0-name": "Landfall", "phases-0-points_limit": "0"},
    )

    assert response.status_code == 200
    forms = [
        f for inline in response.context["inline_admin_formsets"] for f in inline.formset.forms
    ]
    assert any("points_limit" in form.errors for form in forms)
    assert not Phase.objects.exists()


def test_it_sets_the_scoring_through_the_service(organiser_client, campaign):
    response = post_change(
        organiser_client,
        campaign_url(campaign),
        points_for_win="4",
        points_for_taking="2",
        scoring_reason="Ground matters",
    )

    row = saved(response, "scoring_changed", not_also="house_rules_changed")
    assert row.reason == "Ground matters"
    assert row.changes == {"points_for_win": [3, 4], "points_for_taking": [1, 2]}
    assert (reload(campaign).points_for_win, reload(campaign).points_for_taking) == (4, 2)


def test_it_says_that_past_battles_keep_their_points(organiser_client, campaign):
    html = organiser_client.get(campaign_url(campaign)).content.decode()

    assert "battles already completed keep the points they scored" in html


def test_it_starts_the_next_phase_from_the_list_of_campaigns(organiser, organiser_client, campaign):
    services.define_phase(actor=organiser, campaign=campaign, name="Landfall")
    url = reverse("admin:campaign_campaign_changelist")
    chosen = {"action": "advance_phase", "_selected_action": [campaign.pk]}

    asked = organiser_client.post(url, chosen)
    done = organiser_client.post(url, {**chosen, "apply": "yes", "reason": "Day one"})

    assert asked.status_code == 200
    assert done.status_code == 302
    assert reload(campaign).current_phase.name == "Landfall"
    assert HistoryEntry.objects.get(action="phase_advanced").reason == "Day one"


def test_it_shows_why_the_next_phase_cannot_start(organiser_client, campaign):
    url = reverse("admin:campaign_campaign_changelist")
    data = {"action": "advance_phase", "_selected_action": [campaign.pk], "apply": "yes"}

    response = organiser_client.post(url, {**data, "reason": "Go"}, follow=True)

    assert "no phases yet" in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).current_phase is None


def test_it_shows_only_the_organisers_own_campaigns_phases(
    organiser_client, campaign, rival_campaign
):
    rival = rival_campaign.memberships.get().user
    services.define_phase(actor=rival, campaign=rival_campaign, name="Their secret")

    assert organiser_client.get(campaign_url(rival_campaign)).status_code in (302, 404)
    assert "Their secret" not in organiser_client.get(campaign_url(campaign)).content.decode()


def test_the_bounds_walk_reaches_the_phases_and_the_scoring(organiser_client, campaign):
    """tests/admin/test_number_bounds.py walks every admin form: these numbers too."""
    names = {field.name for field in number_fields(organiser_client, [campaign_url(campaign)])}

    assert {"points_limit", *Campaign.SCORING_FIELDS} <= names
