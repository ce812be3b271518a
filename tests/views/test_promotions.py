"""Settling a promotion (R3.7): a Battle Honour, or Renowned Heroes instead."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import rules, services
from campaign.forms.requisitions import MAX_ENHANCEMENT_POINTS, RenownedHeroesForm
from campaign.models import BattleHonour, Promotion
from tests.factories import make_house_content, reload

from .helpers import texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(promoted):
    return promoted


def _trait_url(table) -> str:
    return reverse("promotion_settle", args=[table.promotion.pk])


PREFIXES = {
    "trait_roll": "trait",
    "trait_choose": "trait",
    "weapon_modification": "weapon",
    "crusade_relic": "relic",
    "renowned_heroes": "heroes",
}


MODIFY = "weapon_modification"
WEAPON = {"model_name": "Captain Vorn", "weapon": "Master-crafted bolt rifle"}


def _settle(client, at, category: str, promotion=None, *, user=None, **fields):
    """The owner (or ``user``) settles a promotion (the one ``at`` the table, by default)
    with the button ``category``; ``fields`` are named without their form's prefix."""
    prefix = PREFIXES[category]
    client.force_login(user or at.owner)
    url = reverse("promotion_settle", args=[(promotion or at.promotion).pk])
    data = {"category": category, **{f"{prefix}-{k}": v for k, v in fields.items()}}
    return client.post(url, data)


def test_it_sends_anonymous_users_to_log_in(client, table):
    assert client.get(_trait_url(table)).status_code == 302


@pytest.mark.parametrize(("who", "status"), [("opponent", 403), ("outsider", 404)])
def test_it_lets_only_the_units_player_settle(client, table, who, status):
    response = _settle(client, table, "trait_roll", user=getattr(table, who), table="Character")

    assert response.status_code == status
    assert reload(table.promotion).status == Promotion.Status.PENDING


def test_it_settles_with_a_chosen_battle_trait(client, table):
    response = _settle(
        client, table, "trait_choose", table="Character", trait="Character::Natural Leader"
    )

    assert response.status_code == 302
    assert response.url == reverse("unit_detail", args=[table.captain.pk])
    assert "Captain Vorn gained Battle Trait: Natural Leader" in texts(response)
    assert reload(table.promotion).status == Promotion.Status.SETTLED
    assert [h.name for h in table.captain.honours.all()] == ["Natural Leader"]


def test_it_rolls_a_battle_trait_on_the_chosen_table(client, table):
    _settle(client, table, "trait_roll", table="Infantry")

    honour = table.captain.honours.get()
    assert honour.trait_table == "Infantry"


def test_it_offers_the_campaigns_own_traits(client, table):
    custom = make_house_content(
        campaign=table.campaign, kind="battle_trait", name="Hive Hunter", trait_table="Character"
    )
    client.force_login(table.owner)

    page = client.get(_trait_url(table)).content.decode()
    _settle(client, table, "trait_choose", table="Character", trait=custom.choice_key)

    assert "Hive Hunter" in page
    assert table.captain.honours.get().custom_content == custom


def test_it_requires_an_honour_to_replace_at_the_cap(client, table):
    squad = table.squad
    services.correct_unit(actor=table.owner, unit=squad, reason="setup", xp=30)
    for name in ("Obdurate Obedience", "Headhunters", "Vanguard Espionage"):
        BattleHonour.objects.create(unit=squad, category="battle_trait", name=name)
    promotion = Promotion.objects.create(unit=squad, rank=2)
    client.force_login(table.owner)

    page = client.get(reverse("promotion_settle", args=[promotion.pk])).content.decode()
    refused = _settle(client, table, "trait_roll", promotion, table="Infantry")
    old = squad.honours.get(name="Headhunters")
    done = _settle(
        client,
        table,
        "trait_choose",
        promotion,
        table="Infantry",
        trait="Infantry::Resolute Veterans",
        replace=old.pk,
    )

    assert "Replace which Battle Honour" in page
    assert refused.status_code == 200
    assert refused.context["trait_form"].errors["replace"]
    assert done.status_code == 302
    assert reload(old).status == BattleHonour.Status.LOST
    assert squad.honours.filter(status="active").count() == 3


def test_it_settles_with_a_weapon_modification_of_two_chosen_mods(client, table):
    response = _settle(client, table, MODIFY, **WEAPON, first="Brutal", second="Heirloom")

    assert response.status_code == 302
    assert table.captain.honours.get().modifications == ["Brutal", "Heirloom"]


def test_it_refuses_the_same_modification_twice(client, table):
    response = _settle(client, table, MODIFY, **WEAPON, first="Brutal", second="Brutal")

    assert response.status_code == 200
    assert not table.captain.honours.exists()


def test_it_settles_with_an_artificer_relic_and_hides_higher_relics(client, table):
    client.force_login(table.owner)

    page = client.get(_trait_url(table)).content.decode()
    response = _settle(client, table, "crusade_relic", relic="Master-crafted Armour")

    assert "Sigil of Sol" not in page  # Antiquity relics need Heroic rank
    assert response.status_code == 302
    assert table.captain.honours.get().relic_category == "artificer"


def test_it_tells_non_characters_relics_are_for_characters(client, table):
    promotion = Promotion.objects.create(unit=table.squad, rank=1)
    client.force_login(table.owner)

    html = client.get(reverse("promotion_settle", args=[promotion.pk])).content.decode()

    assert "CHARACTER models only" in html


def test_it_settles_with_renowned_heroes_instead(client, table):
    response = _settle(
        client, table, "renowned_heroes", enhancement="Artificer Armour", enhancement_points=10
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    captain = reload(table.captain)
    assert captain.enhancement == "Artificer Armour"
    assert reload(table.promotion).status == Promotion.Status.SETTLED


def test_it_names_the_honour_a_campaign_trait_gave_by_its_category(client, table):
    custom = make_house_content(
        campaign=table.campaign, kind="battle_trait", name="Hive Hunter", trait_table="Character"
    )
    response = _settle(client, table, "trait_choose", table="Character", trait=custom.choice_key)

    label = rules.HonourCategory.CUSTOM.label
    assert f"Captain Vorn gained {label}: Hive Hunter" in texts(response)


def test_it_offers_the_campaigns_relics_but_not_retired_ones(client, table):
    relic = make_house_content(
        campaign=table.campaign, kind="crusade_relic", name="Bone Idol", relic_category="artificer"
    )
    retired = make_house_content(
        campaign=table.campaign, kind="crusade_relic", name="Dust Idol", relic_category="artificer"
    )
    organiser = table.campaign.memberships.get(role="organiser").user
    services.retire_custom_content(actor=organiser, content=retired)
    client.force_login(table.owner)

    offered = services.crusade_relic_choices(table.captain, [relic])
    page = client.get(_trait_url(table))
    response = _settle(client, table, "crusade_relic", relic=relic.choice_key)

    assert page.context["relic_form"].fields["relic"].choices == [
        ("", "Choose a relic…"),
        *offered,
    ]
    assert (relic.choice_key, "Bone Idol (Artificer Relic)") in offered
    assert "Dust Idol" not in page.content.decode()
    assert response.status_code == 302
    assert table.captain.honours.get().custom_content == relic


def test_it_hides_a_relic_another_unit_of_the_force_carries(client, table):
    BattleHonour.objects.create(
        unit=table.squad,
        category="crusade_relic",
        name="Master-crafted Armour",
        relic_category="artificer",
    )
    client.force_login(table.owner)

    page = client.get(_trait_url(table)).content.decode()

    assert "Master-crafted Armour" not in page
    assert "Artificer Weapon" in page


def test_it_uses_the_one_renowned_heroes_form_with_the_same_bounds(client, table):
    client.force_login(table.owner)

    page = client.get(_trait_url(table))
    response = _settle(
        client,
        table,
        "renowned_heroes",
        enhancement="Artificer Armour",
        enhancement_points=MAX_ENHANCEMENT_POINTS + 1,
    )

    assert type(page.context["heroes_form"]) is RenownedHeroesForm
    assert page.context["heroes_form"]["enhancement_points"].initial == 0
    assert response.status_code == 200
    assert response.context["heroes_form"].errors["enhancement_points"]
    assert reload(table.promotion).status == Promotion.Status.PENDING
