"""R4.5, R4.6, R4.8, R5.4: the tables the app ships."""

import pytest

from campaign.rules import (
    BATTLE_SCAR_EFFECTS,
    BATTLE_SCARS,
    BATTLE_TRAIT_TABLES,
    CRUSADE_RELICS,
    WEAPON_MODIFICATION_EFFECTS,
    WEAPON_MODIFICATIONS,
    RelicCategory,
)

SPEC_SCARS = [
    "Crippling Damage",
    "Battle-weary",
    "Fatigued",
    "Disgraced",
    "Mark of Shame",
    "Deep Scars",
]
SPEC_MODIFICATIONS = [
    "Finely Balanced",
    "Brutal",
    "Armour Piercing",
    "Master-worked",
    "Heirloom",
    "Precise",
]
SPEC_TRAITS = {
    "Character": [
        "Deadly Combatant",
        "Born Hunter",
        "Bio-acid Burns",
        "Natural Leader",
        "Shadow Stalker",
        "Death Incarnate",
    ],
    "Infantry": [
        "Battle-scarred Resistance",
        "Vanguard Espionage",
        "Obdurate Obedience",
        "Resolute Veterans",
        "Only the Swift Survive",
        "Headhunters",
    ],
    "Mounted": [
        "Tireless Raiders",
        "Hunter's Celerity",
        "High-speed Gunnery",
        "Predatory Urge",
        "Mounted Guerrillas",
        "Encircling Raptors",
    ],
    "Vehicle": [
        "Blessed Hull",
        "Focused Gunners",
        "Reinforced Superstructure",
        "Elite Crew",
        "Archeotech Power Cell",
        "Auto-repair Nodes",
    ],
}
SPEC_RELICS = {
    RelicCategory.ARTIFICER: [
        "Crimson Medallion of Bastior",
        "Master-crafted Armour",
        "Artificer Weapon",
        "Biosplint Gland",
    ],
    RelicCategory.ANTIQUITY: [
        "Archeotech Nano-med",
        "Sigil of Sol",
        "Cranium Obscura",
        "Shadesplinter Cloak",
        "Lantern of Detestation",
        "Shard of Dying Light",
    ],
    RelicCategory.LEGENDARY: [
        "Gheist Prism Field",
        "Vortex Grenade",
        "Null-field Disruptor",
        "Vertebrax of Vodun",
    ],
}


def test_it_numbers_the_battle_scars_table_d1_to_d6_as_the_rulebook_does():
    """R5.4: D6 order and names of the Battle Scars."""
    assert BATTLE_SCARS == dict(enumerate(SPEC_SCARS, start=1))
    assert set(BATTLE_SCAR_EFFECTS) == set(SPEC_SCARS)


def test_it_numbers_the_weapon_modifications_table_d1_to_d6_as_the_rulebook_does():
    """R4.6: D6 order and names of the Weapon Modifications."""
    assert WEAPON_MODIFICATIONS == dict(enumerate(SPEC_MODIFICATIONS, start=1))
    assert set(WEAPON_MODIFICATION_EFFECTS) == set(SPEC_MODIFICATIONS)


@pytest.mark.parametrize("table_name", list(SPEC_TRAITS))
def test_it_ships_the_four_battle_traits_tables_in_the_listed_order(table_name):
    """R4.8: Character, Infantry, Mounted and Vehicle tables, D6 in the listed order."""
    table = BATTLE_TRAIT_TABLES[table_name]
    assert sorted(table) == list(range(1, 7))
    assert [table[roll][0] for roll in range(1, 7)] == SPEC_TRAITS[table_name]
    assert all(effect for _name, effect in table.values())
    assert set(BATTLE_TRAIT_TABLES) == set(SPEC_TRAITS)


def test_it_files_each_crusade_relic_under_its_category():
    """R4.8: relic names by category."""
    by_category = {
        category: [name for name, (cat, _e) in CRUSADE_RELICS.items() if cat is category]
        for category in RelicCategory
    }
    assert by_category == SPEC_RELICS


def test_it_describes_only_the_relics_whose_effect_the_spec_gives():
    """R4.8: unknown effects are left blank for the organiser to fill in."""
    described = {name for name, (_cat, effect) in CRUSADE_RELICS.items() if effect}
    assert described == {"Master-crafted Armour", "Artificer Weapon"}


@pytest.mark.parametrize(
    "effects",
    [BATTLE_SCAR_EFFECTS, WEAPON_MODIFICATION_EFFECTS],
    ids=["scars", "modifications"],
)
def test_it_gives_every_scar_and_modification_a_short_effect(effects):
    """R4.6/R5.4: each entry has a one-line summary for the card."""
    assert all(0 < len(text) <= 100 for text in effects.values())
