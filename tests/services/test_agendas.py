"""Agendas in play (R11.1): picked at muster, marked when a side records, their XP within
the caps (R3.6) and their tally applied when the battle completes, one unit of an Attached
unit credited (R9), and all of it moved back exactly by a void."""

import pytest

from campaign import services
from campaign.models import AgendaAchievement, AgendaPick, HistoryEntry, Unit
from tests.factories import make_character, reload
from tests.services.agendas import agenda, agenda_table, muster, pack_bytes
from tests.services.checks import card_snapshot, refused

pytestmark = pytest.mark.django_db


def units(table):
    return {u.name: u for u in Unit.objects.filter(force__in=table.forces)}


def test_it_keeps_the_agendas_a_side_picks_at_muster_and_names_them_in_the_history():
    """R11.1: before a battle each player picks Agendas from the campaign's packs."""
    table = agenda_table()
    fight = muster(table, {table.mine: ["Hold the Beacon", "Trophy Takers"]})

    picked = AgendaPick.objects.filter(participant=fight.side(table.mine))
    assert [p.agenda.name for p in picked.order_by("pk")] == ["Hold the Beacon", "Trophy Takers"]
    row = HistoryEntry.objects.filter(action="army_mustered", force=table.mine).get()
    assert row.changes["agendas"] == [None, ["Hold the Beacon", "Trophy Takers"]]


def test_it_refuses_more_agendas_than_the_packs_allow():
    """R11.1: how many is pack data (the test pack: 2)."""
    table = agenda_table()
    fight = muster(table)
    units_ = list(table.mine.units.order_by("pk"))
    with refused("Pick at most 2 Agendas for a battle (3 picked)."):
        services.muster_army(
            actor=table.mine.player,
            participant=fight.side(table.mine),
            faction=table.mine.faction,
            detachment="Gladius",
            units=units_,
            warlord=units_[0],
            agendas=[agenda(n) for n in ("Hold the Beacon", "Trophy Takers", "Scout the Ruins")],
        )


def test_it_takes_the_largest_number_among_the_enabled_packs():
    """R11.1 (decision): the largest agendas_per_battle of the packs that hold Agendas."""
    table = agenda_table()
    header = {"slug": "three", "name": "Three", "description": "More.", "source": "tests"}
    other = pack_bytes(pack=header, agendas_per_battle=3)
    services.import_pack(actor=table.organiser, data=other, campaign=table.campaign)

    assert services.agendas.allowed(table.campaign.pk) == 3


def test_it_refuses_an_agenda_the_campaign_does_not_offer():
    table = agenda_table()
    elsewhere = agenda_table()
    fight = muster(table)
    units_ = list(table.mine.units.order_by("pk"))
    stray = agenda("Hold the Beacon", elsewhere.campaign)
    with refused("Not an Agenda this campaign offers: Hold the Beacon."):
        services.muster_army(
            actor=table.mine.player,
            participant=fight.side(table.mine),
            faction=table.mine.faction,
            detachment="Gladius",
            units=units_,
            warlord=units_[0],
            agendas=[stray],
        )


def test_it_gives_each_achievement_its_xp_and_a_tally_agenda_its_tally():
    """R11.1: XP per time from the pack; a tally Agenda adds to the card's Agenda tally."""
    table = agenda_table()
    fight = muster(table, {table.mine: ["Hold the Beacon", "Trophy Takers"]})
    cards = units(table)
    captain, squad = cards["Ultramarines Captain"], cards["Ultramarines Squad"]
    fight.record(
        table.mine,
        "win",
        {captain: {agenda("Trophy Takers"): 3}, squad: {agenda("Hold the Beacon"): 1}},
    )
    fight.record(table.theirs, "loss")

    captain, squad = reload(captain), reload(squad)
    assert captain.xp == 1 + 3 and captain.agenda_tallies == {"Trophy Takers": 3}
    assert squad.xp == 1 + 2 and squad.agenda_tallies == {}
    assert captain.agenda_tally == 3
    achieved = AgendaAchievement.objects.get(battle_unit__unit=captain)
    assert (achieved.times, achieved.xp_gained, achieved.tally_gained) == (3, 3, 3)
    row = HistoryEntry.objects.get(action="unit_battle_recorded", unit=captain)
    assert "Trophy Takers x3 +3XP" in row.summary
    assert row.changes["agenda_tallies"] == [{}, {"Trophy Takers": 3}]


def test_it_applies_agenda_xp_within_the_cap_of_a_unit_that_is_no_character():
    """R3.6: a non-CHARACTER unit stops at 30XP; what the Agenda would add past it is lost."""
    table = agenda_table()
    squad = units(table)["Ultramarines Squad"]
    Unit.objects.filter(pk=squad.pk).update(xp=28, battles_played=9, battles_survived=9)
    fight = muster(table, {table.mine: ["Hold the Beacon"]})
    fight.record(table.mine, "win", {squad: {agenda("Hold the Beacon"): 1}})
    fight.record(table.theirs, "loss")

    # 28 + 1 (Battle Experience) + 2 (the Agenda) stops at 30: the Agenda gave 1XP.
    assert reload(squad).xp == 30
    assert AgendaAchievement.objects.get(battle_unit__unit=squad).xp_gained == 1


def test_it_gives_a_no_xp_unit_no_agenda_xp_but_keeps_its_tally():
    """R2.6: an EPIC HERO never gains XP; the Agendas achieved tally is a combat tally."""
    table = agenda_table()
    hero = make_character(table.mine, name="Marneus Calgar", datasheet="Calgar", is_epic_hero=True)
    fight = muster(table, {table.mine: ["Trophy Takers"]})
    fight.record(table.mine, "win", {hero: {agenda("Trophy Takers"): 2}})
    fight.record(table.theirs, "loss")

    hero = reload(hero)
    assert hero.xp == 0 and hero.agenda_tallies == {"Trophy Takers": 2}


def test_it_refuses_an_agenda_the_side_did_not_pick():
    table = agenda_table()
    fight = muster(table, {table.mine: ["Hold the Beacon"]})
    squad = units(table)["Ultramarines Squad"]
    with refused("Mark only the Agendas this side picked at muster."):
        fight.record(table.mine, "win", {squad: {agenda("Scout the Ruins"): 1}})


def test_it_refuses_more_achievements_than_the_agendas_limit():
    """R11.1 (decision): limit_per_battle counts the side's units together."""
    table = agenda_table()
    fight = muster(table, {table.mine: ["Scout the Ruins"]})
    cards = units(table)
    scout = agenda("Scout the Ruins")
    with refused(containing=["at most 1 time in a battle (2 marked)"]):
        fight.record(
            table.mine,
            "win",
            {cards["Ultramarines Captain"]: {scout: 1}, cards["Ultramarines Squad"]: {scout: 1}},
        )


def test_it_refuses_a_non_tally_agenda_twice_for_one_unit():
    table = agenda_table()
    fight = muster(table, {table.mine: ["Hold the Beacon"]})
    squad = units(table)["Ultramarines Squad"]
    with refused(containing=["Hold the Beacon keeps no tally"]):
        fight.record(table.mine, "win", {squad: {agenda("Hold the Beacon"): 2}})


def test_it_credits_an_attached_units_agenda_to_one_of_its_units_only():
    """R9 (decision: each occurrence): the Leader or the Bodyguard, never both."""
    table = agenda_table()
    cards = units(table)
    captain, squad = cards["Ultramarines Captain"], cards["Ultramarines Squad"]
    fight = muster(table, {table.mine: ["Trophy Takers"]}, attachments={captain: squad})
    trophies = agenda("Trophy Takers")
    with refused(containing=["fought as one Attached unit", "Trophy Takers"]):
        fight.record(table.mine, "win", {captain: {trophies: 1}, squad: {trophies: 1}})

    fight.record(table.mine, "win", {captain: {trophies: 2}})
    fight.record(table.theirs, "loss")
    assert reload(captain).agenda_tallies == {"Trophy Takers": 2}
    assert reload(squad).agenda_tallies == {} and reload(squad).xp == 1


def test_it_moves_agenda_xp_and_tallies_back_exactly_when_the_battle_is_voided():
    table = agenda_table()
    cards = units(table)
    captain, squad = cards["Ultramarines Captain"], cards["Ultramarines Squad"]
    first = muster(table, {table.mine: ["Trophy Takers"]})
    first.record(table.mine, "win", {captain: {agenda("Trophy Takers"): 1}})
    first.record(table.theirs, "loss")
    before = card_snapshot(*table.forces)
    second = muster(table, {table.mine: ["Trophy Takers", "Hold the Beacon"]})
    second.record(
        table.mine,
        "win",
        {captain: {agenda("Trophy Takers"): 2}, squad: {agenda("Hold the Beacon"): 1}},
    )
    second.record(table.theirs, "loss")
    assert reload(captain).agenda_tallies == {"Trophy Takers": 3}

    services.void_battle(actor=table.organiser, battle=second.battle, reason="Wrong table")

    assert card_snapshot(*table.forces) == before
    assert reload(captain).agenda_tallies == {"Trophy Takers": 1}


def test_it_applies_agendas_once_when_an_organiser_settles_a_dispute():
    """A disputed battle applies nothing; the settlement applies what each side recorded."""
    table = agenda_table()
    captain = units(table)["Ultramarines Captain"]
    fight = muster(table, {table.mine: ["Trophy Takers"]})
    fight.record(table.mine, "win", {captain: {agenda("Trophy Takers"): 2}})
    fight.record(table.theirs, "win")
    assert reload(captain).agenda_tallies == {} and reload(captain).xp == 0

    sides = {fight.side(f).pk: r for f, r in ((table.mine, "win"), (table.theirs, "loss"))}
    services.settle_battle(
        actor=table.organiser, battle=fight.battle, results=sides, reason="Both agreed later"
    )
    assert reload(captain).agenda_tallies == {"Trophy Takers": 2}
    assert reload(captain).xp == 1 + 2


def test_it_replaces_a_sides_marks_when_it_amends_its_record():
    table = agenda_table()
    captain = units(table)["Ultramarines Captain"]
    fight = muster(table, {table.mine: ["Trophy Takers"]})
    fight.record(table.mine, "win", {captain: {agenda("Trophy Takers"): 3}})
    fight.record(table.mine, "win", {captain: {agenda("Trophy Takers"): 1}})
    fight.record(table.theirs, "loss")

    assert reload(captain).agenda_tallies == {"Trophy Takers": 1}
    assert AgendaAchievement.objects.filter(battle_unit__unit=captain).count() == 1


def test_it_reads_only_the_recording_sides_own_units_marks():
    """R11.1: a side marks its own army's units; another side's units are never read."""
    table = agenda_table()
    fight = muster(table, {table.mine: ["Trophy Takers"], table.theirs: ["Trophy Takers"]})
    enemy = units(table)["Iron Hands Captain"]
    mine = {fight.entry(u).pk: services.UnitOutcome() for u in table.mine.units.all()}
    mine[fight.entry(enemy).pk] = services.UnitOutcome(agendas=((agenda("Trophy Takers").pk, 3),))
    services.record_side(
        actor=table.mine.player, participant=fight.side(table.mine), result="win", outcomes=mine
    )
    fight.record(table.theirs, "loss")

    assert reload(enemy).agenda_tallies == {} and reload(enemy).xp == 1
    assert not AgendaAchievement.objects.filter(battle_unit__unit=enemy).exists()
