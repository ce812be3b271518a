"""Forces and cards in the admin: numbers change only as corrections, through the services."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import HistoryEntry, Unit
from tests.admin.helpers import form_data, form_errors, post_change, saved
from tests.factories import make_character, make_force, make_unit, make_user, reload

pytestmark = pytest.mark.django_db


def force_url(force) -> str:
    return reverse("admin:campaign_crusadeforce_change", args=[force.pk])


def unit_url(unit) -> str:
    return reverse("admin:campaign_unit_change", args=[unit.pk])


@pytest.fixture
def force(campaign):
    force = make_force(campaign=campaign, name="Ultramarines 2nd Company")
    make_unit(force, name="Intercessors Alpha", points=80)
    return force


def test_it_corrects_rp_through_the_force_form_and_records_the_reason(
    organiser, organiser_client, force
):
    response = post_change(
        organiser_client, force_url(force), rp=8, reason="Agenda reward missed last week"
    )

    entry = saved(response, "force_corrected", changes={"rp": [5, 8]})
    assert (entry.force, entry.actor) == (force, organiser)
    assert entry.reason == "Agenda reward missed last week"
    assert reload(force).rp == 8


def test_it_refuses_a_correction_without_a_reason_and_changes_nothing(organiser_client, force):
    response = post_change(organiser_client, force_url(force), rp=8, name="Renamed", reason="")

    assert "Say why this correction is made" in form_errors(response)["reason"][0]
    force = reload(force)
    assert (force.rp, force.name) == (5, "Ultramarines 2nd Company")
    assert not HistoryEntry.objects.filter(action__in=["force_corrected", "force_edited"]).exists()


def test_it_shows_rp_above_the_cap_as_a_form_error_not_a_500(organiser_client, force):
    response = post_change(organiser_client, force_url(force), rp=11, reason="Typo fix")

    assert form_errors(response)["rp"] == ["RP must be between 0 and 10."]
    assert reload(force).rp == 5


def test_it_refuses_a_supply_limit_below_the_points_already_used(organiser_client, force):
    response = post_change(organiser_client, force_url(force), supply_limit=50, reason="Oops")

    assert "already use 80 points" in form_errors(response)["supply_limit"][0]


def test_it_saves_narrative_without_a_reason_through_the_details_service(organiser_client, force):
    response = post_change(organiser_client, force_url(force), vendettas="The Red Corsairs")

    saved(
        response,
        "force_edited",
        changes={"vendettas": ["", "The Red Corsairs"]},
        not_also="force_corrected",
    )
    assert reload(force).vendettas == "The Red Corsairs"


def test_it_shows_the_order_of_battle_read_only_with_links_to_each_card(organiser_client, force):
    unit = force.units.get()

    html = organiser_client.get(force_url(force)).content.decode()

    assert f'href="{unit_url(unit)}"' in html
    assert "Battle-ready" in html
    assert 'name="units-0-points"' not in html


def test_it_lists_forces_with_supply_used_and_rp_against_the_cap(organiser_client, force):
    html = organiser_client.get(reverse("admin:campaign_crusadeforce_changelist")).content.decode()

    assert "80 / 1000" in html
    assert "5 / 10" in html


def test_it_searches_forces_by_player_username(organiser_client, campaign, force):
    make_force(campaign=campaign, player=make_user("bob"), name="Goff Warband")

    response = organiser_client.get(reverse("admin:campaign_crusadeforce_changelist"), {"q": "bob"})

    assert [f.name for f in response.context["cl"].result_list] == ["Goff Warband"]


def test_it_adds_a_force_through_the_service_with_the_campaigns_starting_numbers(
    organiser_client, campaign
):
    services.set_house_rules(actor=None, campaign=campaign, starting_rp=3)
    player = make_user("alice")
    services.join_campaign(actor=player, user=player, campaign=campaign)

    response = organiser_client.post(
        reverse("admin:campaign_crusadeforce_add"),
        {"player": player.pk, "campaign": campaign.pk, "name": "Dark Angels", "faction": "DA"},
    )

    assert response.status_code == 302
    force = campaign.forces.get()
    assert (force.player, force.rp, force.supply_limit) == (player, 3, 1000)
    assert HistoryEntry.objects.filter(action="force_created", force=force).exists()


def test_it_refuses_a_force_for_a_player_outside_the_campaign(organiser_client, campaign):
    outsider = make_user("alice")
    services.join_campaign(actor=outsider, user=outsider, campaign=campaign)
    campaign.memberships.filter(user=outsider).delete()

    response = organiser_client.post(
        reverse("admin:campaign_crusadeforce_add"),
        {"player": outsider.pk, "campaign": campaign.pk, "name": "Dark Angels", "faction": "DA"},
    )

    assert response.status_code == 200
    assert not campaign.forces.exists()


def test_it_corrects_a_units_datasheet_and_xp_with_a_reason(organiser_client, force):
    unit = force.units.get()

    response = post_change(
        organiser_client,
        unit_url(unit),
        datasheet="Heavy Intercessor Squad",
        xp=7,
        reason="Conversion rule from the campaign book",
    )

    saved(
        response,
        "unit_corrected",
        changes={"datasheet": ["Intercessor Squad", "Heavy Intercessor Squad"], "xp": [0, 7]},
    )
    unit = reload(unit)
    assert (unit.datasheet, unit.xp, unit.rank.label) == ("Heavy Intercessor Squad", 7, "Blooded")


def test_it_refuses_xp_above_the_cap_of_a_unit_that_is_not_a_character(organiser_client, force):
    unit = force.units.get()

    response = post_change(organiser_client, unit_url(unit), xp=31, reason="Bonus")

    assert form_errors(response)["xp"] == ["This unit's XP cannot go above 30."]
    assert reload(unit).xp == 0


def test_it_refuses_a_unit_without_models_as_a_form_error(organiser_client, force):
    unit = force.units.get()

    response = post_change(organiser_client, unit_url(unit), model_count=0, reason="Casualties")

    assert "model_count" in form_errors(response)


def test_it_renames_a_card_without_a_reason(organiser_client, force):
    unit = force.units.get()

    response = post_change(organiser_client, unit_url(unit), name="Intercessors Bravo")

    assert response.status_code == 302
    assert reload(unit).name == "Intercessors Bravo"
    assert HistoryEntry.objects.filter(action="unit_edited", unit=unit).exists()


def test_it_adds_a_unit_through_the_service_within_the_supply_limit(organiser_client, force):
    url = reverse("admin:campaign_unit_add")
    data = form_data(organiser_client.get(url))
    data.update(
        force=force.pk,
        name="Redemptor",
        datasheet="Redemptor Dreadnought",
        points=950,
        faction_keywords="Adeptus Astartes",
    )

    refused = organiser_client.post(url, data)
    data["points"] = 210
    added = organiser_client.post(url, data)

    assert "Supply" in str(form_errors(refused)["points"])
    assert added.status_code == 302
    unit = force.units.get(name="Redemptor")
    assert (unit.xp, unit.points) == (0, 210)
    assert HistoryEntry.objects.filter(action="unit_added", unit=unit).exists()


def test_it_shows_rank_xp_and_crusade_points_in_the_unit_list(organiser_client, force):
    make_character(force, name="Chaplain Dreadnought", is_epic_hero=True, points=100)

    html = organiser_client.get(reverse("admin:campaign_unit_changelist")).content.decode()

    assert "N/A" in html
    assert "Battle-ready" in html


def test_it_filters_units_by_rank_and_keyword(organiser_client, force):
    veteran = make_character(force, name="Captain Acheran")
    services.correct_unit(actor=None, unit=veteran, reason="Imported", xp=20)
    url = reverse("admin:campaign_unit_changelist")

    hardened = organiser_client.get(url, {"rank": "2"}).context["cl"].result_list
    characters = organiser_client.get(url, {"keyword": "is_character"}).context["cl"].result_list

    assert [u.name for u in hardened] == ["Captain Acheran"]
    assert [u.name for u in characters] == ["Captain Acheran"]


def test_it_does_not_offer_delete_for_units(organiser_client, force):
    unit = force.units.get()

    changelist = organiser_client.get(reverse("admin:campaign_unit_changelist"))
    change = organiser_client.get(unit_url(unit))
    delete = organiser_client.post(reverse("admin:campaign_unit_delete", args=[unit.pk]))

    assert (
        "delete_selected" not in changelist.context["action_form"].fields["action"].choices[1:][0]
    )
    assert not change.context["has_delete_permission"]
    assert "deletelink" not in change.content.decode()
    assert delete.status_code == 403
    assert Unit.objects.filter(pk=unit.pk).exists()


def test_it_removes_units_from_the_order_of_battle_with_a_reason(organiser_client, force):
    unit = force.units.get()
    url = reverse("admin:campaign_unit_changelist")
    chosen = {"action": "remove_from_order_of_battle", "_selected_action": [unit.pk]}

    asked = organiser_client.post(url, chosen)

    assert asked.status_code == 200
    assert asked.context["form"]["reason"].value() == "Removed by organiser"
    assert reload(unit).status == "active"

    done = organiser_client.post(url, {**chosen, "apply": "yes", "reason": "Sold the models"})

    assert done.status_code == 302
    unit = reload(unit)
    assert (unit.status, unit.removed_reason) == ("removed", "Sold the models")
    assert reload(force).supply_used == 0


def test_it_shows_a_removed_card_read_only(organiser_client, force):
    unit = services.remove_unit(actor=None, unit=force.units.get(), reason="Sold")

    page = organiser_client.get(unit_url(unit))
    posted = organiser_client.post(unit_url(unit), {"name": "Back again"})

    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    assert posted.status_code == 403
    assert reload(unit).name == "Intercessors Alpha"
