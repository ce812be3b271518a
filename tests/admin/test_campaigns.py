"""Campaigns in the admin: created and re-ruled through the services, members and custom content."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import Campaign, CustomContent, HistoryEntry, Membership
from tests.admin.helpers import form_errors, post_change, saved
from tests.factories import make_force, reload

pytestmark = pytest.mark.django_db


def campaign_url(campaign) -> str:
    return reverse("admin:campaign_campaign_change", args=[campaign.pk])


def test_it_creates_a_campaign_with_its_creator_as_organiser(organiser_client, organiser):
    response = organiser_client.post(
        reverse("admin:campaign_campaign_add"),
        {
            "name": "Vigilus Ablaze",
            "description": "",
            "starting_supply_limit": 1500,
            "starting_rp": 4,
            "rp_cap": 8,
            "supply_limit_increase": 250,
        },
    )

    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Vigilus Ablaze")
    assert (campaign.starting_supply_limit, campaign.rp_cap) == (1500, 8)
    assert campaign.memberships.get().user == organiser
    assert campaign.memberships.get().role == Membership.Role.ORGANISER
    assert HistoryEntry.objects.filter(action="campaign_created", campaign=campaign).exists()


def test_it_refuses_a_new_campaign_whose_starting_rp_is_above_its_cap(organiser_client):
    response = organiser_client.post(
        reverse("admin:campaign_campaign_add"),
        {
            "name": "Vigilus Ablaze",
            "starting_supply_limit": 1000,
            "starting_rp": 9,
            "rp_cap": 8,
            "supply_limit_increase": 200,
        },
    )

    assert form_errors(response)["starting_rp"] == ["Starting RP cannot be above the RP cap."]
    assert not Campaign.objects.filter(name="Vigilus Ablaze").exists()


def test_it_lowers_the_rp_cap_through_the_service_and_trims_every_forces_rp(
    organiser_client, campaign
):
    force = make_force(campaign=campaign)

    response = post_change(
        organiser_client, campaign_url(campaign), rp_cap=3, starting_rp=2, reason="Short campaign"
    )

    changes = {"starting_rp": [5, 2], "rp_cap": [10, 3]}
    assert saved(response, "house_rules_changed", changes=changes).reason == "Short campaign"
    assert (reload(force).rp, reload(force).rp_cap) == (3, 3)
    assert HistoryEntry.objects.filter(action="rp_cap_changed", force=force).exists()


def test_it_shows_a_house_rule_refusal_as_a_form_error(organiser_client, campaign):
    """Each number is within its bounds (an RP cap of 0 is the form's own error now); the
    service refuses how they fit together."""
    response = post_change(organiser_client, campaign_url(campaign), rp_cap=3, starting_rp=5)

    assert form_errors(response)["starting_rp"] == ["Starting RP cannot be above the RP cap."]
    assert reload(campaign).rp_cap == 10


def test_it_renames_a_campaign_with_a_history_row(organiser_client, campaign):
    response = post_change(organiser_client, campaign_url(campaign), name="Pariah Nexus II")

    assert reload(campaign).name == "Pariah Nexus II"
    saved(
        response,
        "campaign_edited",
        changes={"name": ["Pariah Nexus", "Pariah Nexus II"]},
        not_also="house_rules_changed",
    )


def test_it_refuses_to_leave_a_campaign_without_an_organiser(organiser_client, campaign):
    response = post_change(
        organiser_client, campaign_url(campaign), **{"memberships-0-role": "player"}
    )

    assert response.status_code == 200
    assert "at least one organiser" in response.content.decode()
    assert campaign.memberships.get().role == Membership.Role.ORGANISER


def test_it_requires_a_relic_category_for_a_custom_crusade_relic(organiser_client, campaign):
    url = reverse("admin:campaign_customcontent_add")
    relic = {"campaign": campaign.pk, "kind": "crusade_relic", "name": "Blade of the Nexus"}

    refused = organiser_client.post(url, relic)
    added = organiser_client.post(url, {**relic, "relic_category": "antiquity"})

    assert "needs its category" in str(form_errors(refused))
    assert added.status_code == 302
    assert CustomContent.objects.get().relic_category == "antiquity"
    assert HistoryEntry.objects.filter(action="custom_content_added").exists()


def test_it_adds_house_content_to_the_campaigns_house_rules_pack(organiser_client, campaign):
    """Custom content belongs to a pack now: the first item makes the campaign's house
    rules pack and enables it there."""
    response = organiser_client.post(
        reverse("admin:campaign_customcontent_add"),
        {
            "campaign": campaign.pk,
            "kind": "battle_trait",
            "name": "Nexus Survivor",
            "effect": "Shrugs off the first psychic wound of each battle.",
            "trait_table": "infantry",
        },
    )

    assert response.status_code == 302
    trait = CustomContent.objects.get(name="Nexus Survivor")
    assert (trait.pack.slug, trait.pack.campaign, trait.trait_table) == (
        "house-rules",
        campaign,
        "infantry",
    )
    assert campaign.enabled_packs.get().pack == trait.pack


def test_it_offers_only_the_organisers_campaigns_for_custom_content(
    organiser_client, campaign, rival_campaign
):
    form = (
        organiser_client.get(reverse("admin:campaign_customcontent_add")).context["adminform"].form
    )

    assert list(form.fields["campaign"].queryset) == [campaign]


def test_it_shows_the_last_organisers_refusal_on_that_members_row(organiser_client, campaign):
    response = post_change(
        organiser_client, campaign_url(campaign), **{"memberships-0-role": "player"}
    )

    inline = response.context["inline_admin_formsets"][0].formset
    assert inline.forms[0].errors["role"] == ["A campaign needs at least one organiser."]


def test_it_calls_the_service_once_per_save(organiser_client, monkeypatch):
    calls = []
    create = services.create_campaign
    monkeypatch.setattr(
        services, "create_campaign", lambda **kwargs: calls.append(kwargs) or create(**kwargs)
    )

    response = organiser_client.post(
        reverse("admin:campaign_campaign_add"),
        {
            "name": "Vigilus",
            "starting_supply_limit": 1000,
            "starting_rp": 5,
            "rp_cap": 10,
            "supply_limit_increase": 200,
        },
    )

    assert response.status_code == 302
    assert len(calls) == 1


def test_it_retires_custom_content_from_its_page_with_a_reason(organiser_client, campaign):
    scar = services.add_custom_content(
        actor=campaign.memberships.get().user, campaign=campaign, kind="battle_scar", name="Gas"
    )
    url = reverse("admin:campaign_customcontent_retire", args=[scar.pk])

    asked = organiser_client.get(url)
    done = organiser_client.post(url, {"apply": "yes", "reason": "Nobody liked it"})

    assert asked.status_code == 200
    assert done.status_code == 302
    assert CustomContent.objects.get(pk=scar.pk).is_retired
    assert HistoryEntry.objects.get(action="custom_content_retired").reason == "Nobody liked it"


def test_it_never_offers_to_delete_custom_content(organiser_client, campaign):
    scar = services.add_custom_content(
        actor=campaign.memberships.get().user, campaign=campaign, kind="battle_scar", name="Gas"
    )

    response = organiser_client.get(reverse("admin:campaign_customcontent_delete", args=[scar.pk]))

    assert response.status_code == 403
    assert CustomContent.objects.filter(pk=scar.pk).exists()


def test_it_retires_pack_content_ticked_in_its_list_with_a_reason(organiser_client, campaign):
    scar = services.add_custom_content(
        actor=campaign.memberships.get().user, campaign=campaign, kind="battle_scar", name="Gas"
    )

    response = organiser_client.post(
        reverse("admin:campaign_customcontent_changelist"),
        {
            "action": "retire_content",
            "_selected_action": [scar.pk],
            "apply": "yes",
            "reason": "Too strong",
        },
    )

    assert response.status_code == 302
    assert reload(scar).is_retired
    assert HistoryEntry.objects.get(action="custom_content_retired").reason == "Too strong"


def test_it_answers_a_tampered_inline_with_a_form_error(organiser_client, campaign, rival_campaign):
    """A row id from another campaign in the enabled packs inline is an error, not a 500."""
    services.add_custom_content(
        actor=rival_campaign.memberships.get().user,
        campaign=rival_campaign,
        kind="battle_scar",
        name="Rad-burns",
    )
    services.add_custom_content(
        actor=campaign.memberships.get().user, campaign=campaign, kind="battle_scar", name="Gas"
    )
    theirs = rival_campaign.enabled_packs.get()

    response = post_change(
        organiser_client,
        campaign_url(campaign),
        **{"enabled_packs-0-id": theirs.pk, "enabled_packs-0-turn_off": "on"},
    )

    assert response.status_code == 200
    assert "changed by hand" in response.content.decode()
    assert rival_campaign.enabled_packs.filter(pk=theirs.pk).exists()
    assert not HistoryEntry.objects.filter(action="pack_disabled").exists()


def test_it_answers_a_campaign_id_not_offered_with_a_form_error(
    organiser_client, campaign, rival_campaign
):
    """A tampered campaign choice on the pack content form adds nothing to the rival."""
    response = organiser_client.post(
        reverse("admin:campaign_customcontent_add"),
        {"campaign": rival_campaign.pk, "kind": "battle_scar", "name": "Stolen"},
    )

    assert "campaign" in form_errors(response)
    assert not CustomContent.objects.filter(name="Stolen").exists()
