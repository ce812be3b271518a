"""The campaign map's services: importing and editing a map, handing territories over,
and how a battle's end (and its void) changes who holds the ground it was fought over."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import services
from campaign.models import (
    Campaign,
    ContentPack,
    CrusadeForce,
    EnabledPack,
    HistoryAction,
    HistoryEntry,
    Phase,
    Territory,
    TerritoryChange,
)
from campaign.services import territories as territory_service
from tests.factories import make_battle, make_campaign, make_force, make_recorded_battle, reload
from tests.maps.helpers import SMALL, encode, small, war

pytestmark = pytest.mark.django_db


def fight_over(w, territory, *, result="win", winner=None):
    """A battle ``winner`` (the loyal force unless said) records as ``result``."""
    winner = winner or w.loyal
    loser = w.traitor if winner == w.loyal else w.loyal
    return make_recorded_battle(
        winner, loser, result=result, campaign=w.campaign, territory=territory
    )


def messages(refused, field):
    return refused.value.message_dict[field]


# Importing a map


def test_it_imports_a_map_with_borders_both_ways_and_its_holders():
    w = war()
    hive, wastes, moon = (w.territory(k) for k in ("hive-vell", "ash-wastes", "moon"))
    assert hive.held_by == w.imperium and moon.held_by == w.chaos and wastes.held_by is None
    assert set(wastes.neighbours.all()) == {hive, moon}
    assert set(moon.neighbours.all()) == {wastes}
    w.reload()
    assert (w.campaign.map_name, w.campaign.map_description) == (
        "The Vell Reach",
        "Three worlds and a moon.",
    )
    row = HistoryEntry.objects.filter(action=HistoryAction.MAP_IMPORTED).get()
    assert row.campaign == w.campaign and row.force is None and row.actor == w.organiser


def test_it_moves_the_campaigns_revision_when_a_map_is_imported():
    w = war(with_map=False)
    before = reload(w.campaign).revision
    services.import_map(actor=w.organiser, campaign=w.campaign, data=encode(SMALL))
    assert reload(w.campaign).revision > before


def test_it_refuses_a_map_for_a_campaign_that_has_one():
    w = war()
    with pytest.raises(ValidationError) as refused:
        services.import_map(actor=w.organiser, campaign=w.campaign, data=encode(SMALL))
    assert "already has a map" in messages(refused, "file")[0]
    assert Territory.objects.filter(campaign=w.campaign).count() == 3


def test_it_refuses_a_holder_that_is_no_alliance_of_the_campaign_and_saves_nothing():
    w = war(with_map=False)
    data = small()
    data["territories"][1]["held_by"] = "Orks"
    with pytest.raises(ValidationError) as refused:
        services.import_map(actor=w.organiser, campaign=w.campaign, data=encode(data))
    assert messages(refused, "file") == [
        'territories[1].held_by: "Orks" is no alliance of this campaign'
    ]
    assert not Territory.objects.filter(campaign=w.campaign).exists()


def test_it_refuses_a_bad_file_listing_each_problem_and_saves_nothing():
    w = war(with_map=False)
    data = small()
    data["territories"][0]["neighbours"] = ["hive-vell", "atlantis"]
    data["territories"][2]["column"] = 1
    with pytest.raises(ValidationError) as refused:
        services.import_map(actor=w.organiser, campaign=w.campaign, data=encode(data))
    assert messages(refused, "file")[0].splitlines() == [
        "territories[0].neighbours[0]: a territory can't border itself",
        'territories[0].neighbours[1]: "atlantis" is no territory of this map',
        'territories[2]: column 1, row 0 is already "ash-wastes"\'s hex',
    ]
    assert not Territory.objects.exists()


# Editing territories


def test_it_adds_a_territory_with_its_neighbours_and_records_it():
    w = war()
    wastes = w.territory("ash-wastes")
    made = services.define_territory(
        actor=w.organiser,
        campaign=w.campaign,
        key="spire",
        name="The Spire",
        column=1,
        row=1,
        neighbours=[wastes],
    )
    assert list(wastes.neighbours.filter(pk=made.pk)) == [made]
    row = HistoryEntry.objects.filter(action=HistoryAction.TERRITORY_CHANGED).get()
    assert row.campaign == w.campaign and row.changes["neighbours"] == [[], ["ash-wastes"]]


def test_it_edits_a_territory_and_its_borders():
    w = war()
    hive, moon = w.territory("hive-vell"), w.territory("moon")
    services.define_territory(
        actor=w.organiser,
        campaign=w.campaign,
        territory=hive,
        key="hive-vell",
        name="Hive Vell Prime",
        column=0,
        row=1,
        neighbours=[moon],
    )
    hive = reload(hive)
    assert (hive.name, hive.row) == ("Hive Vell Prime", 1)
    assert list(hive.neighbours.all()) == [moon]
    assert hive not in w.territory("ash-wastes").neighbours.all()


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"column": 1, "row": 0}, "column", "Ash Wastes is already on that hex."),
        ({"key": "moon"}, "key", 'Another territory has the id "moon".'),
        ({"key": "Not A Slug"}, "key", "An id is 1 to 40 lowercase letters, digits or hyphens."),
        ({"name": "  "}, "name", "Give the territory a name."),
        ({"column": 30}, "column", None),
    ],
)
def test_it_refuses_a_territory_that_breaks_a_rule_of_the_map(change, field, message):
    w = war()
    values = {"key": "spire", "name": "The Spire", "column": 5, "row": 5, **change}
    with pytest.raises(ValidationError) as refused:
        services.define_territory(actor=w.organiser, campaign=w.campaign, **values)
    assert field in refused.value.message_dict
    if message:
        assert messages(refused, field) == [message]
    assert Territory.objects.filter(campaign=w.campaign).count() == 3


def test_it_refuses_a_neighbour_from_another_campaign_or_itself():
    w, other = war(), war()
    hive = w.territory("hive-vell")
    with pytest.raises(ValidationError):
        services.define_territory(
            actor=w.organiser,
            campaign=w.campaign,
            key="x",
            name="X",
            column=9,
            row=9,
            neighbours=[other.territory("moon")],
        )
    with pytest.raises(ValidationError) as refused:
        services.define_territory(
            actor=w.organiser,
            campaign=w.campaign,
            territory=hive,
            key="hive-vell",
            name="Hive",
            column=0,
            row=0,
            neighbours=[hive],
        )
    assert messages(refused, "neighbours") == ["A territory can't border itself."]


# Handing territories over


def test_an_organiser_hands_a_territory_over_with_a_reason_kept():
    w = war()
    phase = Phase.objects.create(campaign=w.campaign, position=1, name="Landfall")
    Campaign.objects.filter(pk=w.campaign.pk).update(current_phase=phase)
    services.set_territory_holder(
        actor=w.organiser,
        territory=w.territory("ash-wastes"),
        alliance=w.chaos,
        reason="A narrative event",
    )
    change = TerritoryChange.objects.get()
    assert (change.held_before, change.held_after, change.reason, change.phase) == (
        None,
        w.chaos,
        "A narrative event",
        phase,
    )
    row = HistoryEntry.objects.filter(action=HistoryAction.TERRITORY_CONTROL_CHANGED).get()
    assert row.reason == "A narrative event" and row.campaign == w.campaign


def test_it_refuses_a_handover_without_a_reason_or_to_another_campaigns_alliance():
    w, other = war(), war()
    with pytest.raises(ValidationError):
        services.set_territory_holder(
            actor=w.organiser, territory=w.territory("moon"), alliance=w.imperium, reason=" "
        )
    with pytest.raises(ValidationError) as refused:
        services.set_territory_holder(
            actor=w.organiser,
            territory=w.territory("moon"),
            alliance=other.imperium,
            reason="why not",
        )
    assert "alliance" in refused.value.message_dict
    assert not TerritoryChange.objects.exists()


def test_it_sets_the_map_rules_with_a_history_row():
    w = war()
    services.set_map_rules(
        actor=w.organiser,
        campaign=w.campaign,
        territory_rule="control_points",
        control_threshold=2,
        attack_from_held=True,
    )
    campaign = reload(w.campaign)
    assert (campaign.territory_rule, campaign.control_threshold, campaign.attack_from_held) == (
        "control_points",
        2,
        True,
    )
    row = HistoryEntry.objects.filter(action=HistoryAction.TERRITORY_CHANGED).get()
    assert row.changes["control_threshold"] == [3, 2]


# Where a battle may be fought


def test_it_refuses_a_battle_over_another_campaigns_territory():
    w, other = war(), war()
    with pytest.raises(ValidationError) as refused:
        make_battle(w.loyal, w.traitor, campaign=w.campaign, territory=other.territory("moon"))
    assert messages(refused, "territory") == ["That territory is not on this campaign's map."]


def test_under_attack_from_held_ground_a_force_with_no_alliance_is_told_why():
    w = war(attack_from_held=True)
    loner = make_force(campaign=w.campaign, name="Lone Wolves")
    with pytest.raises(ValidationError) as refused:
        make_battle(loner, w.traitor, campaign=w.campaign, territory=w.territory("hive-vell"))
    assert "Lone Wolves fights for no alliance" in messages(refused, "territory")[0]


def test_under_attack_from_held_ground_an_alliance_reaches_what_it_holds_and_borders():
    w = war(attack_from_held=True)
    make_battle(w.loyal, w.traitor, campaign=w.campaign, territory=w.territory("hive-vell"))
    other = make_force(campaign=w.campaign, name="Second Company")
    CrusadeForce.objects.filter(pk=other.pk).update(alliance=w.imperium)
    make_battle(reload(other), campaign=w.campaign, territory=w.territory("ash-wastes"))
    third = make_force(campaign=w.campaign, name="Third Company")
    CrusadeForce.objects.filter(pk=third.pk).update(alliance=w.imperium)
    with pytest.raises(ValidationError) as refused:
        make_battle(reload(third), campaign=w.campaign, territory=w.territory("moon"))
    assert messages(refused, "territory") == [
        "The Moon is out of reach: your alliance must hold it, or hold a territory that borders it."
    ]


# What a battle's end changes


def test_the_winners_alliance_takes_the_territory_under_winner_takes():
    w = war()
    phase = Phase.objects.create(campaign=w.campaign, position=1, name="Landfall")
    Campaign.objects.filter(pk=w.campaign.pk).update(current_phase=phase)
    battle = fight_over(w, w.territory("moon"))
    assert w.territory("moon").held_by == w.imperium
    change = TerritoryChange.objects.get()
    assert (change.battle, change.held_before, change.held_after, change.phase) == (
        battle,
        w.chaos,
        w.imperium,
        phase,
    )
    row = HistoryEntry.objects.get(action=HistoryAction.TERRITORY_CONTROL_CHANGED)
    assert (row.campaign, row.battle, row.force) == (w.campaign, battle, None)
    assert row.summary == "Imperium takes The Moon from Chaos"


def test_after_battle_says_which_side_took_or_held_the_ground():
    w = war()
    battle = fight_over(w, w.territory("moon"))
    sides = list(battle.participants.select_related("force"))
    winner = next(s for s in sides if s.force == w.loyal)
    assert territory_service.after_battle(None, battle, sides) == {winner.pk: "held"}


def test_a_win_over_held_ground_keeps_it_and_changes_nothing():
    w = war()
    fight_over(w, w.territory("hive-vell"))
    assert w.territory("hive-vell").held_by == w.imperium
    assert not TerritoryChange.objects.exists()


@pytest.mark.parametrize("who", ["draw", "no alliance"])
def test_a_draw_or_a_winner_with_no_alliance_changes_nothing(who):
    w = war()
    if who == "no alliance":
        CrusadeForce.objects.filter(pk=w.loyal.pk).update(alliance=None)
        fight_over(w, w.territory("moon"))
    else:
        fight_over(w, w.territory("moon"), result="draw")
    assert w.territory("moon").held_by == w.chaos
    assert not TerritoryChange.objects.exists()


def test_under_control_points_the_winner_takes_the_territory_at_the_threshold():
    w = war(territory_rule="control_points", control_threshold=2)
    moon = w.territory("moon")
    fight_over(w, moon)
    moon = w.territory("moon")
    assert moon.held_by == w.chaos and moon.control_points == {str(w.imperium.pk): 1}
    fight_over(w, moon)
    moon = w.territory("moon")
    assert moon.held_by == w.imperium and moon.control_points == {}
    assert TerritoryChange.objects.count() == 2


def test_the_end_of_a_battle_asks_the_same_queries_for_a_small_and_a_large_map():
    def queries(w):
        battle = make_battle(w.loyal, w.traitor, campaign=w.campaign, territory=w.territory("moon"))
        sides = list(battle.participants.select_related("force", "recorded_by"))
        for side in sides:
            side.result = "win" if side.force == w.loyal else "loss"
        with CaptureQueriesContext(connection) as captured:
            territory_service.after_battle(None, battle, sides)
        return len(captured)

    small_war, large_war = war(), war()
    for i in range(40):
        services.define_territory(
            actor=large_war.organiser,
            campaign=large_war.campaign,
            key=f"t{i}",
            name=f"T{i}",
            column=i % 30,
            row=5 + i // 30,
            neighbours=[large_war.territory("moon")],
        )
    assert queries(small_war) == queries(large_war)


# A void


def test_a_void_puts_the_territory_back_as_the_battle_found_it():
    w = war()
    battle = fight_over(w, w.territory("moon"))
    services.void_battle(actor=w.organiser, battle=battle, reason="Wrong armies")
    assert w.territory("moon").held_by == w.chaos
    back = TerritoryChange.objects.order_by("-pk").first()
    assert (back.held_before, back.held_after, back.reason) == (
        w.imperium,
        w.chaos,
        "battle voided",
    )


def test_a_void_leaves_a_territory_that_changed_since_and_says_so():
    w = war()
    battle = fight_over(w, w.territory("moon"))
    services.set_territory_holder(
        actor=w.organiser, territory=w.territory("moon"), alliance=None, reason="Razed"
    )
    services.void_battle(actor=w.organiser, battle=battle, reason="Wrong armies")
    assert w.territory("moon").held_by is None
    assert TerritoryChange.objects.count() == 2
    row = HistoryEntry.objects.filter(action=HistoryAction.TERRITORY_CONTROL_CHANGED).latest("pk")
    assert "has changed since this battle" in row.summary


def test_a_pack_map_is_applied_to_a_campaign_with_no_territories():
    w = war(with_map=False)
    pack = ContentPack.objects.create(
        slug="reach",
        name="Reach",
        source="house rules",
        campaign=w.campaign,
        map={k: v for k, v in small()["map"].items()} | {"territories": small()["territories"]},
    )
    EnabledPack.objects.create(campaign=w.campaign, pack=pack)
    services.apply_pack_map(actor=w.organiser, campaign=w.campaign, pack=pack)
    assert Territory.objects.filter(campaign=w.campaign).count() == 3
    with pytest.raises(ValidationError):
        services.apply_pack_map(actor=w.organiser, campaign=w.campaign, pack=pack)


def test_a_campaign_without_a_map_has_no_territories():
    assert not make_campaign().territories.exists()
