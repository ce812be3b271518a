"""Numbers that fit their use and text of a sensible length: huge, negative or endless
input gets a message next to its field and changes nothing, never a 500."""

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from campaign.models import MOST_MODELS, MOST_POINTS, NOTE_LENGTH, Battle, HistoryEntry, Unit
from tests.factories import make_unit, make_user, reload

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


@pytest.mark.parametrize("value", [HUGE, str(2**31), str(MOST_POINTS + 1), "-1", "twelve"])
def test_it_refuses_absurd_points_to_rearm_a_unit_that_does_not_count(client, owner, force, value):
    """Rearm and Resupply on a unit left out of Supply Used: no Supply Limit check stops
    its points, so the form's bounds (the card's) must; 10**30 was a 500."""
    unit = make_unit(force, name="Tithe Servitors", counts_towards_supply=False)
    client.force_login(owner)
    url = reverse("unit_requisition", args=[unit.pk, "rearm_and_resupply"])
    history = HistoryEntry.objects.count()

    response = client.post(url, {"wargear": "Servo-arms", "points": value})

    assert response.status_code == 400
    assert response.context["form"].errors["points"]
    assert reload(unit).points == unit.points
    assert HistoryEntry.objects.count() == history


def test_it_rearms_a_unit_that_does_not_count_up_to_the_cards_most_points(client, owner, force):
    unit = make_unit(force, name="Tithe Servitors", counts_towards_supply=False)
    client.force_login(owner)
    url = reverse("unit_requisition", args=[unit.pk, "rearm_and_resupply"])

    response = client.post(url, {"wargear": "Servo-arms", "points": str(MOST_POINTS)})

    assert response.status_code == 302
    assert reload(unit).points == MOST_POINTS


@pytest.mark.parametrize("field", ["points", "max_model_count", "models_added"])
def test_it_holds_fresh_recruits_to_the_cards_bounds(client, owner, force, field):
    """The form's own limits were wider than the card's (100,000 points): a number the
    card cannot hold is refused in the form, not stored."""
    unit = make_unit(force, name="Squad Ixion", counts_towards_supply=False, model_count=5)
    client.force_login(owner)
    past = {"points": MOST_POINTS + 1, "max_model_count": MOST_MODELS + 1}
    data = {"models_added": "1", "points": "150", "max_model_count": "10"}
    data[field] = str(past.get(field, MOST_MODELS + 1))

    response = client.post(reverse("unit_requisition", args=[unit.pk, "fresh_recruits"]), data)

    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert (reload(unit).points, reload(unit).model_count) == (unit.points, 5)


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


@pytest.mark.parametrize("ids", [[HUGE], ["-1"], ["twelve"], ["²"]])
def test_it_refuses_an_absurd_opponent_when_starting_a_battle(client, unmustered, ids):
    """Opponents are ticked boxes of force ids; an id no row could have is a field error
    (10**30 was a 500 on SQLite, which cannot compare a number past 64 bits)."""
    table = unmustered
    Battle.objects.filter(pk=table.battle.pk).update(status=Battle.Status.VOIDED)
    client.force_login(table.owner)
    data = {"force": table.force.pk, "battle_size": "Incursion", "date": "2025-01-01"}
    battles = Battle.objects.count()

    response = client.post(reverse("battle_create"), {**data, "opponents": ids})

    assert response.status_code == 200
    assert response.context["form"].errors["opponents"]
    assert Battle.objects.count() == battles


@pytest.mark.parametrize("ids", [[HUGE], ["²"]])
def test_it_refuses_an_absurd_unit_in_an_army(client, unmustered, ids):
    """The units of an army are ticked boxes too: 10**30 was a 500, and so was a
    superscript "²" (a digit to str.isdigit, not to int) in the army's running total."""
    table = unmustered
    client.force_login(table.owner)
    data = {"detachment": "Gladius", "warlord": table.captain.pk, "units": ids}
    history = HistoryEntry.objects.count()

    response = client.post(reverse("army_muster", args=[table.mine.pk]), data)

    assert response.status_code == 200
    assert response.context["form"].errors["units"]
    assert not reload(table.mine).mustered
    assert HistoryEntry.objects.count() == history


@pytest.mark.parametrize("ids", [[HUGE], ["²"]])
def test_it_checks_an_army_with_an_absurd_unit_live_without_a_500(client, unmustered, ids):
    """The live check reads the same form: its summary counts no army from a list that
    is not valid."""
    table = unmustered
    client.force_login(table.owner)
    url = reverse("army_muster_check", args=[table.mine.pk])

    response = client.post(url, {"units": [table.captain.pk, *ids]})

    assert response.status_code == 200
    assert "The army has no units." in response.content.decode()
    assert not reload(table.mine).mustered


def test_it_refuses_an_endless_username_before_trying_to_sign_in(client):
    """Django's sign-in form only tells the browser how long a username can be; an
    endless one reached django-axes, whose record of the failed attempt overflowed its
    column (a 500 on PostgreSQL). Now it is a field error, and no attempt is counted."""
    response = client.post(reverse("login"), {"username": "x" * 100_000, "password": "x"})

    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not AccessAttempt.objects.exists()


def test_it_refuses_an_endless_username_on_the_admin_sign_in_too(client):
    response = client.post(reverse("admin:login"), {"username": "x" * 1000, "password": "x"})

    assert response.status_code == 200
    assert not AccessAttempt.objects.exists()


@pytest.mark.parametrize("code", ["\x00", "a\x00b", "x" * 1000])
def test_it_answers_an_invitation_link_with_a_nul_or_endless_code_with_a_404(client, code):
    """The code in `/join/<code>/` comes straight from the link: PostgreSQL refuses a NUL
    in a query (a 500 before), and no code is longer than the column."""
    client.force_login(make_user("wanderer"))

    response = client.get(reverse("join_campaign", args=[code]))

    assert response.status_code == 404


@pytest.mark.parametrize(
    "url_name, parameter", [("battle_create", "force"), ("force_create", "campaign")]
)
@pytest.mark.parametrize("value", ["²", "١٢", HUGE, str(2**63), "-1", "x"])
def test_it_opens_a_new_form_whatever_id_the_link_carries(client, url_name, parameter, value):
    """A link that preselects a force or campaign only fills in the form: digits of other
    scripts, superscripts and ids no column holds open the form as if it named nothing."""
    client.force_login(make_user())

    response = client.get(reverse(url_name), {parameter: value})

    assert response.status_code == 200
