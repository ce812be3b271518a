"""The long parts of the Order of Battle and campaign pages are cached under a version of
what they show (`selectors.versions`): the force's revision, the campaign's newest history
rows. Every change is a service call that writes a history row and moves the revision on,
so a change shows at once, and looking again costs fewer queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import services, serving
from campaign.models import CrusadeForce, Unit
from campaign.selectors import campaign_page_campaigns
from campaign.selectors.versions import campaign_version
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

from .helpers import count_queries, fight_alone

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign():
    return make_campaign()


@pytest.fixture
def force(campaign):
    force = make_force(campaign=campaign, name="Krieg 83rd")
    make_character(force, name="Commissar Vell")
    make_unit(force, name="1st Line Squad", points=65)
    return force


def test_it_builds_the_units_table_once_and_shows_a_renamed_card_at_once(client, force):
    client.force_login(force.player)
    url = reverse("force_detail", args=[force.pk])

    first, again = count_queries(client, url), count_queries(client, url)
    squad = force.units.get(name="1st Line Squad")
    services.update_unit_details(actor=force.player, unit=squad, name="Gas Squad")
    page = client.get(url).content.decode()

    assert again < first
    assert "Gas Squad" in page and "1st Line Squad" not in page


def test_it_shows_a_battles_xp_and_what_waits_on_the_order_of_battle_at_once(client, force):
    """A battle's end is a bulk write: its history rows still name the force."""
    client.force_login(force.player)
    url = reverse("force_detail", args=[force.pk])
    assert "Out of Action test" not in client.get(url).content.decode()
    units = list(force.units.order_by("-is_character"))  # the CHARACTER leads as Warlord

    fight_alone(force, units, destroyed=[u for u in units if not u.is_character])

    assert "Out of Action test" in client.get(url).content.decode()


def test_it_shows_a_new_force_and_a_recorded_battle_on_the_campaign_page_at_once(
    client, campaign, force
):
    client.force_login(force.player)
    url = reverse("campaign_detail", args=[campaign.pk])
    first, again = count_queries(client, url), count_queries(client, url)

    make_force(campaign=campaign, player=make_user("newcomer"), name="Death Korps")
    fight_alone(force, list(force.units.filter(is_character=True)))
    page = client.get(url).content.decode()

    assert again < first
    assert "Death Korps" in page
    assert "newcomer" in page
    standings = page.index('id="standings-heading"')
    assert page.index("Krieg 83rd", standings) < page.index("Death Korps", standings)


def test_it_marks_each_players_own_force_whoever_looked_first(client, campaign, force):
    rival = make_force(campaign=campaign, player=make_user("rival"), name="Steel Legion")
    url = reverse("campaign_detail", args=[campaign.pk])
    seen = {}
    for player in (force.player, rival.player):
        client.force_login(player)
        page = client.get(url).content.decode()
        mine = page.index('class="table__row--mine"')
        seen[player.username] = page[mine : page.index("</tr>", mine)]

    assert "Krieg 83rd" in seen[force.player.username]
    assert "Steel Legion" in seen["rival"]


def version_of(campaign) -> str:
    return campaign_version(campaign_page_campaigns().get(pk=campaign.pk))


def test_it_changes_the_campaigns_version_with_any_of_its_forces_in_either_order(campaign, force):
    """On PostgreSQL changes to two forces can commit in the other order than they began,
    and a page may see the later one first: the version moves on with each, whichever
    comes first, and never comes back to one already seen."""
    rival = make_force(campaign=campaign, player=make_user("rival"), name="Steel Legion")
    seen = [version_of(campaign)]
    for changed in (rival, force):
        services.update_force_details(actor=changed.player, force=changed, goals="Hold the line")
        seen.append(version_of(campaign))

    assert len(set(seen)) == 3


def test_it_changes_the_campaigns_version_when_a_member_joins(campaign):
    before = version_of(campaign)

    newcomer = make_user("newcomer")
    services.join_campaign(actor=newcomer, user=newcomer, campaign=campaign)

    assert version_of(campaign) != before


def test_it_gives_a_campaign_without_forces_a_version():
    assert version_of(make_campaign(name="Empty")) == "1-0"


def test_it_asks_for_nothing_but_the_force_when_looking_again_outside_a_battle(client, force):
    """The session with its user, and the force with whether a battle not over has a side
    for it."""
    client.force_login(force.player)
    url = reverse("force_detail", args=[force.pk])
    count_queries(client, url)

    assert count_queries(client, url) == 2


def test_it_asks_once_more_for_the_battle_a_force_is_in_and_shows_it(client, force):
    client.force_login(force.player)
    url = reverse("force_detail", args=[force.pk])
    services.start_battle(
        actor=force.player, force=force, battle_size="Incursion", campaign=force.campaign
    )
    count_queries(client, url)

    assert count_queries(client, url) == 3
    assert "in a battle that has not been recorded yet" in client.get(url).content.decode()


def test_it_builds_every_cached_table_again_after_a_restore(
    client, campaign, force, monkeypatch, tmp_path
):
    """A restore takes revisions back to numbers that named other states; the database's
    generation, which `restore` moves on, is in every cache key (campaign.serving)."""
    monkeypatch.setattr(serving, "sqlite_file", lambda: tmp_path / "db.sqlite3")
    client.force_login(force.player)
    pages = [
        reverse("force_detail", args=[force.pk]),
        reverse("campaign_detail", args=[campaign.pk]),
    ]
    built = [count_queries(client, url) for url in pages]
    # What a restore brings back: the same revisions, other rows.
    Unit.objects.filter(force=force, name="1st Line Squad").update(name="Gas Squad")
    CrusadeForce.objects.filter(pk=force.pk).update(name="Krieg 84th")
    assert "Gas Squad" not in client.get(pages[0]).content.decode()  # cached as it was

    serving.new_generation(tmp_path / "db.sqlite3")

    assert [count_queries(client, url) for url in pages] == built
    assert "Gas Squad" in client.get(pages[0]).content.decode()
    assert "Krieg 84th" in client.get(pages[1]).content.decode().split('id="standings-heading"')[1]


def test_it_keeps_the_campaigns_log_when_a_force_changes_and_shows_a_new_entry_at_once(
    client, campaign, force
):
    """The log is cached under the campaign's own revision: a change to a force (which
    moves only the force's) leaves it be; an entry in the log moves the campaign's."""
    client.force_login(force.player)
    url = reverse("campaign_detail", args=[campaign.pk])
    services.write_log_entry(
        actor=force.player, campaign=campaign, title="The first day", text="Gas and mud."
    )
    assert "The first day" in client.get(url).content.decode()

    services.update_force_details(actor=force.player, force=force, goals="Hold the line")
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url).content.decode()
    services.write_log_entry(
        actor=force.player, campaign=campaign, title="The second day", text="More mud."
    )
    after = client.get(url).content.decode()

    assert "The first day" in again
    assert not any("campaign_logentry" in query["sql"] for query in queries.captured_queries)
    assert "The second day" in after
