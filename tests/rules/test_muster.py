"""R8 (and R3.7): mustering a Crusade army for one battle."""

import dataclasses

import pytest

from campaign.rules import (
    BATTLE_SIZES,
    MARK_OF_SHAME,
    Keyword,
    MusterUnit,
    asks_second_leader_rule,
    check_muster,
)

FACTION = "Adeptus Astartes"


def make_unit(key, **overrides):
    """A legal unit of the army's faction; override what the test is about."""
    fields = {
        "key": key,
        "name": f"Unit {key}",
        "datasheet": f"Datasheet {key}",
        "points": 100,
        "faction_keywords": frozenset({FACTION, "Imperium"}),
    }
    fields.update(overrides)
    return MusterUnit(**fields)


CAPTAIN = make_unit(
    "captain", name="Captain Varro", datasheet="Captain", keywords={Keyword.CHARACTER}
)


def muster(*units, battle_size="Incursion", faction=FACTION, warlord_key="captain"):
    return check_muster(
        battle_size=battle_size, faction=faction, units=list(units), warlord_key=warlord_key
    )


def squads(count, datasheet="Intercessor Squad", **overrides):
    return [
        make_unit(f"squad{n}", datasheet=datasheet, points=50, **overrides) for n in range(count)
    ]


def test_it_accepts_a_legal_army_and_totals_its_points():
    """R8: a CHARACTER Warlord and a squad of the faction, within Incursion's points."""
    report = muster(CAPTAIN, make_unit("squad", points=150))
    assert report.ok
    assert report.errors == ()
    assert report.points == 250
    assert report.limit == 1000


def test_it_knows_the_three_battle_sizes():
    """R8.1: Incursion 1000, Strike Force 2000, Onslaught 3000."""
    assert BATTLE_SIZES == {"Incursion": 1000, "Strike Force": 2000, "Onslaught": 3000}


@pytest.mark.parametrize(("battle_size", "limit"), list(BATTLE_SIZES.items()))
def test_it_refuses_an_army_over_the_battle_size_and_allows_one_exactly_at_it(battle_size, limit):
    """R8.1: the army's points may reach, but not pass, the battle size."""
    at_limit = muster(CAPTAIN, make_unit("squad", points=limit - 100), battle_size=battle_size)
    over = muster(CAPTAIN, make_unit("squad", points=limit - 99), battle_size=battle_size)
    assert at_limit.ok
    assert not over.ok
    assert str(limit + 1) in over.errors[0]
    assert str(limit) in over.errors[0]


def test_it_refuses_an_unknown_battle_size():
    """R8.1: only the listed battle sizes exist."""
    assert not muster(CAPTAIN, battle_size="Skirmish").ok


def test_it_refuses_an_empty_army():
    """R8.4/R8.5: an army with no units has no CHARACTER and no Warlord."""
    assert not check_muster(battle_size="Incursion", faction=FACTION, units=[], warlord_key=None).ok


def test_it_refuses_a_unit_removed_from_the_order_of_battle():
    """R8.3/R1.4: a removed unit can never fight again."""
    report = muster(CAPTAIN, make_unit("squad", name="Squad Dorn", removed=True))
    assert not report.ok
    assert "Squad Dorn" in report.errors[0]


def test_it_refuses_a_unit_without_the_chosen_faction_keyword():
    """R8.2/R8.3: every unit needs the army's Faction keyword."""
    stranger = make_unit("gaunts", name="Termagants", faction_keywords=frozenset({"Tyranids"}))
    report = muster(CAPTAIN, stranger)
    assert not report.ok
    assert "Termagants" in report.errors[0]


def test_it_matches_the_faction_keyword_whatever_the_case():
    """R8.3: keywords are matched case-insensitively."""
    assert muster(CAPTAIN, faction="adeptus ASTARTES").ok


@pytest.mark.parametrize(
    ("flags", "allowed"),
    [
        ({}, 3),
        ({"keywords": {Keyword.BATTLELINE}}, 6),
        ({"keywords": {Keyword.DEDICATED_TRANSPORT}}, 6),
    ],
    ids=["ordinary", "battleline", "dedicated-transport"],
)
def test_it_limits_units_of_one_datasheet_to_three_or_six(flags, allowed):
    """R8.3: at most 3 of a datasheet, 6 if BATTLELINE or DEDICATED TRANSPORT."""
    fits = muster(CAPTAIN, *squads(allowed, **flags), battle_size="Onslaught")
    too_many = muster(CAPTAIN, *squads(allowed + 1, **flags), battle_size="Onslaught")
    assert not any("at most" in error for error in fits.errors)
    assert any(str(allowed + 1) in error and "at most" in error for error in too_many.errors)


def test_it_needs_at_least_one_character():
    """R8.4: the army must include a CHARACTER."""
    report = muster(make_unit("squad"), warlord_key=None)
    assert any("CHARACTER" in error for error in report.errors)


def test_it_allows_each_epic_hero_only_once():
    """R8.4: the same EPIC HERO at most once."""
    first = make_unit(
        "m1", datasheet="Marneus Calgar", keywords={Keyword.CHARACTER, Keyword.EPIC_HERO}
    )
    second = make_unit(
        "m2", datasheet="Marneus Calgar", keywords={Keyword.CHARACTER, Keyword.EPIC_HERO}
    )
    assert not muster(CAPTAIN, first, second, battle_size="Strike Force").ok
    assert muster(CAPTAIN, first).ok


@pytest.mark.parametrize(
    "warlord_key", [None, "nobody", "squad"], ids=["none", "not-in-army", "not-character"]
)
def test_it_requires_the_warlord_to_be_a_character_in_the_army(warlord_key):
    """R8.5: one CHARACTER model of the army is the Warlord."""
    report = muster(CAPTAIN, make_unit("squad"), warlord_key=warlord_key)
    assert not report.ok
    assert len(report.errors) == 1


def test_it_refuses_a_unit_with_an_unsettled_promotion_scar_or_honour():
    """R3.7 decision: pending choices must be settled before the unit fights."""
    report = muster(CAPTAIN, make_unit("squad", name="Squad Dorn", pending=True))
    assert not report.ok
    assert "Squad Dorn" in report.errors[0]


def test_it_warns_but_does_not_refuse_an_empty_dedicated_transport():
    """R8.6: an empty transport counts as destroyed in round one; that is a warning."""
    rhino = make_unit("rhino", name="Rhino Aquila", keywords={Keyword.DEDICATED_TRANSPORT})
    report = muster(CAPTAIN, rhino)
    assert report.ok
    assert len(report.warnings) == 1
    assert "Rhino Aquila" in report.warnings[0]


def test_it_accepts_a_dedicated_transport_with_a_unit_embarked():
    """R8.6: a transport starting with a unit inside raises no warning."""
    rhino = make_unit("rhino", embarked_unit_key="squad", keywords={Keyword.DEDICATED_TRANSPORT})
    report = muster(CAPTAIN, make_unit("squad"), rhino)
    assert report.ok
    assert report.warnings == ()


def test_it_refuses_a_passenger_that_is_not_in_the_army():
    """R8.6: the embarked unit has to be part of the army."""
    rhino = make_unit("rhino", embarked_unit_key="ghost", keywords={Keyword.DEDICATED_TRANSPORT})
    assert not muster(CAPTAIN, rhino).ok


def test_it_lets_a_character_lead_a_bodyguard_unit_in_the_army():
    """R8.7: a Leader attaches to a Bodyguard unit of the army."""
    leader = dataclasses.replace(CAPTAIN, leads_key="squad")
    assert muster(leader, make_unit("squad")).ok


@pytest.mark.parametrize(
    ("leader_is_character", "target"),
    [(True, "ghost"), (True, "captain"), (False, "squad")],
    ids=["target-not-in-army", "leads-itself", "not-a-character"],
)
def test_it_refuses_an_attachment_the_rules_do_not_allow(leader_is_character, target):
    """R8.7: only a CHARACTER leads, and only another unit of the army."""
    if leader_is_character:
        units = [dataclasses.replace(CAPTAIN, leads_key=target), make_unit("squad")]
    else:
        units = [CAPTAIN, make_unit("squad"), make_unit("other", leads_key=target)]
    assert not muster(*units).ok


def test_it_reports_every_problem_at_once():
    """R8: the player sees all the errors together."""
    report = muster(
        make_unit("squad", removed=True, pending=True, points=1200),
        warlord_key="squad",
    )
    assert len(report.errors) >= 5


@pytest.mark.parametrize("shamed", ["leader", "bodyguard"])
def test_it_refuses_an_attached_unit_with_a_mark_of_shame_on_either_side(shamed):
    """R5.4 / R8.7: a unit bearing Mark of Shame cannot form an Attached unit."""
    scars = {shamed: (MARK_OF_SHAME,)}
    leader = dataclasses.replace(CAPTAIN, leads_key="squad", battle_scars=scars.get("leader", ()))
    bodyguard = make_unit("squad", name="Assault Squad", battle_scars=scars.get("bodyguard", ()))

    report = muster(leader, bodyguard)

    shamed_name = leader.name if shamed == "leader" else bodyguard.name
    assert report.errors == (
        f"{shamed_name} bears Mark of Shame, so it can't form an Attached unit.",
    )


K = Keyword


@pytest.mark.parametrize(
    ("keywords", "characters", "asked"),
    [
        ({K.INFANTRY}, 2, True),
        ({K.INFANTRY, K.BATTLELINE}, 3, True),
        ({K.MOUNTED}, 2, True),
        (set(), 2, True),
        ({K.INFANTRY}, 1, False),
        ({K.INFANTRY}, 0, False),
        ({K.CHARACTER, K.INFANTRY}, 2, False),
        ({K.VEHICLE}, 2, False),
        ({K.VEHICLE, K.DEDICATED_TRANSPORT}, 2, False),
        ({K.FORTIFICATION}, 2, False),
    ],
)
def test_it_asks_for_a_second_leaders_rule_only_of_a_unit_two_leaders_could_join(
    keywords, characters, asked
):
    """R8.7 (decision): the muster asks which datasheet rule allows a second Leader only
    when the army has two CHARACTERs and the unit is one a Leader joins."""
    assert asks_second_leader_rule(keywords, characters=characters) is asked
