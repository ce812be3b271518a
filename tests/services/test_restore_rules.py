"""A restored export keeps the rules that play keeps (R1, R2.4-R2.6, R3, R4.3, R4.5, R5.3,
R6.2, R6.3): each refusal names the unit or force and the rule, and writes nothing.

Every file here is a real export, made in the test, then edited by hand; an edited file
is no longer signed by this server, so the consistency bounds (what its battles and
requisitions could have given) apply too."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from campaign import rules, services
from campaign.models import CrusadeForce, Provenance
from tests.factories import make_user
from tests.services.checks import refused
from tests.services.test_restore import HERO, SQUAD, exported, force_part, setting
from tests.services.veterans import veteran_force

pytestmark = pytest.mark.django_db

SQUAD_AT = "Unit 2 'Squad Keller'"
HERO_AT = "Unit 1 'Lord Commissar Vell'"


def relic(name: str, category: str) -> dict:
    return {"category": "crusade_relic", "name": name, "relic_category": category}


def several(*changes: Callable[[dict], None]) -> Callable[[dict], None]:
    def change(document: dict) -> None:
        for one in changes:
            one(document)

    return change


def a_second_hero(document: dict) -> None:
    twin = copy.deepcopy(HERO(document))
    twin.update(name="Commissar Ravel", enhancement="", enhancement_points=0)
    document["units"].append(twin)


def no_battle_at_all(document: dict) -> None:
    document["force"].update(battle_tally=0, victories=0)
    for unit in document["units"]:
        unit.update(battles_played=0, battles_survived=0, xp=0, units_destroyed=0)


RULES: dict[str, tuple[Callable[[dict], None], list[str]]] = {
    "a FORTIFICATION with XP (R2.6)": (
        several(setting(SQUAD, "is_fortification", True), setting(SQUAD, "xp", 4)),
        [SQUAD_AT, "never gains XP", "R2.6"],
    ),
    "a SWARM with a Battle Honour (R2.6)": (
        several(setting(SQUAD, "is_swarm", True), setting(SQUAD, "xp", 0)),
        [SQUAD_AT, "it never gains honours", "R2.6"],
    ),
    "an EPIC HERO with XP and honours (R2.6)": (
        setting(HERO, "is_epic_hero", True),
        [HERO_AT, "never gains XP", "never gains honours"],
    ),
    "a Crusade Relic on a non-CHARACTER (R4.5)": (
        lambda d: SQUAD(d)["honours"].append(relic("Sigil of Sol", "artificer")),
        [SQUAD_AT, "Sigil of Sol", "Only CHARACTER units can carry Crusade Relics", "R4.5"],
    ),
    "a Legendary Relic below Legendary rank (R4.5)": (
        lambda d: HERO(d)["honours"].append(relic("Vortex Grenade", "legendary")),
        [HERO_AT, "Vortex Grenade", "Legendary Relics need Legendary rank", "R4.5"],
    ),
    "the same relic twice on one unit (R4.5)": (
        lambda d: HERO(d)["honours"].append(relic("Master-crafted Armour", "artificer")),
        [HERO_AT, "Master-crafted Armour", "already carried", "R4.5"],
    ),
    "the same relic on two units (R4.5)": (
        a_second_hero,
        ["Unit 4 'Commissar Ravel'", "Master-crafted Armour", "already carried", "R4.5"],
    ),
    "an Enhancement on a non-CHARACTER (R6.2)": (
        setting(SQUAD, "enhancement", "Drill Commander"),
        [SQUAD_AT, "Only a CHARACTER can take an Enhancement", "R6.2"],
    ),
    "an Enhancement on an EPIC HERO (R6.2)": (
        several(
            setting(HERO, "is_epic_hero", True),
            setting(HERO, "xp", 0),
            setting(HERO, "honours", []),
        ),
        [HERO_AT, "EPIC HERO and can't take an Enhancement", "R6.2"],
    ),
    "Legendary Veterans on a CHARACTER (R6.3)": (
        setting(HERO, "legendary_veteran", True),
        [HERO_AT, "is a CHARACTER and has no XP cap to lift", "R6.3"],
    ),
    "XP above the non-CHARACTER cap (R3.6)": (
        setting(SQUAD, "xp", 31),
        [SQUAD_AT, "above its cap of 30XP", "R3.6"],
    ),
    "seven honours on a CHARACTER (R4.3)": (
        lambda d: HERO(d)["honours"].extend(
            {"category": "battle_trait", "name": f"Trait {i}"} for i in range(4)
        ),
        [HERO_AT, "7 Battle Honours held; at most 6", "R4.3"],
    ),
    "four scars (R5.3)": (
        lambda d: SQUAD(d)["scars"].extend({"name": f"Scar {i}"} for i in range(3)),
        [SQUAD_AT, "Battle Scars held; at most 3", "R5.3"],
    ),
    "a 50,000-point Supply Limit after no battle (R1.2, R6.1)": (
        several(no_battle_at_all, setting(force_part, "supply_limit", 50_000)),
        ["Force '13th Siege Regiment'", "Supply Limit of 50000", "at most 1200"],
    ),
    "RP no battles could have given (R1.5)": (
        lambda d: d["requisitions"].extend(
            [{"requisition": "increase_supply_limit", "cost": 1}] * 20
        ),
        ["Force '13th Siege Regiment'", "spent", "at most 16RP"],
    ),
    "30XP and 12 kills after no battle (R2.4, R3)": (
        several(
            no_battle_at_all,
            setting(SQUAD, "xp", 30),
            setting(SQUAD, "units_destroyed", 12),
        ),
        [SQUAD_AT, "destroyed 12 units without playing a battle", "30XP after no battle"],
    ),
    "more XP than its battles could give (R3)": (
        setting(HERO, "xp", 200),
        [HERO_AT, "200XP is more than 1 battles could give", "at most 103XP"],
    ),
    "more battles than its force fought (R2.5)": (
        setting(SQUAD, "battles_played", 5),
        [SQUAD_AT, "played 5 battles, but its force fought 1"],
    ),
}


@pytest.mark.parametrize("case", sorted(RULES))
def test_it_refuses_an_edited_export_that_breaks_a_rule_and_writes_nothing(case):
    force = veteran_force()
    document = copy.deepcopy(exported(force))
    change, messages = RULES[case]
    change(document)
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=force.campaign)
    forces = CrusadeForce.objects.count()

    with refused(containing=messages):
        services.restore_force(
            actor=player, player=player, campaign=force.campaign, document=document
        )

    assert CrusadeForce.objects.count() == forces
    assert not Provenance.objects.exists()


def test_it_bounds_xp_by_what_battles_give_as_the_rules_module_says():
    """R3: 1XP a battle, 3 for Marked for Greatness, the record form's most bonus XP, and
    Dealers of Death over the whole tally; nothing without a battle."""
    assert rules.xp_bound(battles_played=0, units_destroyed=0) == 0
    assert rules.xp_bound(battles_played=2, units_destroyed=7) == 2 * (1 + 3 + 99) + 2


def test_it_restores_the_untouched_export_of_a_force_with_a_past():
    """The same force, unedited, passes every check above (it is what play made)."""
    force = veteran_force()
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=force.campaign)

    restored = services.restore_force(
        actor=player, player=player, campaign=force.campaign, document=exported(force)
    )

    assert restored.unit_count == 2
