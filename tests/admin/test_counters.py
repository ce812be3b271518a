"""Pack counters in the admin: an organiser corrects one with a reason (R11.4)."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import CounterValue, CustomContent, HistoryEntry
from tests.admin.helpers import form_errors, post_change, saved
from tests.counter_packs import item, with_sample_pack, with_veteran_pack
from tests.factories import make_force, make_unit

pytestmark = pytest.mark.django_db

ADD = "admin:campaign_countervalue_add"
COUNTER = CustomContent.Kind.COUNTER


@pytest.fixture
def force(campaign):
    with_veteran_pack(with_sample_pack(campaign))
    return make_force(campaign=campaign, name="Scrap Kings")


def add(client, **values):
    return client.post(reverse(ADD), {"unit": "", **values})


def test_it_sets_a_counter_with_a_reason_and_a_history_row(organiser, organiser_client, force):
    """R11.4: an organiser's correction, with a reason, keeps a history row."""
    salvage = item("salvage", COUNTER)

    response = add(
        organiser_client, force=force.pk, counter=salvage.pk, value=6, reason="Paper records"
    )

    entry = saved(response, "counter_corrected", changes={"salvage": [0, 6]})
    assert (entry.force, entry.actor, entry.reason) == (force, organiser, "Paper records")
    assert CounterValue.objects.get(force=force, counter=salvage).value == 6


def test_it_refuses_a_value_outside_the_bounds_with_a_form_error(organiser_client, force):
    """R11.4: Salvage is from 0 to 20."""
    salvage = item("salvage", COUNTER)

    response = add(organiser_client, force=force.pk, counter=salvage.pk, value=21, reason="Typo")

    assert form_errors(response)["value"] == ["Salvage can't go above 20; that would make it 21."]
    assert not CounterValue.objects.exists()


def test_it_refuses_a_correction_without_a_reason(organiser_client, force):
    salvage = item("salvage", COUNTER)

    response = add(organiser_client, force=force.pk, counter=salvage.pk, value=2, reason="")

    assert form_errors(response)["reason"]
    assert not HistoryEntry.objects.filter(action="counter_corrected").exists()


def test_it_corrects_a_units_counter_and_then_changes_its_value(organiser_client, force):
    unit = make_unit(force, name="Standard Bearers")
    glory = item("glory", COUNTER)
    add(organiser_client, force=force.pk, unit=unit.pk, counter=glory.pk, value=2, reason="x")
    row = CounterValue.objects.get(unit=unit)
    url = reverse("admin:campaign_countervalue_change", args=[row.pk])

    response = post_change(organiser_client, url, value=3, reason="Won a duel")

    saved(response, "counter_corrected", changes={"glory": [2, 3]})
    assert CounterValue.objects.get(pk=row.pk).value == 3


def test_it_refuses_a_unit_of_another_force(organiser_client, force, campaign):
    other = make_unit(make_force(campaign=campaign, name="Others"), name="Stranger")
    glory = item("glory", COUNTER)

    response = add(
        organiser_client, force=force.pk, unit=other.pk, counter=glory.pk, value=1, reason="x"
    )

    assert "Stranger is not in Scrap Kings." in form_errors(response)["unit"]


def test_it_offers_only_the_organisers_campaigns_forces_and_counters(
    organiser_client, force, rival_campaign
):
    with_sample_pack(rival_campaign)
    theirs = make_force(campaign=rival_campaign, name="Rivals")
    form = organiser_client.get(reverse(ADD)).context["adminform"].form

    assert list(form.fields["force"].queryset) == [force]
    counters = {c.pack.campaign_id for c in form.fields["counter"].queryset}
    assert counters == {force.campaign_id}
    services.correct_counter(
        actor=rival_campaign.memberships.get(role="organiser").user,
        force=theirs,
        counter=theirs.campaign.enabled_packs.get().pack.items.get(key="salvage"),
        value=4,
        reason="Theirs",
    )
    listed = organiser_client.get(reverse("admin:campaign_countervalue_changelist"))
    assert "Rivals" not in listed.content.decode()
