"""R3.7 / R4 / R7: settling promotions with Battle Honours, and Crusade points.

Promotions here are written directly with `pending_promotion` (as if a battle had just
queued them), and ranks come from an organiser's XP correction (`set_xp`), so each test
is about the settlement alone. Promotions queued by real battles are tested in
test_battles.py.
"""

import random

import pytest

from campaign import rules, services
from campaign.models import BattleHonour, CustomContent, HistoryEntry
from campaign.services import UnitOutcome
from tests.factories import make_campaign, reload
from tests.services.cards import (
    baneblade,
    commissar,
    dreir,
    krieg_force,
    krieg_squad,
    lord_of_contagion,
    plague_force,
    plague_marines,
)
from tests.services.checks import latest_history, refused
from tests.services.earned import (
    campaign_content,
    grant_relic,
    grant_trait,
    grant_traits,
    grant_weapon_mods,
    old_scars,
    pending_promotion,
    set_xp,
    settle_mods,
    settle_relic,
    settle_trait,
)
from tests.services.fights import Dice, fight

pytestmark = pytest.mark.django_db


def active_honours(unit) -> list[str]:
    return sorted(unit.honours.filter(status="active").values_list("name", flat=True))


# --------------------------------------------------------------------------- R4.4 Battle Traits


def test_it_settles_a_promotion_with_a_chosen_battle_trait():
    """R3.7 / R4.4: choose a trait from a table that fits; +1 Crusade point."""
    squad = krieg_squad(krieg_force())
    set_xp(squad, 6)
    promotion = pending_promotion(squad, rules.Rank.BLOODED)

    honour = settle_trait(promotion, table="Infantry", trait="Obdurate Obedience")

    honour, promotion, squad = reload(honour), reload(promotion), reload(squad)
    assert (honour.category, honour.name, honour.effect, honour.trait_table) == (
        "battle_trait",
        "Obdurate Obedience",
        "OC goes up by 1.",
        "Infantry",
    )
    assert (honour.status, honour.promotion) == ("active", promotion)
    assert (promotion.status, promotion.settled_with) == ("settled", "Obdurate Obedience")
    assert promotion.settled_at is not None
    assert squad.crusade_points == 1
    entry = latest_history("honour_gained", unit=squad)
    assert entry.changes == {
        "crusade_points": [0, 1],
        "battle_honours": [None, "Obdurate Obedience"],
    }


def test_it_rolls_a_battle_trait_and_rerolls_one_the_unit_has():
    """R4.4: the die shows 1 (held), 1 again, then 3."""
    squad = krieg_squad(krieg_force())
    grant_trait(squad, "Battle-scarred Resistance")

    honour = settle_trait(pending_promotion(squad), table="Infantry", rng=Dice(1, 1, 3))

    assert honour.name == "Obdurate Obedience"
    assert active_honours(squad) == ["Battle-scarred Resistance", "Obdurate Obedience"]


@pytest.mark.parametrize("seed", range(6))
def test_it_never_rolls_a_trait_the_unit_already_has(seed):
    """R4.4: with a seeded random.Random, the roll skips held traits."""
    leader = commissar(krieg_force())
    held = {h.name for h in grant_traits(leader, 5)}

    honour = settle_trait(pending_promotion(leader), table="Character", rng=random.Random(seed))

    assert honour.name == "Death Incarnate"
    assert honour.name not in held


def test_it_refuses_a_trait_the_unit_already_has():
    squad = krieg_squad(krieg_force())
    grant_trait(squad, "Obdurate Obedience")
    promotion = pending_promotion(squad)

    with refused("1st Line Company already has Obdurate Obedience; pick another trait."):
        settle_trait(promotion, table="Infantry", trait="Obdurate Obedience")


def test_it_refuses_a_trait_from_another_table():
    squad = krieg_squad(krieg_force())
    promotion = pending_promotion(squad)

    with refused("Deadly Combatant is not on the Infantry table."):
        settle_trait(promotion, table="Infantry", trait="Deadly Combatant")


def test_it_settles_a_promotion_with_the_campaigns_own_battle_trait():
    """R4.1: campaign books add content; keep it as data (CustomContent)."""
    trait = campaign_content(
        CustomContent.Kind.BATTLE_TRAIT,
        "Siege Masters",
        effect="Re-roll Wound rolls of 1 against units in ruins.",
        trait_table="Infantry",
    )
    squad = krieg_squad(krieg_force(campaign=trait.campaign))
    assert ("Siege Masters", trait.effect) in services.battle_trait_choices(squad)["Infantry"]

    honour = settle_trait(pending_promotion(squad), custom=trait)

    honour = reload(honour)
    assert (honour.name, honour.category, honour.custom_content) == (
        "Siege Masters",
        BattleHonour.Category.CUSTOM,
        trait,
    )
    assert reload(squad).crusade_points == 1
    assert "Siege Masters" not in dict(services.battle_trait_choices(reload(squad))["Infantry"])


def test_it_refuses_a_battle_trait_from_another_campaign():
    foreign = campaign_content(CustomContent.Kind.BATTLE_TRAIT, "Bloody Minded")
    squad = krieg_squad(krieg_force(campaign=make_campaign()))
    promotion = pending_promotion(squad)

    with refused("That is not one of this campaign's Battle Traits."):
        settle_trait(promotion, custom=foreign)


def test_it_refuses_to_settle_a_promotion_twice():
    squad = krieg_squad(krieg_force())
    promotion = pending_promotion(squad)
    settle_trait(promotion, table="Infantry", trait="Headhunters")

    with refused("This promotion has already been settled."):
        settle_trait(promotion, table="Infantry", trait="Obdurate Obedience")


def test_it_never_gives_an_honour_to_a_no_xp_unit():
    """R2.6: EPIC HERO, FORTIFICATION and SWARM units never gain Battle Honours."""
    marshal = dreir(krieg_force())
    promotion = pending_promotion(marshal)

    with refused(
        "Lord Marshal Dreir is an EPIC HERO, FORTIFICATION or SWARM unit: it never gains honours."
    ):
        settle_trait(promotion, table="Character", trait="Natural Leader")


# --------------------------------------------------------------------------- R4.6 weapons


def test_it_settles_a_promotion_with_two_chosen_weapon_modifications():
    """R4.6: one weapon of one model gains two different modifications."""
    squad = krieg_squad(krieg_force())

    honour = settle_mods(pending_promotion(squad), "Long-las", modifications=("Brutal", "Precise"))

    honour = reload(honour)
    assert (honour.category, honour.name) == ("weapon_modification", "Long-las: Brutal and Precise")
    assert (honour.model_name, honour.weapon, honour.modifications) == (
        "Watchmaster",
        "Long-las",
        ["Brutal", "Precise"],
    )
    assert reload(squad).crusade_points == 1


def test_it_refuses_the_same_modification_twice():
    squad = krieg_squad(krieg_force())
    promotion = pending_promotion(squad)

    with refused("The two modifications must be different."):
        settle_mods(promotion, "Long-las", modifications=("Brutal", "Brutal"))


def test_it_refuses_to_modify_a_weapon_already_modified():
    """R4.6: a weapon that is not already modified."""
    squad = krieg_squad(krieg_force())
    grant_weapon_mods(squad, "Long-las")
    promotion = pending_promotion(squad)

    with refused("long-las is already modified or is a relic; pick another weapon."):
        settle_mods(promotion, "long-las", modifications=("Heirloom", "Brutal"))


def test_it_refuses_to_modify_a_relic_weapon():
    """R4.6: not a relic weapon."""
    leader = commissar(krieg_force())
    grant_relic(leader, "Artificer Weapon", weapon="Power fist")
    promotion = pending_promotion(leader)

    with refused("Power fist is already modified or is a relic; pick another weapon."):
        settle_mods(promotion, "Power fist", modifications=("Heirloom", "Brutal"))


def test_it_rolls_two_different_weapon_modifications():
    """R4.6: a double (2, 2) is rolled again; then 4 and 5."""
    squad = krieg_squad(krieg_force())

    honour = settle_mods(pending_promotion(squad), "Chainsword", rng=Dice(2, 2, 4, 5))

    assert honour.modifications == ["Master-worked", "Heirloom"]


@pytest.mark.parametrize("seed", range(6))
def test_it_never_rolls_the_same_modification_twice(seed):
    squad = krieg_squad(krieg_force())

    honour = settle_mods(pending_promotion(squad), "Lasgun", rng=random.Random(seed))

    first, second = honour.modifications
    assert first != second
    assert {first, second} <= set(rules.WEAPON_MODIFICATIONS.values())


# --------------------------------------------------------------------------- R4.5 relics


def test_it_gives_crusade_relics_to_characters_only():
    squad = krieg_squad(krieg_force())
    promotion = pending_promotion(squad)

    with refused("Only CHARACTER units can carry Crusade Relics; 1st Line Company is not one."):
        settle_relic(promotion, "Master-crafted Armour")


@pytest.mark.parametrize(
    ("relic", "too_low_xp", "too_low_rank", "enough_xp", "points"),
    [
        ("Sigil of Sol", 30, "Battle-hardened", 31, 2),
        ("Vortex Grenade", 50, "Heroic", 51, 3),
    ],
    ids=["antiquity-needs-heroic", "legendary-needs-legendary"],
)
def test_it_gates_relics_by_rank(relic, too_low_xp, too_low_rank, enough_xp, points):
    """R4.5: Antiquity needs Heroic (+2), Legendary needs Legendary (+3)."""
    leader = commissar(krieg_force())
    set_xp(leader, too_low_xp)
    category = rules.CRUSADE_RELICS[relic][0]
    promotion = pending_promotion(leader)

    with refused(
        f"{category.label}s need {category.min_rank.label} rank; "
        f"this honour is for Lord Commissar Vell reaching {too_low_rank}."
    ):
        settle_relic(promotion, relic)

    set_xp(leader, enough_xp)
    honour = settle_relic(pending_promotion(leader), relic)

    assert reload(honour).relic_category == rules.CRUSADE_RELICS[relic][0].value
    assert reload(leader).crusade_points == points


def test_it_gives_an_artificer_relic_at_any_rank_for_1_crusade_point():
    leader = commissar(krieg_force())

    honour = settle_relic(pending_promotion(leader), "Master-crafted Armour")

    assert (reload(honour).category, reload(leader).crusade_points) == ("crusade_relic", 1)


def test_it_refuses_a_relic_already_carried_in_the_same_order_of_battle():
    """R4.5: the same relic at most once in the whole Order of Battle."""
    force = krieg_force()
    grant_relic(commissar(force), "Artificer Weapon")
    second = commissar(force, "Commissar Ruhl")
    promotion = pending_promotion(second)

    with refused("Artificer Weapon is already carried by a unit in this Order of Battle."):
        settle_relic(promotion, "Artificer Weapon")

    other_force = krieg_force(name="Cadian 8th")
    honour = settle_relic(pending_promotion(commissar(other_force)), "Artificer Weapon")
    assert honour.name == "Artificer Weapon"


def test_it_settles_a_promotion_with_the_campaigns_own_relic():
    """R4.1 / R4.5: relics are data; a campaign relic counts by its category."""
    relic = campaign_content(
        CustomContent.Kind.CRUSADE_RELIC,
        "Standard of the 13th",
        relic_category=rules.RelicCategory.ANTIQUITY,
        effect='+1 OC to friendly units within 6".',
    )
    leader = commissar(krieg_force(campaign=relic.campaign))
    set_xp(leader, 31)

    honour = settle_relic(pending_promotion(leader), custom=relic)

    assert (reload(honour).name, reload(honour).custom_content) == ("Standard of the 13th", relic)
    assert reload(leader).crusade_points == 2


def test_it_refuses_a_relic_that_is_not_in_the_table():
    leader = commissar(krieg_force())
    promotion = pending_promotion(leader)

    with refused("Pick a Crusade Relic."):
        settle_relic(promotion, "Lasgun of Destiny")


# --------------------------------------------------------------------------- R4.3 cap


def test_it_refuses_a_fourth_honour_unless_one_is_replaced():
    """R4.3: at 3 honours a new one replaces an old one, which is lost."""
    squad = krieg_squad(krieg_force())
    old, *_ = grant_traits(squad, 3)
    promotion = pending_promotion(squad)

    with refused(
        "1st Line Company already has 3 Battle Honours, the most it can hold: pick one to replace."
    ):
        settle_trait(promotion, table="Infantry", trait="Headhunters")

    honour = settle_trait(promotion, table="Infantry", trait="Headhunters", replace=old)

    old = reload(old)
    assert (old.status, old.lost_reason) == ("lost", "Replaced by Headhunters")
    assert old.lost_at is not None
    assert reload(honour).status == "active"
    assert reload(squad).honours.filter(status="active").count() == 3
    assert reload(squad).crusade_points == 3
    assert latest_history("honour_gained", unit=squad).changes["battle_honours"] == [
        "Battle-scarred Resistance",
        "Headhunters",
    ]


def test_it_refuses_to_replace_an_honour_below_the_cap():
    squad = krieg_squad(krieg_force())
    (old,) = grant_traits(squad, 1)
    promotion = pending_promotion(squad)

    with refused("Honours are only replaced when the unit is at its limit."):
        settle_trait(promotion, table="Infantry", trait="Headhunters", replace=old)


def test_it_lets_a_character_hold_six_honours():
    """R4.3: 6 for a CHARACTER."""
    leader = commissar(krieg_force())
    grant_traits(leader, 5)
    grant_relic(leader, "Biosplint Gland")
    assert reload(leader).honours.filter(status="active").count() == 6
    promotion = pending_promotion(leader)

    with refused(
        "Lord Commissar Vell already has 6 Battle Honours, the most it can hold: "
        "pick one to replace."
    ):
        settle_relic(promotion, "Master-crafted Armour")


def test_it_lets_legendary_veterans_hold_six_honours():
    """R4.3 / R6.3: 6 for a unit with Legendary Veterans."""
    squad = krieg_squad(krieg_force())
    set_xp(squad, 30)
    services.legendary_veterans(actor=squad.force.player, unit=squad)

    grant_traits(squad, 6)

    assert reload(squad).honours.filter(status="active").count() == 6
    assert reload(squad).crusade_points == 6


# --------------------------------------------------------------------------- R7 points


def test_it_derives_crusade_points_from_honours_relics_and_scars():
    """R7: +1 per honour (+2 TITANIC), relics +1/+2/+3, -1 per scar; may be negative."""
    force = krieg_force()
    squad = krieg_squad(force)
    grant_traits(squad, 2)
    old_scars(squad, "Fatigued")
    tank = baneblade(force)
    grant_trait(tank, "Elite Crew")
    leader = commissar(force)
    set_xp(leader, 51)
    grant_relic(leader, "Master-crafted Armour")
    grant_relic(leader, "Sigil of Sol")
    grant_relic(leader, "Gheist Prism Field")
    grant_trait(leader, "Natural Leader")
    wretches = krieg_squad(force, "Penal Troopers")
    old_scars(wretches, "Disgraced", "Mark of Shame")

    assert reload(squad).crusade_points == 1
    assert reload(tank).crusade_points == 2
    assert reload(leader).crusade_points == 1 + 2 + 3 + 1
    assert reload(wretches).crusade_points == -2


def test_it_settles_promotions_queued_by_a_battle():
    """R3.7: the promotions a battle queues are settled one by one, each with an honour."""
    force = plague_force()
    lord, marines = lord_of_contagion(force), plague_marines(force)
    set_xp(marines, 5)
    fight(
        [lord, marines],
        outcomes={
            marines: UnitOutcome(
                marked_for_greatness=True, bonus_xp=7, bonus_xp_reason="Agenda: Plague Vector"
            )
        },
    )
    first, second = reload(marines).promotions.order_by("rank")

    settle_trait(first, table="Infantry", trait="Resolute Veterans")
    settle_mods(second, "Plague spewer", modifications=("Brutal", "Heirloom"))

    assert not reload(marines).pending_promotions()
    assert reload(marines).crusade_points == 2
    assert HistoryEntry.objects.filter(action="honour_gained", unit=marines).count() == 2
