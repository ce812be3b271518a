"""The organisers' lists built in Python (`campaign.admin.rows`): the same rows as Django's
own, from only the columns shown, and a history count that moves with every change."""

import re

import pytest
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin.templatetags.admin_list import (
    admin_list_filter,
    items_for_result,
    pagination,
)
from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.test.html import parse_html
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from campaign import services
from campaign.admin.rows import lean_filter, lean_pagination, lean_rows
from campaign.models import Unit
from tests.admin.helpers import recorded_battle
from tests.factories import make_battle, make_character, make_force, make_unit

pytestmark = pytest.mark.django_db

LISTS = ["unit", "battle", "historyentry", "crusadeforce"]


@pytest.fixture
def league(organiser, campaign):
    """Two forces, a battle between them, a character and a unit with no XP."""
    battle, ours, theirs = recorded_battle(actor=organiser, campaign=campaign)
    make_character(ours)
    make_unit(theirs, is_fortification=True)
    return battle


def rows_of(response) -> tuple[list[str], list[str]]:
    """The page's rows as `lean_rows` wrote them, and as Django writes them."""
    changelist = response.context["cl"]
    ours = [str(row[0]) for row in lean_rows(changelist)]
    djangos = ["".join(items_for_result(changelist, obj, None)) for obj in changelist.result_list]
    return ours, djangos


@pytest.mark.parametrize("model", LISTS)
def test_it_writes_each_row_as_django_would(organiser_client, league, model):
    response = organiser_client.get(reverse(f"admin:campaign_{model}_changelist"))

    ours, djangos = rows_of(response)

    assert ours and ours == djangos
    assert all(row in response.content.decode() for row in ours)


@pytest.mark.parametrize("model", ["battle", "historyentry"])
def test_it_writes_dates_and_moments_as_django_would_in_any_zone_and_language(
    organiser_client, league, model
):
    """Each day's and minute's text is worked out once, for the zone and the language it
    was worked out in: the same list in another zone shows other times."""
    response = organiser_client.get(reverse(f"admin:campaign_{model}_changelist"))
    shown = {}
    for zone, language in [("UTC", "en-gb"), ("Pacific/Chatham", "en-gb"), ("UTC", "fr")]:
        with timezone.override(zone), translation.override(language):
            ours, djangos = rows_of(response)
        assert ours == djangos, (zone, language)
        shown[zone, language] = ours
    if model == "historyentry":
        assert len(set(map(tuple, shown.values()))) == 3


@pytest.mark.parametrize("model", LISTS)
def test_it_keeps_the_filters_in_each_row_link(organiser_client, league, campaign, model):
    url = reverse(f"admin:campaign_{model}_changelist")
    response = organiser_client.get(url, {"campaign": campaign.pk, "o": "1"})

    ours, djangos = rows_of(response)

    assert ours == djangos
    assert "_changelist_filters=" in ours[0]


def filters_of(response) -> tuple[list, list]:
    """The page's filters as `lean_filter` wrote them, and as Django writes them (as HTML
    trees, so that only the line breaks between tags may differ)."""
    changelist = response.context["cl"]
    specs = changelist.filter_specs
    ours = [parse_html(lean_filter(changelist, spec)) for spec in specs]
    djangos = [parse_html(admin_list_filter(changelist, spec)) for spec in specs]
    return ours, djangos


@pytest.mark.parametrize("model", LISTS)
def test_it_writes_each_filter_as_django_would(organiser_client, league, campaign, model):
    """Plain and chosen, with the names of choices escaped: the same links Django draws."""
    campaign.name = 'Pariah "Nexus" & <Co>'
    campaign.save(update_fields=["name"])
    url = reverse(f"admin:campaign_{model}_changelist")

    for query in ({}, {"campaign": campaign.pk, "o": "1"}):
        response = organiser_client.get(url, query)
        ours, djangos = filters_of(response)
        page = parse_html(response.content.decode())

        assert len(ours) >= 2 and ours == djangos
        assert all(page.count(tree) == 1 for tree in ours)
    chosen = [
        lean_filter(response.context["cl"], spec) for spec in response.context["cl"].filter_specs
    ]
    assert any(
        re.search(
            r'<li class="selected"><a href="[^"]*">Pariah &quot;Nexus&quot; &amp; &lt;Co&gt;</a>',
            html,
        )
        for html in chosen
    )


@pytest.mark.parametrize("query", [{}, {"p": "2"}, {"p": "3", "o": "1"}, {"all": ""}])
def test_it_writes_the_page_links_as_django_would(organiser_client, league, query):
    """Several pages (25 rows a page), the one shown, the last, and "Show all"."""
    force = league.participants.first().force
    for n in range(60):
        services.update_force_details(actor=force.player, force=force, goals=f"Hold, {n}")
    url = reverse("admin:campaign_historyentry_changelist")

    response = organiser_client.get(url, query)
    changelist = response.context["cl"]
    djangos = render_to_string("admin/pagination.html", pagination(changelist))

    assert changelist.result_count > 50
    assert parse_html(lean_pagination(changelist)) == parse_html(djangos)
    assert parse_html(response.content.decode()).count(parse_html(djangos)) == 1


def test_its_action_form_writes_the_markup_djangos_does(organiser_client, league):
    """The choice of action and the hidden box for "select all" written in Python."""
    response = organiser_client.get(reverse("admin:campaign_battle_changelist"))
    ours = response.context["action_form"]
    djangos = helpers.ActionForm(auto_id=None)
    djangos.fields["action"].choices = ours.fields["action"].choices

    for name in ("action", "select_across"):
        assert parse_html(str(ours[name])) == parse_html(str(djangos[name])), name
    assert 'class="select-across"' in str(ours["select_across"])


def test_it_shows_a_card_with_no_xp_and_a_removed_card_as_their_pages_do(
    organiser, organiser_client, league
):
    removed = Unit.objects.exclude(is_fortification=True).first()
    services.remove_unit(actor=organiser, unit=removed, reason="Lost in the warp")
    response = organiser_client.get(reverse("admin:campaign_unit_changelist"))

    ours, djangos = rows_of(response)
    page = response.content.decode()

    assert ours == djangos
    assert '<td class="field-xp_column">N/A</td>' in page
    assert "Removed" in "".join(row for row in ours if f'value="{removed.pk}"' in row)


def test_it_removes_ticked_cards_though_the_page_reads_only_its_columns(organiser_client, league):
    unit = Unit.objects.filter(status=Unit.Status.ACTIVE).first()
    url = reverse("admin:campaign_unit_changelist")

    organiser_client.post(
        url,
        {
            "action": "remove_from_order_of_battle",
            "_selected_action": [unit.pk],
            "apply": "yes",
            "reason": "Retired",
        },
    )

    unit.refresh_from_db()
    assert unit.status != Unit.Status.ACTIVE


def test_it_counts_the_history_again_after_a_change(organiser, organiser_client, league):
    cache.clear()
    url = reverse("admin:campaign_historyentry_changelist")
    force = make_force(campaign=league.campaign)
    before = organiser_client.get(url).context["cl"].result_count

    services.update_force_details(actor=force.player, force=force, goals="Hold the line")
    after = organiser_client.get(url).context["cl"].result_count
    searched = organiser_client.get(url, {"q": "zzz-nothing"}).context["cl"].result_count

    assert after == before + 1
    assert searched == 0


def test_every_campaign_list_writes_its_rows_as_django_would(organiser_client, league):
    names = sorted(
        model._meta.model_name
        for model in admin.site._registry
        if model._meta.app_label == "campaign"
    )
    for name in names:
        response = organiser_client.get(reverse(f"admin:campaign_{name}_changelist"))
        assert response.status_code == 200, name
        ours, djangos = rows_of(response)
        assert ours == djangos, name


def _count_queries(client, url, data=None) -> tuple[int, int]:
    """The list's count, and how many COUNT queries its look asked."""
    with CaptureQueriesContext(connection) as queries:
        count = client.get(url, data or {}).context["cl"].result_count
    return count, sum("COUNT(*)" in q["sql"] for q in queries)


def _new_force(league):
    make_force(campaign=league.campaign)


def _new_unit(league):
    make_unit(league.participants.first().force)


def _new_battle(league):
    ours, theirs = (side.force for side in league.participants.all())
    make_battle(ours, theirs, campaign=league.campaign)


@pytest.mark.parametrize(
    ("model", "change"),
    [("crusadeforce", _new_force), ("unit", _new_unit), ("battle", _new_battle)],
)
def test_a_lists_count_is_kept_until_its_campaign_changes(organiser_client, league, model, change):
    """The count of a league's list is asked once, then kept under the campaigns' state
    (`list_version`): the next look asks none, and the look after a change counts anew."""
    cache.clear()
    url = reverse(f"admin:campaign_{model}_changelist")
    first, counted_first = _count_queries(organiser_client, url)
    again, counted_again = _count_queries(organiser_client, url)

    change(league)
    after, counted_after = _count_queries(organiser_client, url)

    assert (counted_first, counted_again, counted_after) == (1, 0, 1)
    assert again == first
    assert after == first + 1


def test_a_removed_card_leaves_the_kept_count_of_active_cards(organiser_client, league):
    """A filter's count moves with a change of what the filter sees, not only of how many
    rows there are."""
    cache.clear()
    url = reverse("admin:campaign_unit_changelist")
    active = {"status__exact": Unit.Status.ACTIVE}
    before, _ = _count_queries(organiser_client, url, active)
    unit = Unit.objects.filter(status=Unit.Status.ACTIVE, is_character=False).first()
    services.remove_unit(actor=unit.force.player, unit=unit, reason="Lost in the warp")
    after, counted = _count_queries(organiser_client, url, active)
    assert (after, counted) == (before - 1, 1)


def test_a_search_is_counted_at_every_look(organiser_client, league):
    """A search may match a player's name, which no campaign's state follows."""
    cache.clear()
    url = reverse("admin:campaign_unit_changelist")
    counts = [_count_queries(organiser_client, url, {"q": "Captain"})[1] for _ in range(2)]
    assert counts == [1, 1]


def _factions(client, url) -> tuple[list[str], int]:
    """The forces list's faction filter, and how many DISTINCT queries its look asked."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    specs = response.context["cl"].filter_specs
    spec = next(s for s in specs if getattr(s, "field_path", None) == "faction")
    return list(spec.lookup_choices), sum("DISTINCT" in q["sql"] for q in queries)


def test_the_faction_filter_is_kept_until_its_campaign_changes(organiser_client, league):
    """The factions an organiser's forces list filters by are read once, then kept under
    the campaigns' state: a new force's faction is there at the next look."""
    cache.clear()
    url = reverse("admin:campaign_crusadeforce_changelist")
    first, asked_first = _factions(organiser_client, url)
    again, asked_again = _factions(organiser_client, url)

    make_force(campaign=league.campaign, faction="Adeptus Custodes")
    after, asked_after = _factions(organiser_client, url)

    assert (asked_first, asked_again, asked_after) == (1, 0, 1)
    assert again == first and "Adeptus Custodes" not in first
    assert after == sorted([*first, "Adeptus Custodes"])
