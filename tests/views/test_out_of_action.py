"""Out of Action tests (R5): roll or enter a roll, then choose what a failure costs."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import rules, services
from campaign.models import BattleScar, OutOfActionTest, Unit
from tests.factories import make_house_content, reload

from .helpers import texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(fallen):
    return fallen


def test_it_sends_anonymous_users_to_log_in(client, table):
    response = client.get(reverse("out_of_action", args=[table.test.pk]))

    assert response.status_code == 302


@pytest.mark.parametrize(("who", "status"), [("opponent", 403), ("outsider", 404)])
def test_it_lets_only_the_units_player_roll(client, table, who, status):
    client.force_login(getattr(table, who))

    response = client.post(
        reverse("out_of_action", args=[table.test.pk]), {"action": "roll_for_me"}
    )

    assert response.status_code == status
    assert reload(table.test).status == OutOfActionTest.Status.PENDING


def test_it_offers_both_ways_to_roll(client, table):
    client.force_login(table.owner)

    html = client.get(reverse("out_of_action", args=[table.test.pk])).content.decode()

    assert "Roll for me" in html and "Enter roll" in html


def test_it_passes_on_an_entered_four(client, table):
    client.force_login(table.owner)

    response = client.post(
        reverse("out_of_action", args=[table.test.pk]), {"action": "enter_roll", "roll": 4}
    )

    assert response.status_code == 302
    assert reload(table.test).outcome == OutOfActionTest.Outcome.PASSED
    assert any("Passed on a 4" in m for m in texts(response))


def test_it_refuses_a_roll_of_seven_next_to_the_field(client, table):
    client.force_login(table.owner)

    response = client.post(
        reverse("out_of_action", args=[table.test.pk]), {"action": "enter_roll", "roll": 7}
    )

    assert response.status_code == 200
    assert response.context["roll_form"].errors["roll"]
    assert reload(table.test).status == OutOfActionTest.Status.PENDING


def test_it_rolls_for_the_player(client, table):
    client.force_login(table.owner)

    client.post(reverse("out_of_action", args=[table.test.pk]), {"action": "roll_for_me"})

    test = reload(table.test)
    assert test.rolled_by_app and 1 <= test.roll <= 6


def test_it_fails_on_a_one_and_then_takes_the_chosen_scar(client, table):
    client.force_login(table.owner)
    url = reverse("out_of_action", args=[table.test.pk])

    failed = client.post(url, {"action": "enter_roll", "roll": 1})
    page = client.get(url).content.decode()
    chosen = client.post(url, {"choice": "battle_scar", "scar": "Fatigued"})

    assert any("Failed on a 1" in m for m in texts(failed))
    assert "Take the Battle Scar" in page
    assert "Lose this honour" not in page  # no honours: a scar is the only choice
    assert chosen.status_code == 302
    assert any("Gained Battle Scar: Fatigued" in m for m in texts(chosen))
    assert [s.name for s in reload(table.squad).scars.all()] == ["Fatigued"]
    assert reload(table.test).outcome == OutOfActionTest.Outcome.BATTLE_SCAR


def test_it_refuses_a_devastating_blow_for_a_unit_without_honours(client, table):
    services.take_out_of_action_test(actor=table.owner, test=table.test, roll=1)
    client.force_login(table.owner)

    response = client.post(
        reverse("out_of_action", args=[table.test.pk]), {"choice": "devastating_blow"}
    )

    assert response.status_code == 302
    assert any("must take a Battle Scar" in m for m in texts(response))
    assert reload(table.test).status == OutOfActionTest.Status.AWAITING_CHOICE


def test_it_does_not_offer_a_scar_the_unit_already_bears(client, table):
    BattleScar.objects.create(unit=table.squad, name="Fatigued")
    services.take_out_of_action_test(actor=table.owner, test=table.test, roll=1)
    client.force_login(table.owner)

    response = client.post(
        reverse("out_of_action", args=[table.test.pk]),
        {"choice": "battle_scar", "scar": "Fatigued"},
    )

    assert response.status_code == 200
    assert response.context["scar_form"].errors["scar"]


def test_it_explains_a_removal_forced_by_the_rules(client, table):
    for name in ("Fatigued", "Deep Scars", "Crippling Damage"):
        BattleScar.objects.create(unit=table.squad, name=name)
    client.force_login(table.owner)
    url = reverse("out_of_action", args=[table.test.pk])

    response = client.post(url, {"action": "enter_roll", "roll": 1})
    html = client.get(url).content.decode()

    assert any(rules.REMOVED_FOR_GOOD in m for m in texts(response))
    assert rules.REMOVED_FOR_GOOD in html
    assert reload(table.squad).status == Unit.Status.REMOVED


def test_it_tells_a_battle_weary_unit_what_its_scar_takes_off_the_roll(client, table):
    BattleScar.objects.create(unit=table.squad, name=rules.BATTLE_WEARY)
    client.force_login(table.owner)

    html = client.get(reverse("out_of_action", args=[table.test.pk])).content.decode()

    assert f"on a {rules.OUT_OF_ACTION_PASS} or more" in html
    assert f"{abs(rules.BATTLE_WEARY_MODIFIER)} is taken off the roll" in html


def test_it_offers_the_campaigns_own_scars_but_not_retired_ones(client, table):
    kept = make_house_content(
        campaign=table.campaign, kind="battle_scar", name="Hive Taint", effect="Slower."
    )
    services.retire_custom_content(
        actor=table.campaign.memberships.get(role="organiser").user,
        content=make_house_content(campaign=table.campaign, kind="battle_scar", name="Old Wound"),
    )
    services.take_out_of_action_test(actor=table.owner, test=table.test, roll=1)
    client.force_login(table.owner)
    url = reverse("out_of_action", args=[table.test.pk])

    page = client.get(url).content.decode()
    response = client.post(url, {"choice": "battle_scar", "scar": kept.choice_key})

    assert "Hive Taint" in page and "Old Wound" not in page
    assert response.status_code == 302
    assert reload(table.test).scar_gained.custom_content == kept
