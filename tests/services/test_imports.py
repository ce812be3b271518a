"""Importing an army list (R1, R2, R6.2): every rule of a new card applies, all or nothing."""

import dataclasses
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import rules, services
from campaign.models import (
    MOST_MODELS,
    MOST_POINTS,
    MOST_SUPPLY,
    CrusadeForce,
    HistoryEntry,
    RequisitionPurchase,
    Unit,
)
from campaign.rosters import Roster, RosterUnit, parse_roster
from campaign.services.imports import RP, SUPPLY, unit_key
from tests.factories import make_campaign, make_user
from tests.services.cards import ASTRA, commissar, krieg_force, krieg_squad
from tests.services.checks import refused
from tests.services.fights import fight

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[1] / "rosters"
SAMPLE_FILES = sorted(
    path
    for path in [*SAMPLES.glob("samples/*/*"), *SAMPLES.glob("fixtures/*.json")]
    if path.suffix in {".txt", ".ros", ".rosz", ".json"}
)
HERO = rules.Requisition.RENOWNED_HEROES
GUESSED_ENHANCEMENT = 15
"""What the test player types for an Enhancement whose cost the file doesn't give."""


def player_in(**house: int):
    campaign = make_campaign(**house)
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=campaign)
    return player, campaign


def import_new(player, campaign, units, name: str = "Heroes") -> CrusadeForce:
    """A new force of ``player`` in ``campaign`` from ``units``, as the import page does."""
    return services.import_roster(
        actor=player, player=player, campaign=campaign, name=name, faction=ASTRA, units=units
    )


def cards(roster: Roster, *, faction: str = "Imported", keep_enhancements=True, taken=()):
    """The cards a player confirms after ticking what the file didn't say: an Enhancement
    is only on a CHARACTER, and its cost is typed when the file has none."""
    names = services.unique_names([unit.name for unit in roster.units], taken)
    made = []
    for unit, name in zip(roster.units, names, strict=True):
        keywords = {k for k in rules.Keyword if k.label in unit.keywords}
        if unit.enhancement:
            keywords.add(rules.Keyword.CHARACTER)
        made.append(
            services.roster_card(
                unit,
                faction_keywords=faction,
                name=name,
                keywords=keywords,
                enhancement=keep_enhancements,
                enhancement_points=GUESSED_ENHANCEMENT,
            )
        )
    return made


def hero(name: str, points: int, enhancement: str = "", cost: int | None = 20) -> RosterUnit:
    return RosterUnit(
        name=name,
        datasheet="Lieutenant",
        points=points,
        enhancement=enhancement,
        enhancement_points=cost if enhancement else None,
        character=True,
        keywords=frozenset({"INFANTRY"}),
    )


def roster_of(*units: RosterUnit) -> Roster:
    return Roster(format="wh40k-app-text", name="Test list", units=units)


# --------------------------------------------------------------------------- happy paths


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda path: path.name)
def test_it_imports_each_shared_sample_as_a_new_force_with_its_points_and_enhancements(path):
    """R1.3, R2.1, R2.4, R6.2: each card holds the datasheet's points and its Enhancement
    is bought as it is made, so Supply Used is the list's points and RP pays for each."""
    roster = parse_roster(path.read_bytes(), filename=path.name)
    player, campaign = player_in(starting_supply_limit=3000, starting_rp=10)
    units = cards(roster)

    force = services.import_roster(
        actor=player,
        player=player,
        campaign=campaign,
        name=roster.name or "Imported force",
        faction=roster.faction or "Imported",
        units=units,
        source=f"a {roster.format_label}",
    )

    force = CrusadeForce.objects.get(pk=force.pk)
    held = list(force.units.order_by("pk"))
    assert [u.name for u in held] == [u.name for u in units]
    assert [u.xp for u in held] == [0] * len(units)
    assert force.supply_used == roster.units_points
    enhanced = [u for u in roster.units if u.enhancement]
    costs = [p.cost for p in force.requisitions.order_by("pk")]
    assert costs == [min(1 + i, HERO.max_cost) for i in range(len(enhanced))]
    assert force.rp == 10 - sum(costs)
    actions = list(force.history.order_by("pk").values_list("action", flat=True))
    assert actions[0] == HistoryEntry.Action.FORCE_CREATED
    assert actions[-1] == HistoryEntry.Action.ROSTER_IMPORTED
    assert actions.count(HistoryEntry.Action.UNIT_ADDED) == len(units)


def test_it_gives_a_card_the_datasheet_points_and_buys_the_stated_enhancement_on_top():
    """R2.1, R6.2: a 95-point list entry with a 20-point Enhancement is a 75-point
    datasheet; the card ends at 95 points, with the Enhancement bought for 1RP."""
    player, campaign = player_in()
    roster = roster_of(hero("Lieutenant Varro", 95, "Portents of Wisdom", 20))

    card = services.roster_card(roster.units[0], faction_keywords=ASTRA)
    force = import_new(player, campaign, [card], name="13th")

    assert (card.points, card.enhancement_points) == (75, 20)
    unit = force.units.get()
    assert (unit.points, unit.enhancement, unit.enhancement_points) == (
        95,
        "Portents of Wisdom",
        20,
    )
    assert force.requisitions.get().cost == 1


def test_it_imports_a_unit_without_its_enhancement_at_the_datasheets_points():
    """R2.1: a unit whose Enhancement is left out costs only its datasheet's points."""
    player, campaign = player_in()
    roster = roster_of(hero("Lieutenant Varro", 95, "Portents of Wisdom", None))

    card = services.roster_card(
        roster.units[0], faction_keywords=ASTRA, enhancement=False, enhancement_points=20
    )
    force = import_new(player, campaign, [card], name="13th")

    unit = force.units.get()
    assert (unit.points, unit.enhancement, force.rp) == (75, "", 5)
    assert not force.requisitions.exists()


def test_it_adds_units_to_an_existing_force_after_the_names_it_already_uses():
    """R1.4: units may be added at any time within the Supply Limit; names stay unique."""
    force = krieg_force()
    krieg_squad(force, name="Death Korps of Krieg")
    roster = parse_roster((SAMPLES / "samples/app-text/astra-militarum-13th.txt").read_bytes())
    taken = force.units.values_list("name", flat=True)

    services.import_roster(actor=force.player, force=force, units=cards(roster, taken=taken))

    names = set(force.units.values_list("name", flat=True))
    assert {"Death Korps of Krieg", "Death Korps of Krieg 2", "Lord Marshal Dreir"} <= names
    assert CrusadeForce.objects.get(pk=force.pk).unit_count == 4


def test_it_numbers_repeated_names_after_the_names_already_taken():
    names = services.unique_names(
        ["Plague Marines", "Plague Marines", "Chaos Rhino"], taken=["plague marines"]
    )

    assert names == ["Plague Marines 2", "Plague Marines 3", "Chaos Rhino"]


# --------------------------------------------------------------------------- refusals


def test_it_refuses_a_list_over_the_supply_limit_with_the_numbers_and_creates_nothing():
    """R1.3: 1985 points don't fit a new force's 1000-point Supply Limit; no force is made."""
    player, campaign = player_in()
    roster = parse_roster((SAMPLES / "samples/app-text/space-wolves-boop.txt").read_bytes())
    units = cards(roster, keep_enhancements=False)

    with refused(
        containing=["1955 points", "Supply Limit is 1000 and none of it is used yet"]
    ) as info:
        services.import_roster(
            actor=player, player=player, campaign=campaign, name="Boop", faction="SW", units=units
        )

    assert SUPPLY in info.value.error_dict
    assert not CrusadeForce.objects.filter(name="Boop").exists()


def test_it_refuses_units_that_overflow_an_existing_force_and_leaves_it_as_it_was():
    """R1.3: the force's own units count; nothing of the list is added."""
    force = krieg_force()
    krieg_squad(force, points=900)
    roster = parse_roster((SAMPLES / "samples/app-text/astra-militarum-13th.txt").read_bytes())

    with refused(containing=["310 more points", "only 100 points are left of your 1000-point"]):
        services.import_roster(actor=force.player, force=force, units=cards(roster))


def test_it_names_the_unit_whose_card_the_rules_refuse_and_keeps_nothing_before_it():
    """R2.1: names are unique within a force; the refusal names the unit's field."""
    player, campaign = player_in()
    units = cards(roster_of(hero("Varro", 70), hero("Drusus", 70)))
    units[1] = dataclasses.replace(units[1], name="varro")

    with refused(containing=["already has a unit called varro"]) as info:
        import_new(player, campaign, units, name="13th")

    assert list(info.value.error_dict) == [unit_key(1, "name")]


def test_it_refuses_more_units_than_one_import_makes():
    force = krieg_force()
    squad = services.NewUnit(name="Squad", datasheet="Squad", points=0, faction_keywords=ASTRA)

    with refused("Import at most 300 units at once; 301 are ticked."):
        services.import_roster(actor=force.player, force=force, units=[squad] * 301)


def test_it_refuses_a_unit_whose_numbers_no_card_holds_and_creates_nothing():
    """Issue 18: a list's figures are read up to 100,000, past what a card holds (its
    points, its models); even where the Supply Limit would take them, the import names
    the unit and its field, and nothing is made (before, the card was stored)."""
    player, campaign = player_in(starting_supply_limit=MOST_SUPPLY)
    titan = RosterUnit(name="Imperator", datasheet="Imperator", points=50_000, models=1)
    horde = RosterUnit(name="Horde", datasheet="Boyz", points=100, models=MOST_MODELS + 1)
    units = cards(roster_of(titan, horde))
    plan = services.plan_import(units=units, house=campaign.house_rules)

    with refused(containing=[f"from 0 to {MOST_POINTS}, not 50000"]) as info:
        import_new(player, campaign, units, name="Legio")

    assert set(plan.refusals) == {unit_key(0, "points"), unit_key(1, "model_count")}
    assert plan.unit_refusals[1] == ["Horde: Model count must be from 1 to 200, not 201."]
    assert unit_key(0, "points") in info.value.error_dict
    assert not CrusadeForce.objects.filter(name="Legio").exists()


def test_it_refuses_to_import_nothing():
    force = krieg_force()

    with refused("Tick at least one unit to import."):
        services.import_roster(actor=force.player, force=force, units=[])


# --------------------------------------------------------------------------- R6.2 Enhancements


def four_heroes() -> Roster:
    return roster_of(
        *(hero(f"Hero {i}", 90, f"Enhancement {i}", 20) for i in range(1, 5)),
    )


def test_it_charges_1_then_2_then_3rp_for_each_enhancement_bought_at_the_start():
    """R6.2: Renowned Heroes costs 1RP plus 1 per other Enhancement, at most 3RP."""
    player, campaign = player_in(starting_rp=10)

    force = import_new(player, campaign, cards(four_heroes()))

    purchases = RequisitionPurchase.objects.filter(force=force).order_by("pk")
    assert [p.cost for p in purchases] == [1, 2, 3, 3]
    assert {p.requisition for p in purchases} == {HERO}
    assert CrusadeForce.objects.get(pk=force.pk).rp == 10 - 9


def test_it_counts_the_enhancements_a_force_already_holds():
    """R6.2: with one Enhancement on the Order of Battle, the next costs 2RP."""
    player, campaign = player_in(starting_rp=10)
    force = import_new(player, campaign, cards(four_heroes())[:1])

    more = cards(roster_of(hero("Hero 9", 90, "Enhancement 9", 20)))
    plan = services.plan_import(units=more, force=CrusadeForce.objects.get(pk=force.pk))

    assert plan.enhancement_costs == (2,)


def test_it_refuses_enhancements_costing_more_rp_than_the_force_has_with_the_numbers():
    """R6, R6.2: three Enhancements cost 1+2+3 = 6RP, and a new force has 5RP."""
    player, campaign = player_in()
    units = cards(four_heroes())[:3]

    with refused(containing=["1RP + 2RP + 3RP = 6RP", "you have 5RP"]) as info:
        import_new(player, campaign, units, name="H")

    assert RP in info.value.error_dict
    assert not CrusadeForce.objects.filter(name="H").exists()


def test_it_imports_once_the_player_keeps_only_the_enhancements_the_rp_pays_for():
    """R6.2: keeping two of the three costs 1+2 = 3RP; the third card is its datasheet."""
    player, campaign = player_in()
    roster = four_heroes()
    units = [
        services.roster_card(unit, faction_keywords=ASTRA, enhancement=keep)
        for unit, keep in zip(roster.units[:3], (True, False, True), strict=True)
    ]
    assert services.plan_import(units=units, house=campaign.house_rules).enhancement_costs == (
        1,
        2,
    )

    force = import_new(player, campaign, units, name="H")

    force = CrusadeForce.objects.get(pk=force.pk)
    points = dict(force.units.values_list("name", "points"))
    assert points == {"Hero 1": 90, "Hero 2": 70, "Hero 3": 90}
    assert (force.rp, force.supply_used) == (2, 250)


def test_it_refuses_an_enhancement_for_a_force_that_has_already_fought():
    """R6.2: at the start, an Enhancement only comes with a new force; later, only with a
    promotion. The refusal names the unit."""
    force = krieg_force()
    fight([commissar(force)])
    units = cards(roster_of(hero("Varro", 90, "Portents of Wisdom", 20)))

    with refused(containing=["Varro", "first being raised"]) as info:
        services.import_roster(actor=force.player, force=force, units=units)

    assert list(info.value.error_dict) == [unit_key(0, "enhancement")]


def test_it_refuses_an_enhancement_on_an_epic_hero():
    """R6.2: not an EPIC HERO."""
    player, campaign = player_in()
    unit = hero("Dreir", 120, "Portents of Wisdom", 20)
    keywords = {rules.Keyword.CHARACTER, rules.Keyword.EPIC_HERO}
    card = services.roster_card(unit, faction_keywords=ASTRA, keywords=keywords)

    with refused(containing=["Dreir is an EPIC HERO"]):
        import_new(player, campaign, [card], name="H")


# --------------------------------------------------------------------------- queries


def queries_to_import(size: int) -> int:
    player, campaign = player_in(starting_supply_limit=100 * size, starting_rp=10)
    squads = [RosterUnit(name=f"Squad {i}", datasheet="Squad", points=60) for i in range(size)]
    units = cards(roster_of(hero("Varro", 90, "Portents of Wisdom", 20), *squads))
    with CaptureQueriesContext(connection) as queries:
        force = import_new(player, campaign, units, name="Q")
    assert Unit.objects.filter(force=force).count() == size + 1
    return len(queries)


PER_UNIT = 13
"""Each card is one `add_unit`: a fixed handful of queries, whatever the list's length
(the force's totals read its cards with their honours, scars, promotions and upgrades)."""


def test_it_imports_15_units_for_a_fixed_number_of_queries_more_per_unit_than_5():
    small, large = queries_to_import(5), queries_to_import(15)

    print(f"queries to import 5 units: {small}, 15 units: {large}")
    assert (large - small) / 10 <= PER_UNIT, (small, large)
