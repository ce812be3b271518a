"""The Crusade card keeps its long parts that hold no form (its details and XP chart)
under its force's revision: looking again builds them from the cache, and a change shows
at once."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import charts, rules, services
from tests.factories import make_campaign, make_character, make_force, make_unit

from .helpers import count_queries, fight_alone

pytestmark = pytest.mark.django_db


@pytest.fixture
def force():
    force = make_force(campaign=make_campaign(), name="Krieg 83rd")
    make_character(force, name="Commissar Vell")
    make_unit(force, name="1st Line Squad", points=65)
    return force


def card_url(unit) -> str:
    return reverse("unit_detail", args=[unit.pk])


def test_it_builds_the_cards_details_once_and_shows_an_edit_at_once(client, force):
    squad = force.units.get(name="1st Line Squad")
    client.force_login(force.player)
    url = card_url(squad)

    first, again = count_queries(client, url), count_queries(client, url)
    services.update_unit_details(actor=force.player, unit=squad, notes="Lasguns and a flamer")
    page = client.get(url).content.decode()

    assert again < first
    assert "Lasguns and a flamer" in page


def test_it_shows_a_battles_xp_on_the_card_at_once(client, force):
    units = list(force.units.order_by("-is_character"))  # the CHARACTER leads as Warlord
    squad = next(u for u in units if not u.is_character)
    client.force_login(force.player)
    url = card_url(squad)
    assert "XP over its battles" not in client.get(url).content.decode()

    fight_alone(force, units)
    page = client.get(url).content.decode()

    assert "XP over its battles" in page
    assert f'href="{reverse("battle_detail", args=[force.battle_entries.get().battle_id])}"' in page


def test_it_asks_the_same_number_of_queries_whatever_the_number_of_battles(client, force):
    units = list(force.units.order_by("-is_character"))
    squad = next(u for u in units if not u.is_character)
    client.force_login(force.player)
    url = card_url(squad)
    fight_alone(force, units)
    for cache in caches.all():
        cache.clear()
    one_first, one_again = count_queries(client, url), count_queries(client, url)
    for _ in range(4):
        fight_alone(force, units)
    for cache in caches.all():
        cache.clear()
    many_first, many_again = count_queries(client, url), count_queries(client, url)

    assert (one_first, one_again) == (many_first, many_again)
    assert one_again < one_first


def test_it_shows_whom_and_what_a_history_row_names(client, force):
    squad = force.units.get(name="1st Line Squad")
    services.update_unit_details(actor=force.player, unit=squad, notes="Dug in")
    client.force_login(force.player)

    card = client.get(card_url(squad)).content.decode()
    history = client.get(reverse("force_history", args=[force.pk])).content.decode()

    assert f"· {force.player.username}</p>" in card
    assert f'<a href="{card_url(squad)}">1st Line Squad</a>' in history
    assert f'<a href="{card_url(squad)}">' not in card.split('class="timeline"')[1]


def test_it_asks_only_for_the_card_when_looking_again(client, force):
    squad = force.units.get(name="1st Line Squad")
    other = make_force(campaign=force.campaign, name="Cadian 8th")
    url = card_url(squad)

    # The session with its user; the card with its force and campaign, the viewer's role
    # in it and whether the force is in a battle: all the rest comes from the cache.
    for viewer in (force.player, other.player):
        client.force_login(viewer)
        count_queries(client, url)
        assert count_queries(client, url) == 2


def test_the_cards_one_query_still_says_when_its_force_is_in_a_battle(client, force):
    squad = force.units.get(name="1st Line Squad")
    client.force_login(force.player)
    url = card_url(squad)
    client.get(url)
    services.start_battle(
        actor=force.player, force=force, battle_size="Incursion", campaign=force.campaign
    )

    assert count_queries(client, url) > 2  # the force moved on: its parts are built again
    assert count_queries(client, url) == 2
    assert "while a battle is being fought" in client.get(url).content.decode()


def test_it_shows_rp_spent_and_a_battle_begun_on_the_card_at_once(client, force):
    squad = force.units.get(name="1st Line Squad")
    client.force_login(force.player)
    url = card_url(squad)
    assert f"has {force.rp}RP" in client.get(url).content.decode()

    bought = services.increase_supply_limit(actor=force.player, force=force)
    after_buying = client.get(url).content.decode()
    services.start_battle(
        actor=force.player, force=force, battle_size="Incursion", campaign=force.campaign
    )
    in_battle = client.get(url).content.decode()

    assert f"has {bought.force.rp}RP" in after_buying
    assert "while a battle is being fought" not in after_buying
    assert "while a battle is being fought" in in_battle


def test_it_keeps_the_buy_links_to_the_cards_player_whoever_looked_first(client, force):
    squad = force.units.get(name="1st Line Squad")
    other = make_force(campaign=force.campaign, name="Cadian 8th")
    buy = reverse("unit_requisition", args=[squad.pk, "fresh_recruits"])

    client.force_login(other.player)
    seen_by_other = client.get(card_url(squad)).content.decode()
    client.force_login(force.player)
    seen_by_player = client.get(card_url(squad)).content.decode()
    client.force_login(other.player)
    seen_again_by_other = client.get(card_url(squad)).content.decode()

    assert buy in seen_by_player
    assert buy not in seen_by_other and buy not in seen_again_by_other


def test_it_shows_each_page_of_the_timeline_and_a_new_row_at_once(client, force):
    squad = force.units.get(name="1st Line Squad")
    for i in range(25):
        services.update_unit_details(actor=force.player, unit=squad, notes=f"Note {i}")
    client.force_login(force.player)
    url = card_url(squad)
    first, second = client.get(url).content.decode(), client.get(url, {"page": 2}).content
    assert "Note 24" in first and "Page 1 of 2" in first
    assert "Page 2 of 2" in second.decode()

    services.update_unit_details(actor=force.player, unit=squad, name="Gas Squad")
    again = client.get(url).content.decode()

    assert "Gas Squad" in again.split('class="timeline"')[1]
    assert again.count('class="timeline__item"') == 20


def test_it_draws_the_xp_chart_again_for_a_new_name_but_not_for_new_notes(
    client, force, monkeypatch
):
    units = list(force.units.order_by("-is_character"))
    squad = next(u for u in units if not u.is_character)
    fight_alone(force, units)
    client.force_login(force.player)
    url = card_url(squad)
    drawn = []
    draw = charts.xp_over_battles
    monkeypatch.setattr(charts, "xp_over_battles", lambda *a, **k: drawn.append(1) or draw(*a, **k))
    client.get(url)

    services.update_unit_details(actor=force.player, unit=squad, notes="Held the ridge")
    client.get(url)
    after_notes = len(drawn)
    services.update_unit_details(actor=force.player, unit=squad, name="Gas Squad")
    page = client.get(url).content.decode()

    assert (after_notes, len(drawn)) == (1, 2)
    chart = page.split('id="xp-chart-heading"')[1].split("</section>")[0]
    assert "Gas Squad" in chart and "1st Line Squad" not in chart


def test_it_shows_an_open_out_of_action_test_and_a_dearer_enhancement_at_once(client, force):
    units = list(force.units.order_by("-is_character"))  # the CHARACTER leads as Warlord
    hero = units[0]
    squad = next(u for u in units if not u.is_character)
    client.force_login(force.player)
    renowned = f'{rules.Requisition.RENOWNED_HEROES.label} <span class="badge">'
    before = client.get(card_url(hero)).content.decode()
    assert "Take the Out of Action test" not in client.get(card_url(squad)).content.decode()

    make_character(force, name="Lord Marshal", enhancement="Drill Commander")
    dearer = client.get(card_url(hero)).content.decode()
    fight_alone(force, units, destroyed=[squad])

    assert f"{renowned}1RP" in before
    assert f"{renowned}2RP" in dearer
    assert "Take the Out of Action test" in client.get(card_url(squad)).content.decode()


def test_it_keeps_each_upload_forms_fields_apart_and_shows_a_refusal_next_to_its_field(
    client, force
):
    squad = force.units.get(name="1st Line Squad")
    client.force_login(force.player)
    card = client.get(card_url(squad)).content.decode()
    banner = client.get(reverse("force_detail", args=[force.pk])).content.decode()

    refused = client.post(reverse("unit_picture", args=[squad.pk]), {})
    again = client.get(card_url(squad)).content.decode()

    assert '<label for="id_picture">Picture</label>' in card
    assert '<label for="id_picture">Banner picture</label>' in banner
    assert refused.status_code == 400
    assert "Choose a picture to upload first." in refused.content.decode()
    assert "Choose a picture to upload first." not in again


def test_building_the_card_reads_its_parts_together(client, force, monkeypatch):
    """A card built anew (the first look after a change) reads its lists, XP battles,
    tests, purchases, its timeline's count and first page, the force's other
    Enhancements and its pack state in one batch: one round trip on PostgreSQL
    (`prepared.fetch_together`) where it was one a read, and none of them again. Its
    timeline alone, the rest found in the cache, reads only its own."""
    from campaign.selectors import units as card_selectors

    squad = force.units.get(name="1st Line Squad")
    client.force_login(force.player)
    batches = []
    real = card_selectors.fetch_together

    def spy(*reads, **kwargs):
        batches.append(len(reads))
        return real(*reads, **kwargs)

    monkeypatch.setattr(card_selectors, "fetch_together", spy)
    services.update_unit_details(actor=force.player, unit=squad, notes="Flamer at the front")
    with CaptureQueriesContext(connection) as queries:
        page = client.get(card_url(squad)).content.decode()
    assert "Flamer at the front" in page
    # four lists, XP battles, tests, purchases, count, first page, the force's other
    # Enhancements, the pack Requisitions, the counters held
    assert batches == [12]
    for table in ("campaign_packrequisitionpurchase", "campaign_countervalue"):
        assert sum(f'FROM "{table}"' in q["sql"] for q in queries.captured_queries) == 1
    counting = 'NOT ("campaign_unit"."enhancement" = '
    enhanced = [q for q in queries.captured_queries if counting in q["sql"]]
    assert len(enhanced) == 1

    batches.clear()
    client.get(card_url(squad), {"page": 2})
    assert batches == []
