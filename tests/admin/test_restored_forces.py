"""An organiser approves or refuses, with a reason, a restored force that waits for it; only
in their own campaign (R6, R8: until then the force can't play)."""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse

from campaign import documents, selectors, services
from campaign.models import HistoryEntry, Provenance
from tests.factories import make_force, make_user

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:campaign_crusadeforce_changelist"


def awaiting(campaign, name: str = "Brought from paper"):
    """A force of a new player, restored in ``campaign`` from an edited export."""
    original = make_force(campaign=campaign, name="Paper roster")
    document = json.loads(documents.dumps(selectors.force_document(original)))
    document = copy.deepcopy(document)
    document["force"]["background"] = "Twelve battles on paper"
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=campaign)
    return services.restore_force(
        actor=player, player=player, campaign=campaign, document=document, name=name
    )


def act(client, action: str, force, **data):
    chosen = {"action": action, "_selected_action": [force.pk]}
    return client.post(reverse(CHANGELIST), {**chosen, **data})


@pytest.mark.parametrize(
    "action, approval, row",
    [
        ("approve_restored_force", "approved", HistoryEntry.Action.RESTORE_APPROVED),
        ("refuse_restored_force", "refused", HistoryEntry.Action.RESTORE_REFUSED),
    ],
)
def test_it_decides_on_a_restored_force_with_the_reason_kept(
    organiser, organiser_client, campaign, action, approval, row
):
    force = awaiting(campaign)

    asked = act(organiser_client, action, force)
    done = act(organiser_client, action, force, apply="yes", reason="Paper roster checked")

    assert asked.status_code == 200 and "reason" in asked.context["form"].fields
    assert done.status_code == 302
    provenance = Provenance.objects.get(force=force)
    assert (provenance.approval, provenance.decision_reason, provenance.decided_by) == (
        approval,
        "Paper roster checked",
        organiser,
    )
    entry = force.history.get(action=row)
    assert (entry.actor, entry.reason) == (organiser, "Paper roster checked")


def test_it_asks_again_for_a_missing_reason_and_changes_nothing(organiser_client, campaign):
    force = awaiting(campaign)

    response = act(organiser_client, "approve_restored_force", force, apply="yes", reason="")

    assert response.status_code == 200 and response.context["form"].errors
    assert Provenance.objects.get(force=force).approval == "awaiting"


def test_it_never_lets_an_organiser_decide_on_another_campaigns_force(
    organiser_client, rival_campaign
):
    force = awaiting(rival_campaign)

    response = act(
        organiser_client, "approve_restored_force", force, apply="yes", reason="Mine now"
    )

    assert response.status_code in (200, 302)
    assert Provenance.objects.get(force=force).approval == "awaiting"
    assert not force.history.filter(action=HistoryEntry.Action.RESTORE_APPROVED).exists()


def test_it_lists_restored_forces_with_what_waits_and_filters_them(organiser_client, campaign):
    force = awaiting(campaign)
    make_force(campaign=campaign, name="Made here")

    listed = organiser_client.get(reverse(CHANGELIST), {"restored": "awaiting"})
    change = organiser_client.get(reverse("admin:campaign_crusadeforce_change", args=[force.pk]))

    assert [f.name for f in listed.context["cl"].result_list] == ["Brought from paper"]
    assert "Awaiting the organiser&#x27;s approval" in listed.content.decode()
    assert "Restored from Paper roster of" in change.content.decode()


def test_it_keeps_the_approval_from_the_forces_own_player(client, campaign):
    """The player is no organiser: the admin sends them to sign in, and nothing changes."""
    force = awaiting(campaign)
    client.force_login(force.player)

    response = act(client, "approve_restored_force", force, apply="yes", reason="Trust me")

    assert response.status_code == 302 and "login" in response["Location"]
    assert Provenance.objects.get(force=force).approval == "awaiting"


@pytest.mark.parametrize(
    "reason",
    ["x" * 1_000_000, "nul\x00byte", "\u202eevorppa", "  \n\t ", "9" * 400],
    ids=["huge", "a NUL byte", "right-to-left", "blank", "too long"],
)
def test_it_answers_strange_reasons_without_a_server_error(organiser_client, campaign, reason):
    force = awaiting(campaign)

    response = act(organiser_client, "approve_restored_force", force, apply="yes", reason=reason)

    approval = Provenance.objects.get(force=force).approval
    assert response.status_code < 500
    if reason == "\u202eevorppa":
        assert approval == "approved"
    else:
        assert response.status_code == 200 and approval == "awaiting"
