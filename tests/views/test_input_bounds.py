"""Numbers that fit their use and text of a sensible length: huge, negative or endless
input gets a message next to its field and changes nothing, never a 500."""

import pytest
from django.urls import reverse

from campaign.models import NOTE_LENGTH, HistoryEntry, Unit

pytestmark = pytest.mark.django_db

HUGE = str(10**30)


@pytest.mark.parametrize(
    "field", ["points", "model_count", "max_model_count", "enhancement_points"]
)
@pytest.mark.parametrize("value", [HUGE, "-5", "twelve"])
def test_it_refuses_out_of_range_numbers_on_a_new_card(client, owner, force, field, value):
    client.force_login(owner)
    data = {
        "name": "Squad Dorn",
        "datasheet": "Intercessor Squad",
        "points": "90",
        "faction_keywords": force.faction,
        "model_count": "5",
        "enhancement_points": "0",
        "counts_towards_supply": "on",
        field: value,
    }
    history = HistoryEntry.objects.count()

    response = client.post(reverse("unit_create", args=[force.pk]), data)

    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not Unit.objects.filter(name="Squad Dorn").exists()
    assert HistoryEntry.objects.count() == history


@pytest.mark.parametrize("field", ["models_added", "points", "max_model_count"])
def test_it_refuses_a_huge_number_for_fresh_recruits(client, owner, force, unit, field):
    client.force_login(owner)
    data = {"models_added": "1", "points": "150", "max_model_count": "10", field: HUGE}

    response = client.post(reverse("unit_requisition", args=[unit.pk, "fresh_recruits"]), data)

    assert response.status_code == 400
    assert response.context["form"].errors[field]


def test_it_refuses_a_novel_in_a_narrative_field(client, owner, force):
    """Narrative text has a length that suits it, shown in the form."""
    client.force_login(owner)
    url = reverse("force_edit", args=[force.pk])

    page = client.get(url).content.decode()
    response = client.post(
        url, {"name": force.name, "faction": force.faction, "background": "x" * 1_000_000}
    )

    assert f"Up to {NOTE_LENGTH} characters." in page
    assert response.context["form"].errors["background"]
