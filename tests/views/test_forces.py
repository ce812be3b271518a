"""Force pages: create, Order of Battle, edit, history, Increase Supply Limit."""

import pytest
from django.core.cache import caches
from django.urls import reverse
from django.utils.html import escape

from campaign import rules, services
from campaign.models import BattleHonour, CrusadeForce, HistoryEntry, RequisitionPurchase
from campaign.selectors import forces as forces_selectors
from campaign.selectors.oob_cards import cards_from, order_of_battle_cards
from campaign.templatetags.crusade import _row_badges, unit_badges
from tests.factories import (
    make_campaign,
    make_character,
    make_force,
    make_unit,
    make_user,
    reload,
)

from .helpers import count_queries, texts

pytestmark = pytest.mark.django_db


def make_campaign_for(player, **house_rules):
    """Another campaign the player has joined."""
    campaign = make_campaign(**house_rules)
    services.join_campaign(actor=player, user=player, campaign=campaign)
    return campaign


# force_create


def test_it_creates_a_force_in_a_campaign_the_player_belongs_to(client, member, campaign):
    client.force_login(member)
    response = client.post(
        reverse("force_create"),
        {"name": "Hive Fleet Tiamat", "faction": "Tyranids", "campaign": campaign.pk},
    )
    force = CrusadeForce.objects.get(name="Hive Fleet Tiamat")
    assert response.status_code == 302
    assert response.url == reverse("force_detail", args=[force.pk])
    assert force.player == member
    assert force.campaign == campaign
    assert force.supply_limit == 1000 and force.rp == 5
    assert "Hive Fleet Tiamat is ready" in texts(response)[0]


def test_it_offers_only_the_players_campaigns(client, outsider, campaign):
    client.force_login(outsider)
    response = client.post(
        reverse("force_create"), {"name": "Sneaky", "faction": "Aeldari", "campaign": campaign.pk}
    )
    assert response.status_code == 200
    assert "campaign" in response.context["form"].errors
    assert not CrusadeForce.objects.filter(name="Sneaky").exists()


def test_it_creates_a_force_without_a_campaign(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("force_create"), {"name": "Lone", "faction": "Orks"})
    assert response.status_code == 302
    assert CrusadeForce.objects.get(name="Lone").campaign is None


def test_it_shows_errors_for_a_force_without_a_name(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("force_create"), {"name": "", "faction": "Orks"})
    assert response.status_code == 200
    assert response.context["form"].errors["name"]


def test_it_starts_the_new_force_in_the_campaign_a_link_names(client, member, campaign):
    """Issue 13 item 2: ``/forces/new/?campaign=<pk>`` opens with that campaign chosen."""
    make_campaign_for(member)
    client.force_login(member)

    response = client.get(reverse("force_create"), {"campaign": campaign.pk})

    assert response.context["form"]["campaign"].value() == campaign.pk
    assert f'<option value="{campaign.pk}" selected>' in response.content.decode()


def test_it_starts_the_new_force_in_the_players_only_campaign(client, member, campaign):
    client.force_login(member)

    response = client.get(reverse("force_create"))

    assert response.context["form"]["campaign"].value() == campaign.pk


def test_it_chooses_no_campaign_a_link_names_that_the_player_is_not_in(client, outsider, campaign):
    client.force_login(outsider)

    response = client.get(reverse("force_create"), {"campaign": campaign.pk})

    assert response.context["form"]["campaign"].value() is None
    assert campaign.name not in response.content.decode()


def test_it_offers_to_bring_a_force_raised_alone_into_the_campaign_just_joined(
    client, member, campaign
):
    alone = make_force(player=member, name="The Ashen Host")
    client.force_login(member)

    page = client.get(reverse("force_create"), {"campaign": campaign.pk}).content.decode()

    url = reverse("force_campaign", args=[alone.pk])
    assert f'href="{url}?campaign={campaign.pk}"' in page
    assert f"Bring The Ashen Host into {escape(campaign.name)}" in page


def test_it_starts_a_new_force_in_no_campaign_for_a_player_in_none(client):
    player = make_user()
    client.force_login(player)

    response = client.get(reverse("force_create"))

    assert response.context["form"]["campaign"].value() is None
    assert "Already raised a force?" not in response.content.decode()


# force_campaign: bring a force raised outside any campaign into one


def test_it_brings_a_force_raised_alone_into_a_campaign_the_player_joined(client, member, campaign):
    """Issue 13 item 1: the newcomer's force raised before joining is no longer stuck."""
    alone = make_force(player=member, name="The Ashen Host")
    client.force_login(member)
    url = reverse("force_campaign", args=[alone.pk])

    page = client.get(url, {"campaign": campaign.pk})
    response = client.post(url, {"campaign": campaign.pk})

    assert page.context["form"]["campaign"].value() == campaign.pk
    assert response.status_code == 302 and response.url == reverse("force_detail", args=[alone.pk])
    assert reload(alone).campaign == campaign
    assert texts(response) == [
        f"The Ashen Host is now in {campaign.name}: 1000 points of Supply Limit and 5RP. "
        "You can start battles against its players."
    ]
    assert HistoryEntry.objects.filter(action="force_joined_campaign", force=alone).exists()


def test_it_shows_why_a_force_cant_join_next_to_the_campaign(client, member):
    campaign = make_campaign_for(member, starting_supply_limit=500)
    alone = make_force(player=member, name="The Ashen Host")
    make_unit(alone, points=600)
    client.force_login(member)

    response = client.post(reverse("force_campaign", args=[alone.pk]), {"campaign": campaign.pk})

    assert response.status_code == 200
    assert "more than the 500-point Supply Limit" in response.content.decode()
    assert reload(alone).campaign is None


def test_it_refuses_a_campaign_the_player_is_not_in(client, outsider, campaign):
    alone = make_force(player=outsider)
    client.force_login(outsider)

    response = client.post(reverse("force_campaign", args=[alone.pk]), {"campaign": campaign.pk})

    assert "campaign" in response.context["form"].errors
    assert reload(alone).campaign is None


def test_it_sends_a_force_already_in_a_campaign_back_to_its_page(client, owner, force):
    client.force_login(owner)

    response = client.get(reverse("force_campaign", args=[force.pk]))

    assert response.url == reverse("force_detail", args=[force.pk])
    assert texts(response) == [f"Iron Crusade is already in {force.campaign.name}."]


def test_it_points_the_edit_page_and_the_order_of_battle_to_a_campaign(client, outsider):
    """Issue 13 item 1: a force outside any campaign says how to bring it into one."""
    alone = make_force(player=outsider, name="Lone")
    client.force_login(outsider)
    url = reverse("force_campaign", args=[alone.pk])

    for page in (reverse("force_edit", args=[alone.pk]), reverse("force_detail", args=[alone.pk])):
        html = client.get(page).content.decode()
        assert f'href="{url}"' in html, page
        assert "t in a campaign yet" in html, page


def test_it_names_the_campaign_on_the_edit_page_of_a_force_in_one(client, owner, force):
    client.force_login(owner)

    html = client.get(reverse("force_edit", args=[force.pk])).content.decode()

    assert reverse("force_campaign", args=[force.pk]) not in html
    assert f'is in <a href="{reverse("campaign_detail", args=[force.campaign.pk])}"' in html


def test_it_sends_anonymous_visitors_to_log_in(client, force):
    for url in [
        reverse("force_create"),
        reverse("force_detail", args=[force.pk]),
        reverse("force_edit", args=[force.pk]),
        reverse("force_history", args=[force.pk]),
    ]:
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))


# force_detail


def test_it_shows_the_order_of_battle_to_the_owner_with_controls(client, owner, force):
    make_unit(force, name="Squad Alpha", points=300)
    client.force_login(owner)
    response = client.get(reverse("force_detail", args=[force.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Squad Alpha" in body
    assert "300" in body and "1000" in body
    assert "5</strong> / 10" in body
    assert reverse("unit_create", args=[force.pk]) in body
    assert reverse("force_edit", args=[force.pk]) in body
    assert reverse("force_banner", args=[force.pk]) in body
    assert "Buy Increase Supply Limit" in body
    assert reverse("force_history", args=[force.pk]) in body


def test_it_shows_the_order_of_battle_to_a_member_without_controls(client, member, force):
    client.force_login(member)
    response = client.get(reverse("force_detail", args=[force.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert force.name in body
    assert reverse("unit_create", args=[force.pk]) not in body
    assert reverse("force_edit", args=[force.pk]) not in body
    assert reverse("force_banner", args=[force.pk]) not in body
    assert "Buy Increase Supply Limit" not in body
    assert reverse("force_history", args=[force.pk]) in body


def test_it_hides_the_force_from_outsiders(client, outsider, force):
    client.force_login(outsider)
    assert client.get(reverse("force_detail", args=[force.pk])).status_code == 404
    assert client.get(reverse("force_history", args=[force.pk])).status_code == 404


def test_it_marks_the_supply_bar_full_at_the_limit(client, owner, force):
    make_unit(force, points=1000)
    client.force_login(owner)
    body = client.get(reverse("force_detail", args=[force.pk])).content.decode()
    assert "bar bar--full" in body
    assert '1000</strong> / <span class="supply-limit">1000' in body


def test_it_shows_no_xp_units_as_na_and_removed_units_apart(client, owner, force):
    make_unit(force, name="Gribblers", is_swarm=True, points=40)
    gone = make_unit(force, name="Lost Squad")
    services.remove_unit(actor=owner, unit=gone, reason="Fell at the gate")
    client.force_login(owner)
    response = client.get(reverse("force_detail", args=[force.pk]))
    body = response.content.decode()
    assert "N/A" in body
    assert '<details class="removed">' in body
    assert "Fell at the gate" in body
    assert [u.name for u in response.context["oob"].units] == ["Gribblers"]


def _decorate(force, count):
    for i in range(count):
        unit = make_unit(force, name=f"Unit {i:03}", points=5)
        unit.honours.create(category="battle_trait", name="Headhunters")
        unit.scars.create(name="Fatigued")


def _forces_of(owner, fill, *sizes) -> list:
    """One force per size, each filled by ``fill(force, size)``."""
    forces = [make_force(player=owner, name=f"Force of {n}", faction="Orks") for n in sizes]
    for force, size in zip(forces, sizes, strict=True):
        fill(force, size)
    return forces


def test_it_uses_the_same_number_of_queries_for_5_and_100_units(client, owner):
    small, big = _forces_of(owner, _decorate, 5, 100)
    client.force_login(owner)
    assert count_queries(client, reverse("force_detail", args=[small.pk])) == count_queries(
        client, reverse("force_detail", args=[big.pk])
    )


def test_it_builds_the_units_table_in_two_queries_whatever_the_forces_size(client, owner):
    """The cards, then their honours, scars, promotions, upgrades and open Out of Action
    tests together, when the table is not cached (the first look after a change); none
    once it is."""
    small, big = _forces_of(owner, _decorate, 5, 100)
    client.force_login(owner)
    for force in (small, big):
        url = reverse("force_detail", args=[force.pk])
        caches["template_fragments"].clear()
        first = count_queries(client, url)
        assert first - count_queries(client, url) == 2


def test_it_builds_no_row_again_after_a_change_that_leaves_the_cards_as_they_were(
    client, owner, monkeypatch
):
    """The units table is kept under the digest of the cards as read, too: after the
    force's goals change, the next look reads the cards and finds their rows built; after
    a card changes, it builds them again and shows the change."""
    (force,) = _forces_of(owner, _decorate, 5)
    client.force_login(owner)
    url = reverse("force_detail", args=[force.pk])
    built = []
    monkeypatch.setattr(
        forces_selectors, "cards_from", lambda *read: built.append(1) or cards_from(*read)
    )
    client.get(url)
    assert built == [1]

    services.update_force_details(actor=owner, force=force, goals="Take the ridge")
    page = client.get(url).content.decode()
    assert "Take the ridge" in page and "Unit 004" in page
    assert built == [1], "the same cards: no row built again"

    unit = force.units.get(name="Unit 004")
    services.update_unit_details(actor=owner, unit=unit, name="Unit 004 the Bold")
    page = client.get(url).content.decode()
    assert built == [1, 1] and "Unit 004 the Bold" in page


def test_it_reads_each_cards_honours_and_scars_for_the_order_of_battle_as_a_card_does(owner):
    """`selectors.order_of_battle_cards` reads the lists by the force, as plain rows: the
    same badges, Crusade points and waiting promotions as the cards' prefetches give."""
    (force,) = _forces_of(owner, _decorate, 3)
    force.units.get(name="Unit 001").honours.create(
        category="battle_trait", name="Old", status=BattleHonour.Status.VOIDED
    )
    make_unit(force, name="Gribblers <&>", is_swarm=True)
    veteran = make_character(force, name="Old One")
    force.units.filter(pk=veteran.pk).update(legendary_veteran=True, xp=40)
    veteran.honours.create(
        category="crusade_relic", relic_category="artificer", name='Blade of "Ages"'
    )
    rows, removed = order_of_battle_cards(force)
    expected = list(force.units.with_card_details().order_by("name"))
    badges = [_row_badges(row) for row in rows]
    assert badges == [str(unit_badges(u)) for u in expected]
    assert all(kind in "".join(badges) for kind in ("veteran", "relic", "scar", "&lt;&amp;"))

    def lists(units):
        return [
            (
                u.pk,
                [(h.name, h.get_category_display()) for h in u.active_honours()],
                [s.name for s in u.active_scars()],
                u.crusade_points,
                u.xp_display,
                u.rank.label,
                u.agenda_tally,
            )
            for u in units
        ]

    assert lists(rows) == lists(expected)
    assert [row.pending_promotion_pks for row in rows] == [
        [p.pk for p in u.pending_promotions()] for u in expected
    ]
    assert removed == []


# force_edit


def test_it_lets_the_owner_edit_the_narrative(client, owner, force):
    client.force_login(owner)
    response = client.post(
        reverse("force_edit", args=[force.pk]),
        {"name": "Iron Crusade", "faction": "Adeptus Astartes", "goals": "Take the hive"},
    )
    assert response.status_code == 302
    assert reload(force).goals == "Take the hive"
    assert HistoryEntry.objects.filter(force=force, action="force_edited").exists()


def test_it_forbids_others_from_editing(client, member, outsider, force):
    client.force_login(member)
    assert client.get(reverse("force_edit", args=[force.pk])).status_code == 403
    assert client.post(reverse("force_edit", args=[force.pk]), {}).status_code == 403
    client.force_login(outsider)
    assert client.get(reverse("force_edit", args=[force.pk])).status_code == 404


# force_history


def test_it_lists_history_with_numbers_before_and_after(client, member, force, owner):
    services.increase_supply_limit(actor=owner, force=force)
    client.force_login(member)
    body = client.get(reverse("force_history", args=[force.pk])).content.decode()
    assert "Supply limit" in body
    assert "1000 → 1200" in body
    assert "owner" in body


def test_it_names_xp_and_rp_as_players_write_them_in_the_history(client, owner, force, unit):
    """Issue 13 item 7: "XP", never "Xp"."""
    services.correct_unit(actor=owner, unit=unit, reason="Paper roster", xp=5)
    services.correct_force(actor=owner, force=force, reason="Paper roster", rp=2)
    client.force_login(owner)

    body = client.get(reverse("force_history", args=[force.pk])).content.decode()

    assert (
        '<span class="changes__what">XP</span> <span class="changes__numbers">0 → 5</span>' in body
    )
    assert '<span class="changes__what">RP</span>' in body
    assert ">Xp<" not in body and ">Rp<" not in body  # (tokens on the page may hold "Xp")


def _history(force, count: int) -> None:
    for i in range(count):
        services.update_force_details(actor=force.player, force=force, goals=f"Goal {i}")


def test_it_shows_the_history_a_page_at_a_time_with_a_link_to_older_pages(client, owner, force):
    _history(force, 60)  # 61 rows with the force's creation: two pages
    client.force_login(owner)
    url = reverse("force_history", args=[force.pk])

    first = client.get(url).content.decode()
    second = client.get(url, {"page": 2}).content.decode()

    assert first.count('class="timeline__item"') == 50
    assert 'href="?page=2"' in first and "Page 1 of 2" in first
    assert "Goal 59" in first
    assert second.count('class="timeline__item"') == 11
    assert "mustered with a 1000-point Supply Limit" in second
    assert 'href="?page=1"' in second


def test_it_shows_the_last_history_page_for_a_page_past_the_end(client, owner, force):
    client.force_login(owner)
    history = client.get(reverse("force_history", args=[force.pk]), {"page": "99"}).context
    assert history["history"].page.number == 1
    assert [row.entry.action for row in history["history"].rows] == ["force_created"]


def test_it_reads_the_history_once_and_shows_a_change_at_once_on_every_page(client, owner, force):
    _history(force, 60)
    client.force_login(owner)
    url = reverse("force_history", args=[force.pk])
    first, again = count_queries(client, url), count_queries(client, url)
    assert "Page 2 of 2" in client.get(url, {"page": 2}).content.decode()

    services.update_force_details(actor=owner, force=force, goals="Hold the line")
    newest = client.get(url).content.decode()
    second = client.get(url, {"page": 2}).content.decode()

    assert again < first
    assert "Hold the line" in newest.split('class="timeline"')[1]
    assert "Goal 59" in newest and "Goal 9" in second
    assert second.count('class="timeline__item"') == 12


def test_it_reads_the_history_in_the_same_number_of_queries_for_20_and_300_rows(client, owner):
    short, long = _forces_of(owner, _history, 20, 300)
    client.force_login(owner)

    few = count_queries(client, reverse("force_history", args=[short.pk]))
    many = count_queries(client, reverse("force_history", args=[long.pk]))
    last_page = count_queries(client, reverse("force_history", args=[long.pk]), page=7)

    assert few == many == last_page


# POST-only URLs


@pytest.mark.parametrize("name", ["force_banner", "force_requisition"])
def test_it_refuses_get_on_post_only_urls(client, owner, force, name):
    client.force_login(owner)
    kwargs = {"pk": force.pk}
    if name == "force_requisition":
        kwargs["requisition"] = "increase_supply_limit"
    assert client.get(reverse(name, kwargs=kwargs)).status_code == 405


# force_requisition


def _buy_url(force, requisition="increase_supply_limit"):
    return reverse("force_requisition", args=[force.pk, requisition])


def test_it_buys_increase_supply_limit(client, owner, force):
    client.force_login(owner)
    response = client.post(_buy_url(force))
    force = reload(force)
    assert response.status_code == 302
    assert (force.supply_limit, force.rp) == (1200, 4)
    assert texts(response) == [
        "Bought Increase Supply Limit for 1RP: your Supply Limit is now 1200."
    ]


def test_it_returns_the_summary_partials_to_htmx(client, owner, force):
    client.force_login(owner)
    response = client.post(_buy_url(force), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert '<section class="force-card" id="force-summary"' in body
    assert 'id="force-requisitions"' in body and 'hx-swap-oob="true"' in body
    assert "<html" not in body
    assert "1200" in body and "4</strong> / 10" in body
    assert reload(force).rp == 4


def test_it_refuses_without_enough_rp_and_changes_nothing(client, owner, force):
    for _ in range(5):
        services.increase_supply_limit(actor=owner, force=force)
    client.force_login(owner)
    response = client.post(_buy_url(force), HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "That needs 1RP; you have 0RP." in response.content.decode()
    assert reload(force).supply_limit == 2000
    assert RequisitionPurchase.objects.filter(force=force).count() == 5

    response = client.post(_buy_url(force))
    assert response.status_code == 302
    assert texts(response) == ["That needs 1RP; you have 0RP."]


@pytest.mark.parametrize("requisition", ["fresh_recruits", "renowned_heroes", "nonsense"])
def test_it_404s_for_requisitions_that_are_not_force_level(client, owner, force, requisition):
    client.force_login(owner)
    assert client.post(_buy_url(force, requisition)).status_code == 404
    assert reload(force).rp == 5


def test_it_forbids_members_and_hides_from_outsiders_buying(client, member, outsider, force):
    client.force_login(member)
    assert client.post(_buy_url(force)).status_code == 403
    client.force_login(outsider)
    assert client.post(_buy_url(force)).status_code == 404
    assert reload(force).rp == 5


def test_it_lists_pending_promotions_on_the_order_of_battle(client, owner, force):
    hero = make_character(force, name="Captain Varro")
    hero.promotions.create(rank=1)
    client.force_login(owner)
    body = client.get(reverse("force_detail", args=[force.pk])).content.decode()
    assert "Promotion to settle" in body


def test_it_names_the_unit_requisitions_as_the_rules_do(client, owner, force):
    client.force_login(owner)
    body = client.get(reverse("force_detail", args=[force.pk])).content.decode()
    for requisition in rules.Requisition:
        assert requisition.label in body
    assert escape(rules.REQUISITION_DESCRIPTIONS[rules.Requisition.INCREASE_SUPPLY_LIMIT]) in body
