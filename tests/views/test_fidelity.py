"""Rules fidelity as the player meets it in the pages (R2.1, R2.3, R6.2, R8.7, R9)."""

import pytest
from django.urls import reverse

from campaign import rules
from campaign.models import Battle, RequisitionPurchase, Unit
from tests.factories import make_character, make_unit, reload

from .helpers import record, set_table

pytestmark = pytest.mark.django_db


def new_unit(client, force, **fields):
    data = {
        "name": "Captain Varro",
        "datasheet": "Captain",
        "points": "80",
        "faction_keywords": force.faction,
        "model_count": "1",
        "counts_towards_supply": "on",
        "is_character": "on",
        "is_infantry": "on",
        "enhancement_points": "0",
        **fields,
    }
    return client.post(reverse("unit_create", args=[force.pk]), data)


def test_it_buys_a_new_characters_enhancement_and_counts_its_points(client, owner, force):
    """R2.1/R6.2: an Enhancement on a new card is a Renowned Heroes purchase while the force
    is raised; the card's points include it."""
    client.force_login(owner)

    response = new_unit(client, force, enhancement="Artificer Armour", enhancement_points="10")

    assert response.status_code == 302
    hero = Unit.objects.get(name="Captain Varro")
    assert (hero.points, hero.enhancement) == (90, "Artificer Armour")
    assert reload(force).rp == 4
    assert RequisitionPurchase.objects.get().requisition == rules.Requisition.RENOWNED_HEROES


def test_it_refuses_an_enhancement_next_to_its_field_once_the_force_has_fought(client, owner):
    """R6.2: after its first battle the force gets Enhancements only at a promotion."""
    table = set_table()

    record(table)
    client.force_login(table.owner)

    response = new_unit(
        client,
        table.force,
        name="Captain Nyx",
        enhancement="Artificer Armour",
        enhancement_points="10",
    )

    assert response.status_code == 200
    assert "settling a promotion" in str(response.context["form"].errors["enhancement"])
    assert not Unit.objects.filter(name="Captain Nyx").exists()


def test_it_lets_the_player_edit_only_the_name_and_notes(client, owner, unit):
    """R2.3: selectable keywords and rules chosen never change after creation."""
    client.force_login(owner)

    form = client.get(reverse("unit_edit", args=[unit.pk])).context["form"]

    assert set(form.fields) == {"name", "notes"}


def test_it_refuses_two_leaders_on_one_bodyguard_without_the_rule_that_allows_it(client):
    """R8.7: one Leader per Bodyguard unit, unless a datasheet rule is named."""
    table = set_table(muster=False)
    second = make_character(table.force, name="Chaplain Oren")
    army = [table.captain, second, table.squad]
    client.force_login(table.owner)
    url = reverse("army_muster", args=[table.mine.pk])
    data = {
        "faction": table.force.faction,
        "detachment": "Gladius Task Force",
        "units": [u.pk for u in army],
        "warlord": table.captain.pk,
        f"attach_{table.captain.pk}": table.squad.pk,
        f"attach_{second.pk}": table.squad.pk,
    }

    refused = client.post(url, data)
    done = client.post(url, {**data, f"second_leader_{table.squad.pk}": "Bodyguard of two"})

    assert refused.status_code == 200
    assert "can have only one Leader" in refused.content.decode()
    assert done.status_code == 302
    page = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()
    assert "Bodyguard of two" in page


def test_it_shows_both_players_why_two_victories_make_the_battle_disputed(client):
    """R9: a result that gives two victors is never applied: the battle is disputed, and
    both players see why."""
    table = set_table()
    for side in (table.mine, table.theirs):
        client.force_login(side.force.player)
        data = {"result": "win", "marked": "", "confirm": "1"}
        for entry in side.army.all():
            data |= {f"kills_{entry.pk}": 0, f"bonus_{entry.pk}": 0, f"reason_{entry.pk}": ""}
        client.post(reverse("army_record", args=[side.pk]), data)

    assert reload(table.battle).status == Battle.Status.DISPUTED
    assert reload(table.force).battle_tally == reload(table.other_force).battle_tally == 0
    for player in (table.owner, table.opponent):
        client.force_login(player)
        page = client.get(reverse("battle_detail", args=[table.battle.pk])).content.decode()
        assert "both claim a Victory" in page
        assert "Recorded: Victory" in page


def test_it_asks_a_second_leaders_rule_only_of_units_two_leaders_could_join(client):
    """R8.7 (decision): the fold-out is offered to a unit a Leader joins, not to a
    vehicle, unless two Leaders are attached to it, when the muster check asks for it."""
    table = set_table(muster=False)
    second = make_character(table.force, name="Chaplain Oren")
    tank = make_unit(table.force, name="Predator Vexus", datasheet="Predator", is_vehicle=True)
    client.force_login(table.owner)
    url = reverse("army_muster", args=[table.mine.pk])

    page = client.get(url)
    led_twice = client.post(
        url,
        {
            "faction": table.force.faction,
            "detachment": "Gladius Task Force",
            "units": [table.captain.pk, second.pk, tank.pk],
            "warlord": table.captain.pk,
            f"attach_{table.captain.pk}": tank.pk,
            f"attach_{second.pk}": tank.pk,
        },
    )

    offered = page.context["form"].rule_fields
    html = page.content.decode()
    assert table.squad.pk in offered and f'name="{offered[table.squad.pk]}"' in html
    assert tank.pk not in offered and f'name="second_leader_{tank.pk}"' not in html
    assert "Two Leaders for Predator Vexus?" not in page.content.decode()
    assert "Two Leaders for Predator Vexus?" in led_twice.content.decode()
