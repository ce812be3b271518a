"""Crusade card pages: add, supply check, card, edit, remove, unit requisitions."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaign import rules, services
from campaign.forms.requisitions import MAX_ENHANCEMENT_POINTS, RenownedHeroesForm
from campaign.models import CARD_FIELDS, HistoryEntry, Unit
from tests.factories import make_character, make_force, make_unit, reload

from .helpers import count_queries, texts

pytestmark = pytest.mark.django_db


def unit_data(**overrides):
    data = {
        "name": "Squad Bravo",
        "datasheet": "Intercessor Squad",
        "points": "90",
        "faction_keywords": "Adeptus Astartes",
        "model_count": "5",
        "max_model_count": "10",
        "enhancement_points": "0",
        "is_battleline": "on",
        "counts_towards_supply": "on",
    }
    data.update(overrides)
    return data


# unit_create


def test_it_prefills_faction_keywords_from_the_force(client, owner, force):
    client.force_login(owner)
    response = client.get(reverse("unit_create", args=[force.pk]))
    assert response.status_code == 200
    assert response.context["form"].initial["faction_keywords"] == "Adeptus Astartes"
    body = response.content.decode()
    assert 'hx-get="' + reverse("unit_supply_check", args=[force.pk]) in body
    assert 'aria-live="polite"' in body


def test_it_adds_a_unit(client, owner, force):
    client.force_login(owner)
    response = client.post(reverse("unit_create", args=[force.pk]), unit_data())
    assert response.status_code == 302
    unit = Unit.objects.get(name="Squad Bravo")
    assert unit.force == force and unit.points == 90 and unit.is_battleline
    assert unit.model_count == 5 and unit.counts_towards_supply
    assert texts(response) == ["Squad Bravo joined Iron Crusade (90 points)."]


def test_it_adds_a_unit_left_out_of_supply(client, owner, force):
    data = unit_data(points="2000")
    del data["counts_towards_supply"]  # the box is ticked until the player unticks it
    client.force_login(owner)
    client.post(reverse("unit_create", args=[force.pk]), data)
    assert not Unit.objects.get(name="Squad Bravo").counts_towards_supply


def test_it_offers_exactly_the_fields_of_a_new_card(client, owner, force):
    client.force_login(owner)
    form = client.get(reverse("unit_create", args=[force.pk])).context["form"]
    assert tuple(form.fields) == CARD_FIELDS.new
    assert form.fields["counts_towards_supply"].initial is True
    assert form.fields["models_description"].help_text == "Which models and how many."


def test_it_refuses_a_unit_over_the_supply_limit_with_the_numbers(client, owner, force):
    make_unit(force, points=950)
    client.force_login(owner)
    response = client.post(reverse("unit_create", args=[force.pk]), unit_data(points="100"))
    assert response.status_code == 200
    errors = response.context["form"].errors["points"]
    assert errors == [
        "That needs 100 more points, but only 50 points are left of your 1000-point "
        "Supply Limit (950 used)."
    ]
    body = response.content.decode()
    assert 'id="id_points_error"' in body
    assert not Unit.objects.filter(name="Squad Bravo").exists()
    assert not HistoryEntry.objects.filter(action="unit_added", unit__name="Squad Bravo").exists()


def test_it_refuses_a_unit_without_models_next_to_the_count(client, owner, force):
    client.force_login(owner)
    response = client.post(reverse("unit_create", args=[force.pk]), unit_data(model_count="0"))
    assert response.context["form"].errors["model_count"]
    assert not response.context["form"].non_field_errors()


def test_it_refuses_a_duplicate_name_next_to_the_name(client, owner, force, unit):
    client.force_login(owner)
    response = client.post(reverse("unit_create", args=[force.pk]), unit_data(name="Squad Alpha"))
    assert "already has a unit called" in response.context["form"].errors["name"][0]


def test_it_forbids_others_from_adding_units(client, member, outsider, force):
    client.force_login(member)
    assert client.get(reverse("unit_create", args=[force.pk])).status_code == 403
    assert client.post(reverse("unit_create", args=[force.pk]), unit_data()).status_code == 403
    client.force_login(outsider)
    assert client.get(reverse("unit_create", args=[force.pk])).status_code == 404
    assert not Unit.objects.filter(name="Squad Bravo").exists()


# unit_supply_check


def test_it_says_the_points_fit(client, owner, force, unit):
    client.force_login(owner)
    response = client.get(
        reverse("unit_supply_check", args=[force.pk]),
        {"points": "750", "counts_towards_supply": "on"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "Fits: 850 of 1000 used after adding." in body
    assert "<html" not in body


def test_it_says_the_points_are_too_many(client, owner, force, unit):
    client.force_login(owner)
    response = client.get(
        reverse("unit_supply_check", args=[force.pk]),
        {"points": "1050", "counts_towards_supply": "on"},
    )
    body = response.content.decode()
    assert "Too many: 150 over your 1000-point Supply Limit." in body
    assert "supply-status--over" in body


def test_it_says_points_left_out_of_supply_always_fit(client, owner, force, unit):
    client.force_login(owner)
    response = client.get(reverse("unit_supply_check", args=[force.pk]), {"points": "1050"})
    body = response.content.decode()
    assert "Fits: this unit is left out of Supply Used (100 of 1000)." in body
    assert "supply-status--ok" in body


def test_it_says_nothing_for_points_that_are_not_a_number(client, owner, force):
    client.force_login(owner)
    response = client.get(reverse("unit_supply_check", args=[force.pk]), {"points": "lots"})
    assert response.status_code == 200
    assert "Fits" not in response.content.decode()


def test_it_keeps_the_supply_check_to_the_owner(client, member, force):
    client.force_login(member)
    url = reverse("unit_supply_check", args=[force.pk])
    assert client.get(url, {"points": "10"}).status_code == 403
    assert client.post(url, {"points": "10"}).status_code == 405


# unit_detail


def test_it_shows_the_crusade_card(client, member, force, unit):
    unit.honours.create(
        category="weapon_modification",
        name="Weapon Modifications",
        model_name="Sergeant",
        weapon="Bolt rifle",
        modifications=["Brutal", "Heirloom"],
    )
    unit.scars.create(name="Fatigued", effect="1 less OC, and no bonus for charging.")
    client.force_login(member)
    response = client.get(reverse("unit_detail", args=[unit.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    for text in [
        "Squad Alpha",
        "Intercessor Squad",
        "Bolt rifle",
        "Brutal",
        "Strength goes up by 1.",
        "Fatigued",
        "1 less OC",
        "Battle-ready",
        "6XP to Blooded",
        "Legendary Veterans",
        "Fresh Recruits",
    ]:
        assert text in body, text
    assert reverse("unit_edit", args=[unit.pk]) not in body
    assert reverse("unit_remove", args=[unit.pk]) not in body


def test_it_shows_owner_actions_and_pending_items_to_the_owner(client, owner, force):
    hero = make_character(force, name="Captain Varro")
    promotion = hero.promotions.create(rank=1)
    client.force_login(owner)
    body = client.get(reverse("unit_detail", args=[hero.pk])).content.decode()
    assert reverse("unit_edit", args=[hero.pk]) in body
    assert reverse("unit_remove", args=[hero.pk]) in body
    assert reverse("promotion_settle", args=[promotion.pk]) in body
    assert reverse("unit_requisition", args=[hero.pk, "renowned_heroes"]) in body


def test_it_shows_progress_to_the_next_rank_as_the_rules_work_it_out(client, owner, unit):
    Unit.objects.filter(pk=unit.pk).update(xp=30)  # test set-up, not a view path
    client.force_login(owner)
    response = client.get(reverse("unit_detail", args=[unit.pk]))
    progress = rules.rank_progress(30, xp_cap=rules.NON_CHARACTER_XP_CAP)
    assert response.context["card"].progress == progress
    assert progress.capped and progress.text in response.content.decode()


def test_it_shows_na_for_a_no_xp_unit(client, owner, force):
    hero = make_unit(force, name="Marneus Calgar", is_epic_hero=True, is_character=True)
    client.force_login(owner)
    body = client.get(reverse("unit_detail", args=[hero.pk])).content.decode()
    assert "<strong>N/A</strong>" in body


def test_it_hides_the_card_from_outsiders(client, outsider, unit):
    client.force_login(outsider)
    assert client.get(reverse("unit_detail", args=[unit.pk])).status_code == 404


def test_it_sends_anonymous_visitors_to_log_in_from_a_card(client, unit):
    response = client.get(reverse("unit_detail", args=[unit.pk]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_it_uses_the_same_number_of_queries_for_a_small_and_a_decorated_card(client, owner):
    force = make_force(player=owner, faction="Orks")
    plain = make_character(force, name="Plain")
    busy = make_character(force, name="Busy")
    for i in range(6):
        busy.honours.create(category="battle_trait", name=f"Trait {i}")
        busy.promotions.create(rank=1)
    for i in range(3):
        busy.scars.create(name=f"Scar {i}")
    for i in range(20):
        services.update_unit_details(actor=owner, unit=busy, notes=f"note {i}")
    client.force_login(owner)
    card = "unit_detail"
    assert count_queries(client, reverse(card, args=[plain.pk])) == count_queries(
        client, reverse(card, args=[busy.pk])
    )


def test_it_shows_the_timeline_a_page_at_a_time(client, owner, unit):
    for i in range(25):
        services.update_unit_details(actor=owner, unit=unit, notes=f"note {i}")
    client.force_login(owner)
    url = reverse("unit_detail", args=[unit.pk])

    first = client.get(url).content.decode()
    second = client.get(url, {"page": 2}).content.decode()

    assert first.count('class="timeline__item"') == 20
    assert 'href="?page=2"' in first
    assert second.count('class="timeline__item"') == 6  # 25 edits and the unit joining
    assert "joined Iron Crusade" in second


# unit_edit


def test_it_edits_free_fields(client, owner, unit):
    data = {"name": "Squad Aurelius", "notes": "Veterans of Vigilus", "selectable_keywords": ""}
    client.force_login(owner)
    assert client.post(reverse("unit_edit", args=[unit.pk]), data).status_code == 302
    unit = reload(unit)
    assert (unit.name, unit.notes) == ("Squad Aurelius", "Veterans of Vigilus")


def test_it_forbids_members_from_editing_cards(client, member, unit):
    client.force_login(member)
    assert client.post(reverse("unit_edit", args=[unit.pk]), {"name": "Mine"}).status_code == 403
    assert reload(unit).name == "Squad Alpha"


# unit_remove


def test_it_asks_before_removing_and_warns_honours_are_lost(client, owner, unit):
    client.force_login(owner)
    response = client.get(reverse("unit_remove", args=[unit.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "permanent" in body and "Battle Honours are lost" in body
    assert reload(unit).status == Unit.Status.ACTIVE


def test_it_removes_the_unit_with_a_reason(client, owner, force, unit):
    client.force_login(owner)
    response = client.post(reverse("unit_remove", args=[unit.pk]), {"reason": "Retired"})
    assert response.status_code == 302
    assert response.url == reverse("force_detail", args=[force.pk])
    unit = reload(unit)
    assert unit.status == Unit.Status.REMOVED and unit.removed_reason == "Retired"
    assert texts(response) == ["Squad Alpha has been removed from the Order of Battle."]


def test_it_forbids_members_from_removing(client, member, outsider, unit):
    client.force_login(member)
    assert client.post(reverse("unit_remove", args=[unit.pk]), {}).status_code == 403
    client.force_login(outsider)
    assert client.post(reverse("unit_remove", args=[unit.pk]), {}).status_code == 404
    assert reload(unit).status == Unit.Status.ACTIVE


# unit_picture


def test_it_refuses_get_on_the_picture_url(client, owner, unit):
    client.force_login(owner)
    assert client.get(reverse("unit_picture", args=[unit.pk])).status_code == 405


# unit_requisition


def _req_url(unit, requisition):
    return reverse("unit_requisition", args=[unit.pk, requisition])


def test_it_buys_fresh_recruits(client, owner, force, unit):
    client.force_login(owner)
    assert client.get(_req_url(unit, "fresh_recruits")).status_code == 200
    response = client.post(
        _req_url(unit, "fresh_recruits"),
        {
            "models_added": "5",
            "points": "200",
            "max_model_count": "10",
            "models_description": "10 Intercessors",
        },
    )
    assert response.status_code == 302 and response.url == reverse("unit_detail", args=[unit.pk])
    unit = reload(unit)
    assert (unit.model_count, unit.max_model_count, unit.points) == (6, 10, 200)
    assert reload(force).rp == 4
    assert texts(response) == ["Bought Fresh Recruits for 1RP."]


def test_it_sends_htmx_back_to_the_card_after_buying(client, owner, force, unit):
    client.force_login(owner)
    response = client.post(
        _req_url(unit, "rearm_and_resupply"),
        {"wargear": "Bolt carbines", "points": "100"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("unit_detail", args=[unit.pk])
    assert reload(unit).wargear == "Bolt carbines"
    assert reload(force).rp == 4


def test_it_shows_a_refused_requisition_next_to_the_field(client, owner, force, unit):
    make_unit(force, points=900)
    client.force_login(owner)
    response = client.post(
        _req_url(unit, "fresh_recruits"),
        {"models_added": "1", "points": "150", "max_model_count": "10"},
    )
    assert response.status_code == 400
    assert "your 1000-point Supply Limit is used up" in response.context["form"].errors["points"][0]
    assert reload(unit).points == 100 and reload(force).rp == 5


def test_it_refuses_renowned_heroes_for_a_non_character(client, owner, force, unit):
    client.force_login(owner)
    response = client.post(
        _req_url(unit, "renowned_heroes"),
        {"enhancement": "Artificer Armour", "enhancement_points": "10"},
    )
    assert response.status_code == 400
    assert "Only a CHARACTER" in response.content.decode()
    assert reload(unit).enhancement == "" and reload(force).rp == 5


def test_it_settles_a_promotion_with_renowned_heroes(client, owner, force):
    hero = make_character(force, name="Captain Varro")
    promotion = hero.promotions.create(rank=1)
    client.force_login(owner)
    response = client.post(
        _req_url(hero, "renowned_heroes"),
        {"enhancement": "Artificer Armour", "enhancement_points": "10"},
    )
    assert response.status_code == 302
    hero = reload(hero)
    assert hero.enhancement == "Artificer Armour" and hero.points == 90
    assert reload(promotion).status == "settled"


def test_it_uses_the_one_renowned_heroes_form_with_its_points_bound(client, owner, force):
    hero = make_character(force, name="Captain Varro")
    client.force_login(owner)
    page = client.get(_req_url(hero, "renowned_heroes"))
    response = client.post(
        _req_url(hero, "renowned_heroes"),
        {"enhancement": "Artificer Armour", "enhancement_points": MAX_ENHANCEMENT_POINTS + 1},
    )
    assert type(page.context["form"]) is RenownedHeroesForm
    assert response.status_code == 400
    assert response.context["form"].errors["enhancement_points"]
    assert reload(hero).enhancement == ""


def test_it_describes_each_requisition_in_the_rules_words(client, owner, unit):
    client.force_login(owner)
    body = client.get(_req_url(unit, "fresh_recruits")).content.decode()
    assert escape(rules.REQUISITION_DESCRIPTIONS[rules.Requisition.FRESH_RECRUITS]) in body


def test_it_repairs_a_chosen_scar(client, owner, force, unit):
    unit.scars.create(name="Fatigued")
    scar = unit.scars.create(name="Deep Scars")
    client.force_login(owner)
    response = client.post(_req_url(unit, "repair_and_recuperate"), {"scar": str(scar.pk)})
    assert response.status_code == 302
    assert [s.name for s in reload(unit).active_scars()] == ["Fatigued"]


def test_it_makes_legendary_veterans_only_when_confirmed(client, owner, force, unit):
    Unit.objects.filter(pk=unit.pk).update(xp=30)  # test set-up, not a view path
    client.force_login(owner)
    response = client.post(_req_url(unit, "legendary_veterans"), {})
    assert response.status_code == 400 and not reload(unit).legendary_veteran
    response = client.post(_req_url(unit, "legendary_veterans"), {"confirm": "on"})
    assert response.status_code == 302 and reload(unit).legendary_veteran
    assert reload(force).rp == 2


@pytest.mark.parametrize("requisition", ["increase_supply_limit", "nonsense"])
def test_it_404s_for_unknown_unit_requisitions(client, owner, unit, requisition):
    client.force_login(owner)
    assert client.get(_req_url(unit, requisition)).status_code == 404


def test_it_forbids_members_from_buying_for_a_unit(client, member, force, unit):
    client.force_login(member)
    response = client.post(_req_url(unit, "fresh_recruits"), {"models_added": "1", "points": "120"})
    assert response.status_code == 403
    assert reload(force).rp == 5
