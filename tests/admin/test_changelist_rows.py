"""Changelist rows built without a template per cell: the same checkbox and labels as
Django's own."""

import pytest
from django.contrib import admin
from django.urls import reverse

from campaign.admin_site import CrusadeAdminSite
from campaign.models import Battle, HistoryEntry, Unit
from tests.admin.helpers import recorded_battle
from tests.factories import make_force, make_unit

pytestmark = pytest.mark.django_db


def test_it_ticks_a_row_with_the_checkbox_django_draws(organiser, campaign):
    battle, _, _ = recorded_battle(actor=organiser, campaign=campaign)
    battles = admin.site._registry[Battle]

    assert battles.action_checkbox(battle) == admin.ModelAdmin.action_checkbox(battles, battle)


def test_it_escapes_a_rows_label_in_its_checkbox_as_django_does(campaign):
    unit = make_unit(make_force(campaign=campaign), name='Squad "Fist" & <Co>')
    units = admin.site._registry[Unit]

    drawn = units.action_checkbox(unit)

    assert drawn == admin.ModelAdmin.action_checkbox(units, unit)
    assert "&amp; &lt;Co&gt;" in drawn and "&amp;amp;" not in drawn


def test_it_names_actions_and_battle_sizes_as_their_choices_do(
    organiser, organiser_client, campaign
):
    battle, _, _ = recorded_battle(actor=organiser, campaign=campaign)
    entry = HistoryEntry.objects.filter(battle=battle).first()

    history = organiser_client.get(reverse("admin:campaign_historyentry_changelist"))
    battles = organiser_client.get(reverse("admin:campaign_battle_changelist"))

    assert entry.get_action_display() in history.content.decode()
    assert battle.get_battle_size_display() in battles.content.decode()


def test_it_sorts_the_history_and_the_battles_by_their_labelled_columns():
    history = admin.site._registry[HistoryEntry].list_display[2]
    battles = admin.site._registry[Battle].list_display[1]

    assert (history.admin_order_field, battles.admin_order_field) == ("action", "battle_size")


def test_it_filters_battles_by_period_without_a_date_hierarchy(organiser_client, campaign):
    response = organiser_client.get(
        reverse("admin:campaign_battle_changelist"), {"date__gte": "2000-01-01"}
    )

    assert response.status_code == 200
    assert response.context["cl"].date_hierarchy is None


def test_it_links_each_row_to_the_address_django_reverses(organiser, organiser_client, campaign):
    battle, _, _ = recorded_battle(actor=organiser, campaign=campaign)
    response = organiser_client.get(reverse("admin:campaign_battle_changelist"))
    changelist = response.context["cl"]

    assert changelist.url_for_result(battle) == reverse(
        "admin:campaign_battle_change", args=[battle.pk]
    )
    assert f'href="{reverse("admin:campaign_battle_change", args=[battle.pk])}"' in (
        response.content.decode()
    )


def test_it_reads_a_campaigns_battles_newest_first_from_an_index():
    indexes = {index.name: index.fields for index in Battle._meta.indexes}

    assert indexes["battle_campaign_newest"] == ["campaign", "-date", "-id"]


def test_it_draws_no_sidebar_and_builds_its_list_of_models_only_for_the_index(
    organiser_client, monkeypatch
):
    built = []
    original = admin.AdminSite._build_app_dict

    def counting(site, request, label=None):
        built.append(label)
        return original(site, request, label)

    monkeypatch.setattr(admin.AdminSite, "_build_app_dict", counting)
    changelist = organiser_client.get(reverse("admin:campaign_battle_changelist"))
    assert isinstance(admin.site._wrapped, CrusadeAdminSite)
    assert 'id="nav-sidebar"' not in changelist.content.decode()
    assert built == []

    index = organiser_client.get(reverse("admin:index"))
    assert reverse("admin:campaign_battle_changelist") in index.content.decode()
    assert built
