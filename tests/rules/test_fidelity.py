"""Where the app used to differ from the rules: R4.4 tables, R4.5 relic gates, R4.6
Enhancement weapons, R6.6 Fresh Recruits, R8.7 a second Leader, R9 results."""

import pytest

from campaign.rules import (
    BattleResult,
    Keyword,
    MusterUnit,
    Rank,
    RelicCategory,
    TraitTable,
    UnitFacts,
    check_muster,
    fitting_trait_tables,
    fresh_recruits_refusals,
    honour_refusal,
    results_refusal,
    trait_table_refusal,
    weapon_modification_refusal,
)

K = Keyword
W, L, D = BattleResult.WIN, BattleResult.LOSS, BattleResult.DRAW


@pytest.mark.parametrize(
    ("keywords", "tables"),
    [
        ({K.CHARACTER, K.INFANTRY}, [TraitTable.CHARACTER, TraitTable.INFANTRY]),
        ({K.INFANTRY}, [TraitTable.INFANTRY]),
        ({K.MOUNTED}, [TraitTable.MOUNTED]),
        ({K.VEHICLE}, [TraitTable.VEHICLE]),
        ({K.CHARACTER, K.VEHICLE}, [TraitTable.VEHICLE]),
        ({K.CHARACTER, K.MONSTER}, []),
        ({K.MONSTER}, []),
    ],
    ids=["character-infantry", "infantry", "mounted", "vehicle", "walker", "monster-hero", "beast"],
)
def test_it_offers_only_the_trait_tables_that_fit_the_unit(keywords, tables):
    """R4.4: a table fits by keyword; the CHARACTER table is not for MONSTERs or VEHICLEs."""
    assert fitting_trait_tables(keywords) == tables


def test_it_refuses_a_vehicle_trait_for_an_infantry_squad():
    """R4.4: an INFANTRY unit can't take a VEHICLE trait."""
    squad = UnitFacts(name="Squad Dorn", keywords={K.INFANTRY})
    assert trait_table_refusal(squad, TraitTable.INFANTRY) is None
    assert trait_table_refusal(squad, TraitTable.VEHICLE) == (
        "The Vehicle table doesn't fit Squad Dorn; pick the Infantry table."
    )


def test_it_gates_a_relic_by_the_rank_its_promotion_reached():
    """R4.5 (decision): a unit that jumped from Battle-hardened to Legendary settles its
    Heroic promotion at the Heroic gate, even though it is Legendary now."""
    hero = UnitFacts(name="Varro", xp=60, keywords={K.CHARACTER})
    legendary = RelicCategory.LEGENDARY

    def refusal(rank):
        return honour_refusal(
            unit=hero,
            category="crusade_relic",
            replacing=False,
            relic_category=legendary,
            rank=rank,
        )

    assert "Legendary Relics need Legendary rank" in refusal(Rank.HEROIC)
    assert refusal(Rank.LEGENDARY) is None
    assert refusal(None) is None  # a mission's honour: the unit's current rank


@pytest.mark.parametrize(
    ("weapon", "allowed"),
    [
        ("Bolt rifle", True),
        ("Power sword", False),
        ("power SWORD ", False),
        ("Plasma pistol", False),
    ],
)
def test_it_refuses_to_modify_a_modified_relic_or_enhancement_weapon(weapon, allowed):
    """R4.6: not a weapon already modified, a relic, or the Enhancement's weapon."""
    refusal = weapon_modification_refusal(
        weapon, honoured_weapons=["Plasma pistol"], enhancement_weapon="Power sword"
    )
    assert (refusal is None) is allowed


@pytest.mark.parametrize(
    ("most", "added", "new_points", "refused"),
    [
        (None, 95, 90, {"max_model_count", "points"}),
        (10, 6, 180, {"models_added"}),
        (10, 5, 180, set()),
        (10, 5, 90, {"points"}),
    ],
    ids=["no-maximum-same-points", "past-the-maximum", "up-to-the-maximum", "same-points"],
)
def test_it_asks_for_the_datasheet_maximum_and_more_points_for_fresh_recruits(
    most, added, new_points, refused
):
    """R6.6: models up to the datasheet maximum (asked for when the card lacks it), and
    the points recalculated: with 5 of at most 10 models, at most 5 can join."""
    refusals = fresh_recruits_refusals(
        name="Squad Dorn",
        model_count=5,
        models_added=added,
        max_model_count=most,
        points=90,
        new_points=new_points,
    )
    assert set(refusals) == refused
    if "models_added" in refused:
        assert refusals["models_added"] == (
            "Squad Dorn can have at most 10 models; it has 5, so at most 5 can join."
        )
    if "points" in refused:
        assert "90 points now" in refusals["points"]


def muster_unit(key, **fields):
    fields.setdefault("name", f"Unit {key}")
    return MusterUnit(
        key=key, datasheet=f"Sheet {key}", points=50, faction_keywords="Imperium", **fields
    )


@pytest.mark.parametrize(("rule", "ok"), [("", False), ("Bodyguard of two Leaders", True)])
def test_it_refuses_a_second_leader_unless_a_datasheet_rule_allows_it(rule, ok):
    """R8.7: each Bodyguard unit can have only one Leader (decision: unless the player
    names the rule that allows a second)."""
    first = muster_unit("a", keywords={K.CHARACTER}, leads_key="g")
    second = muster_unit("b", keywords={K.CHARACTER}, leads_key="g")
    guard = muster_unit("g", name="Bladeguard", second_leader_rule=rule)

    report = check_muster(
        battle_size="Incursion", faction="Imperium", units=[first, second, guard], warlord_key="a"
    )

    assert report.ok is ok
    if not ok:
        assert report.errors == (
            "Bladeguard can have only one Leader (Unit a and Unit b are attached); "
            "name the datasheet rule that allows a second one.",
        )


@pytest.mark.parametrize(
    ("results", "ok"),
    [
        ([W, L], True),
        ([D, D], True),
        ([W, W], False),
        ([L, L], False),
        ([W, D], False),
        ([D, L], False),
        ([W], True),
        ([W, L, L], True),
        ([W, W, L], False),
        ([W, D, D], False),
        ([D, D, D], True),
    ],
)
def test_it_accepts_only_results_that_agree(results, ok):
    """R9: one side wins and the other loses, or both draw; never two victors."""
    assert (results_refusal(results) is None) is ok
