"""The battle page's region kept under the version of everything it shows (README
"Caching"): looking again at a battle reads none of its armies, a change it shows is
there at the very next look, each viewer has their own, and a region with a form is
never kept (its tokens are made for one request)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign import services
from campaign.once import FIELD

from .helpers import get_with_sql

pytestmark = pytest.mark.django_db

ARMIES = "campaign_battleunit"


def region(html: str) -> str:
    """The page's live region (the page around it holds a CSRF token of its own)."""
    return html.split('id="battle-live"', 1)[1].split("<script", 1)[0]


def look(client, url: str) -> tuple[str, list[str]]:
    """The page's region and the SQL of the queries its GET made."""
    response, sql = get_with_sql(client, url)
    assert response.status_code == 200
    return region(response.content.decode()), sql


def page_of(table) -> str:
    return reverse("battle_detail", args=[table.battle.pk])


def test_looking_again_at_a_battle_over_reads_none_of_its_armies(client, fallen):
    client.force_login(fallen.owner)
    first, first_sql = look(client, page_of(fallen))
    again, again_sql = look(client, page_of(fallen))

    assert any(ARMIES in sql for sql in first_sql)
    assert not any(ARMIES in sql for sql in again_sql)
    assert len(again_sql) < len(first_sql)
    assert again == first
    assert fallen.squad.name in again


def test_a_change_to_a_card_in_the_armies_shows_at_the_next_look(client, fallen):
    client.force_login(fallen.owner)
    look(client, page_of(fallen))
    services.update_unit_details(actor=fallen.owner, unit=fallen.squad, name="Squad Renamed")

    shown, _ = look(client, page_of(fallen))

    assert "Squad Renamed" in shown


def test_a_test_taken_shows_at_the_next_look(client, fallen):
    client.force_login(fallen.owner)
    before, _ = look(client, page_of(fallen))
    test_page = reverse("out_of_action", args=[fallen.test.pk])
    assert test_page in before
    services.take_out_of_action_test(actor=fallen.owner, test=fallen.test, roll=6)

    after, _ = look(client, page_of(fallen))

    assert test_page not in after
    assert "Out of Action: Passed" in after


def test_a_campaign_renamed_shows_at_the_next_look(client, fallen):
    client.force_login(fallen.owner)
    look(client, page_of(fallen))
    services.update_campaign_details(
        actor=fallen.organiser, campaign=fallen.campaign, name="The Renamed Crusade"
    )

    shown, _ = look(client, page_of(fallen))

    assert "The Renamed Crusade" in shown


def test_each_viewer_has_their_own_region(client, fallen):
    test_page = reverse("out_of_action", args=[fallen.test.pk])
    client.force_login(fallen.owner)
    mine, _ = look(client, page_of(fallen))
    client.force_login(fallen.member)

    watched, _ = look(client, page_of(fallen))

    assert test_page in mine  # the owner's own test to take
    assert test_page not in watched
    assert fallen.squad.name in watched


def once_tokens(html: str) -> list[str]:
    return re.findall(rf'name="{FIELD}" value="([^"]+)"', html)


def test_a_region_with_a_form_is_built_for_every_look(client, invited):
    client.force_login(invited.owner)  # who started it: may withdraw the invitation
    first, _ = look(client, page_of(invited))
    again, again_sql = look(client, page_of(invited))

    assert "<form" in first
    assert any(ARMIES in sql for sql in again_sql)
    assert once_tokens(first) and once_tokens(again)
    assert set(once_tokens(first)).isdisjoint(once_tokens(again))
