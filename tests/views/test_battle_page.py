"""The battle page: what it shows of each army, in the same queries whatever it holds."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import services

from .helpers import count_queries

pytestmark = pytest.mark.django_db


def test_it_shows_whom_a_leader_leads_on_the_battle_page_without_asking_more(client, unmustered):
    table = unmustered
    client.force_login(table.owner)
    url = reverse("battle_detail", args=[table.mine.battle_id])
    alone = count_queries(client, url)
    services.muster_army(
        actor=table.owner,
        participant=table.mine,
        faction=table.force.faction,
        detachment="Gladius",
        units=[table.captain, table.squad],
        warlord=table.captain,
        attachments={table.captain.pk: table.squad.pk},
    )

    assert count_queries(client, url) == alone
    html = client.get(url).content.decode()
    assert f"leads {table.squad.name}" in html
    assert f"Warlord: {table.captain.name}" in html  # from the army, not a query of its own
