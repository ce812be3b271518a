"""The campaign's log in the organisers' admin: their campaigns' entries only, hidden or
shown again with a reason kept, never deleted, added or edited here."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import HistoryEntry, LogEntry
from tests.factories import make_force, make_user, reload

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:campaign_logentry_changelist")


def entry_in(campaign, title="The siege begins"):
    player = make_user()
    make_force(player=player, campaign=campaign)
    return services.write_log_entry(
        actor=player, campaign=campaign, title=title, text="The guns spoke."
    )


def test_it_lists_only_the_organisers_campaigns_entries(organiser_client, campaign, rival_campaign):
    mine, theirs = entry_in(campaign, "Ours"), entry_in(rival_campaign, "Theirs")

    response = organiser_client.get(CHANGELIST)

    assert list(response.context["cl"].result_list) == [mine]
    change = reverse("admin:campaign_logentry_change", args=[theirs.pk])
    assert organiser_client.get(change).status_code in (302, 403, 404)


def test_it_hides_an_entry_after_asking_for_the_reason_and_shows_it_again(
    organiser, organiser_client, campaign
):
    entry = entry_in(campaign)
    chosen = {"action": "hide_log_entries", "_selected_action": [entry.pk]}

    asked = organiser_client.post(CHANGELIST, chosen)
    assert asked.status_code == 200
    assert "confirm-with-reason" in asked.content.decode()
    assert not reload(entry).is_hidden

    blank = organiser_client.post(CHANGELIST, {**chosen, "apply": "yes", "reason": ""})
    assert blank.status_code == 200 and blank.context["form"].errors["reason"]
    assert not reload(entry).is_hidden

    done = organiser_client.post(CHANGELIST, {**chosen, "apply": "yes", "reason": "Spoiler"})
    assert done.status_code == 302
    entry = reload(entry)
    assert (entry.status, entry.hidden_reason, entry.hidden_by) == ("hidden", "Spoiler", organiser)
    assert HistoryEntry.objects.get(action="log_entry_hidden").reason == "Spoiler"

    organiser_client.post(
        CHANGELIST,
        {
            "action": "show_log_entries",
            "_selected_action": [entry.pk],
            "apply": "yes",
            "reason": "The finale is over",
        },
    )
    assert not reload(entry).is_hidden
    assert HistoryEntry.objects.get(action="log_entry_shown").reason == "The finale is over"


def test_it_never_deletes_adds_or_edits_an_entry(organiser_client, campaign):
    entry = entry_in(campaign)
    change = reverse("admin:campaign_logentry_change", args=[entry.pk])

    page = organiser_client.get(change)
    actions = organiser_client.get(CHANGELIST).context["action_form"].fields["action"].choices

    assert page.status_code == 200
    assert "delete_selected" not in dict(actions)
    assert organiser_client.get(reverse("admin:campaign_logentry_add")).status_code == 403
    delete = reverse("admin:campaign_logentry_delete", args=[entry.pk])
    assert organiser_client.post(delete, {"post": "yes"}).status_code == 403
    organiser_client.post(change, {"title": "Changed", "text": "Changed"})
    assert reload(entry).title == "The siege begins"
    assert LogEntry.objects.count() == 1


def test_a_player_who_is_not_staff_cannot_reach_it(client, campaign):
    entry_in(campaign)
    client.force_login(make_user("plain"))
    assert client.get(CHANGELIST).status_code == 302


def test_it_hides_and_shows_an_entry_from_its_own_page(organiser_client, campaign):
    entry = entry_in(campaign)
    page = reverse("admin:campaign_logentry_change", args=[entry.pk])
    hide = reverse("admin:campaign_logentry_hide", args=[entry.pk])
    show = reverse("admin:campaign_logentry_show", args=[entry.pk])

    assert f'href="{hide}"' in organiser_client.get(page).content.decode()
    assert organiser_client.get(hide).status_code == 200
    assert organiser_client.post(hide, {"apply": "yes", "reason": ""}).status_code == 200
    assert not reload(entry).is_hidden

    assert organiser_client.post(hide, {"apply": "yes", "reason": "Spoiler"}).status_code == 302
    assert reload(entry).is_hidden
    assert f'href="{show}"' in organiser_client.get(page).content.decode()
    assert organiser_client.post(hide, {"apply": "yes", "reason": "Again"}).status_code == 302
    assert HistoryEntry.objects.filter(action="log_entry_hidden").count() == 1

    organiser_client.post(show, {"apply": "yes", "reason": "After the finale"})
    assert not reload(entry).is_hidden


def test_it_keeps_another_campaigns_entry_out_of_reach(organiser_client, rival_campaign):
    theirs = entry_in(rival_campaign)
    hide = reverse("admin:campaign_logentry_hide", args=[theirs.pk])
    assert organiser_client.post(hide, {"apply": "yes", "reason": "Mine"}).status_code == 404
    assert not reload(theirs).is_hidden
