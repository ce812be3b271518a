"""Battles are voided through the service with a reason; history is read-only."""

import pytest
from django.test import Client
from django.urls import reverse

from campaign import services
from campaign.models import Battle, HistoryEntry
from tests.admin.helpers import disputed_battle, recorded_battle, two_captains
from tests.blessings import blessing, blessing_pack, give_honours
from tests.factories import reload
from tests.services.fights import go_to_battle
from tests.views.helpers import set_table

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:campaign_battle_changelist")


def test_it_voids_a_recorded_battle_through_the_admin_action(organiser, organiser_client, campaign):
    battle, winner, loser = recorded_battle(actor=organiser, campaign=campaign)
    assert (reload(winner).battle_tally, reload(winner).victories) == (1, 1)
    chosen = {"action": "void_battles", "_selected_action": [battle.pk]}

    asked = organiser_client.post(CHANGELIST, chosen)

    assert asked.status_code == 200
    assert 'name="csrfmiddlewaretoken"' in asked.content.decode()
    assert reload(battle).status == Battle.Status.COMPLETED

    done = organiser_client.post(CHANGELIST, {**chosen, "apply": "yes", "reason": "Wrong mission"})

    assert done.status_code == 302
    battle = reload(battle)
    assert (battle.status, battle.void_reason) == (Battle.Status.VOIDED, "Wrong mission")
    winner = reload(winner)
    assert (winner.battle_tally, winner.victories, winner.rp) == (0, 0, 5)
    voided = HistoryEntry.objects.filter(action="battle_voided", battle=battle)
    assert {e.force for e in voided} == {winner, loser}
    assert {e.reason for e in voided} == {"Wrong mission"}


def test_it_asks_again_when_the_void_reason_is_blank(organiser, organiser_client, campaign):
    battle, *_ = recorded_battle(actor=organiser, campaign=campaign)

    response = organiser_client.post(
        CHANGELIST,
        {"action": "void_battles", "_selected_action": [battle.pk], "apply": "yes", "reason": ""},
    )

    assert response.status_code == 200
    assert response.context["form"].errors["reason"]
    assert reload(battle).status == Battle.Status.COMPLETED


def test_it_voids_a_battle_from_its_own_page(organiser, organiser_client, campaign):
    battle, *_ = recorded_battle(actor=organiser, campaign=campaign)
    page = reverse("admin:campaign_battle_change", args=[battle.pk])
    void = reverse("admin:campaign_battle_void", args=[battle.pk])

    assert f'href="{void}"' in organiser_client.get(page).content.decode()
    assert organiser_client.get(void).status_code == 200
    assert reload(battle).status == Battle.Status.COMPLETED

    response = organiser_client.post(void, {"apply": "yes", "reason": "Played the wrong size"})

    assert response.status_code == 302
    assert reload(battle).status == Battle.Status.VOIDED
    assert f'href="{void}"' not in organiser_client.get(page).content.decode()


def test_it_shows_the_armies_and_results_of_a_battle(
    organiser, organiser_client, campaign, rival_campaign
):
    recorded_battle(actor=organiser, campaign=rival_campaign)  # so no id matches by chance
    battle, *_ = recorded_battle(actor=organiser, campaign=campaign)

    html = organiser_client.get(
        reverse("admin:campaign_battle_change", args=[battle.pk])
    ).content.decode()

    assert "Captain Acheran" in html
    assert "Iron Father Vurn" in html
    assert "0 → 1" in html  # Battle Experience
    assert "5 → 6" in html  # +1RP


def test_it_refuses_the_void_page_without_a_csrf_token(organiser, campaign):
    battle, *_ = recorded_battle(actor=organiser, campaign=campaign)
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)

    response = client.post(
        reverse("admin:campaign_battle_void", args=[battle.pk]),
        {"apply": "yes", "reason": "Forged"},
    )

    assert response.status_code == 403
    assert reload(battle).status == Battle.Status.COMPLETED


def test_it_refuses_to_void_another_campaigns_battle(
    organiser, organiser_client, campaign, rival_campaign
):
    theirs, *_ = recorded_battle(actor=organiser, campaign=rival_campaign)

    organiser_client.post(
        CHANGELIST,
        {"action": "void_battles", "_selected_action": [theirs.pk], "apply": "yes", "reason": "x"},
    )
    page = organiser_client.post(
        reverse("admin:campaign_battle_void", args=[theirs.pk]), {"apply": "yes", "reason": "x"}
    )

    assert page.status_code == 404
    assert reload(theirs).status == Battle.Status.COMPLETED


def test_it_keeps_history_read_only(organiser_client, campaign):
    entry = HistoryEntry.objects.get(campaign=campaign, action="campaign_created")
    change = reverse("admin:campaign_historyentry_change", args=[entry.pk])

    page = organiser_client.get(change)

    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    assert not page.context["has_delete_permission"]
    assert organiser_client.post(change, {"summary": "Rewritten"}).status_code == 403
    assert organiser_client.get(reverse("admin:campaign_historyentry_add")).status_code == 403
    delete = reverse("admin:campaign_historyentry_delete", args=[entry.pk])
    assert organiser_client.post(delete, {"post": "yes"}).status_code == 403
    assert reload(entry).summary == "Pariah Nexus created"


def test_it_filters_and_searches_history(organiser, organiser_client, campaign):
    recorded_battle(actor=organiser, campaign=campaign)
    url = reverse("admin:campaign_historyentry_changelist")

    by_action = organiser_client.get(url, {"action": "battle_recorded"}).context["cl"].result_list
    by_unit = organiser_client.get(url, {"q": "Acheran"}).context["cl"].result_list

    assert {e.action for e in by_action} == {"battle_recorded"}
    assert len(by_action) == 2
    assert {e.unit.name for e in by_unit} == {"Captain Acheran"}


# Settling a disputed battle, or recording for an absent player


def _settle(client, fight, results: tuple[str, str], reason: str):
    """POST the settle form: a result for each of the two sides, and the reason."""
    first, second = fight.participants.values()
    data = {f"result_{first.pk}": results[0], f"result_{second.pk}": results[1]}
    return client.post(_settle_url(fight.battle), {**data, "reason": reason})


def _settle_url(battle) -> str:
    return reverse("admin:campaign_battle_settle", args=[battle.pk])


def test_it_offers_to_settle_an_open_battle_only(organiser_client, organiser, campaign):
    disputed = disputed_battle(campaign=campaign).battle
    done, *_ = recorded_battle(actor=organiser, campaign=campaign)

    def page(battle):
        change = reverse("admin:campaign_battle_change", args=[battle.pk])
        return organiser_client.get(change).content.decode()

    assert f'href="{_settle_url(disputed)}"' in page(disputed)
    assert _settle_url(done) not in page(done)
    assert organiser_client.get(_settle_url(done)).status_code == 404


def test_it_shows_why_the_results_disagree_and_what_each_player_recorded(
    organiser_client, campaign
):
    battle = disputed_battle(campaign=campaign).battle

    response = organiser_client.get(_settle_url(battle))

    html = response.content.decode()
    assert response.status_code == 200
    assert "can&#x27;t both claim a Victory" in html
    assert "Result for Ultramarines 2nd Company" in html
    assert "Its player recorded Victory." in html
    change = organiser_client.get(reverse("admin:campaign_battle_change", args=[battle.pk]))
    assert "Victory (by" in change.content.decode()  # the inline's recorded column


def test_it_settles_a_dispute_through_the_service_and_keeps_the_reason(
    organiser_client, organiser, campaign
):
    fight = disputed_battle(campaign=campaign)
    first, second = fight.participants.values()

    response = _settle(
        organiser_client, fight, ("loss", "win"), "Scoresheet photo: Iron Hands won on points"
    )

    assert response.status_code == 302
    assert reload(fight.battle).status == Battle.Status.COMPLETED
    assert (reload(first.force).victories, reload(second.force).victories) == (0, 1)
    settled = HistoryEntry.objects.filter(action="battle_settled", battle=fight.battle)
    assert {e.actor for e in settled} == {organiser}
    assert {e.reason for e in settled} == {"Scoresheet photo: Iron Hands won on points"}


def test_it_shows_a_refusal_on_the_settle_form_and_changes_nothing(organiser_client, campaign):
    fight = disputed_battle(campaign=campaign)
    history = HistoryEntry.objects.count()

    no_reason = _settle(organiser_client, fight, ("win", "loss"), "")
    two_victors = _settle(organiser_client, fight, ("win", "win"), "Both?")

    assert no_reason.status_code == two_victors.status_code == 200
    assert no_reason.context["form"].errors["reason"]
    assert "both claim a Victory" in " ".join(two_victors.context["form"].non_field_errors())
    assert reload(fight.battle).status == Battle.Status.DISPUTED
    assert HistoryEntry.objects.count() == history


def test_it_refuses_to_settle_another_campaigns_battle(organiser_client, rival_campaign):
    theirs = disputed_battle(campaign=rival_campaign)

    response = _settle(organiser_client, theirs, ("win", "loss"), "Mine now")

    assert response.status_code == 404
    assert reload(theirs.battle).status == Battle.Status.DISPUTED


def test_it_records_for_an_absent_player_who_never_recorded(organiser_client, campaign):
    fight = go_to_battle(*two_captains(campaign), campaign=campaign)
    first, second = fight.participants.values()
    fight.record_side(first.force)
    page = organiser_client.get(_settle_url(fight.battle)).content.decode()
    assert "Not recorded: recording it for the absent player" in page

    response = _settle(
        organiser_client, fight, ("win", "loss"), "Iron Hands' player is away; confirmed by phone"
    )

    assert response.status_code == 302
    assert reload(fight.battle).status == Battle.Status.COMPLETED
    absent = reload(second)
    assert (absent.claimed_result, absent.result, absent.recorded_by.username) == (
        "loss",
        "loss",
        "warmaster",
    )


def test_it_shows_the_blessings_the_underdog_picked_r11_3(client):
    table = set_table()
    blessing_pack(table.organiser, table.campaign)
    give_honours(table.enemy_captain, 2)
    services.pick_blessings(
        actor=table.owner,
        participant=table.mine,
        blessings=[blessing("Second Wind", table.campaign)],
    )
    client.force_login(table.organiser)

    html = client.get(reverse("admin:campaign_battle_change", args=[table.battle.pk])).content

    assert b"Second Wind (underdog by 2)" in html
