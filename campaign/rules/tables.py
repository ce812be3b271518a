"""The numbers, dice tables and honour content of the Crusade rules.

Data only (it imports nothing but the enums and the edition's numbers). Names and dice
numbers are the rulebook's; every effect text is a short summary in this project's own words. The
dice order of the Battle Traits tables is an assumption (R4.8), so everything here
is plain data a campaign can replace.
"""

from __future__ import annotations

from .edition import EDITION
from .enums import RelicCategory, TraitTable

# --- Numbers ------------------------------------------------------------------------

RP_PER_BATTLE = EDITION.rp_per_battle
"""R1.5: RP every force gains after each battle, win, lose or draw."""

BATTLE_XP = EDITION.battle_xp
"""R3.1: XP every unit in the army gains after each battle."""

DEALERS_OF_DEATH_STEP = EDITION.dealers_of_death_step
"""R3.2: 1XP each time the Units Destroyed tally reaches a new multiple of this."""

MARKED_FOR_GREATNESS_XP = EDITION.marked_for_greatness_xp
"""R3.3: XP for the one unit Marked for Greatness after a battle."""

MOST_BONUS_XP_PER_BATTLE = 99
"""R3.4/R11.1: the most bonus XP (Agendas, mission rewards) one unit is credited with for
one battle: what the record form takes. Only the restore's consistency bound uses it."""

NON_CHARACTER_XP_CAP = EDITION.non_character_xp_cap
"""R3.6: XP ceiling for units that are neither CHARACTER nor Legendary Veterans."""

MAX_BATTLE_HONOURS = EDITION.max_battle_honours
"""R4.3: honour limit for most units."""

MAX_BATTLE_HONOURS_CHARACTER = EDITION.max_battle_honours_character
"""R4.3/R6.3: honour limit for a CHARACTER or a unit with Legendary Veterans."""

OUT_OF_ACTION_PASS = EDITION.out_of_action_pass
"""R5.1: an Out of Action test passes on this D6 result or higher."""

BATTLE_WEARY_MODIFIER = EDITION.battle_weary_modifier
"""R5.1/R5.4: Battle-weary units subtract 1 from Out of Action tests."""

MAX_BATTLE_SCARS = EDITION.max_battle_scars
"""R5.3: a unit holds at most this many Battle Scars."""

BATTLE_SIZES: dict[str, int] = EDITION.battle_sizes
"""R8.1: battle size -> points limit for one army."""

MAX_SAME_DATASHEET = EDITION.max_same_datasheet
"""R8.3: most units of one datasheet in an army."""

MAX_SAME_DATASHEET_BATTLELINE = EDITION.max_same_datasheet_battleline
"""R8.3: the limit for BATTLELINE and DEDICATED TRANSPORT datasheets."""

STANDINGS_ORDER: tuple[str, ...] = ("-victories", "-crusade_points", "name")
"""Campaign decision: standings rank forces by victories, then Crusade points, then name."""

# --- Tables -------------------------------------------------------------------------

BATTLE_SCARS: dict[int, str] = {
    1: "Crippling Damage",
    2: "Battle-weary",
    3: "Fatigued",
    4: "Disgraced",
    5: "Mark of Shame",
    6: "Deep Scars",
}
"""R5.4: D6 -> Battle Scar name."""

BATTLE_WEARY = BATTLE_SCARS[2]
"""R5.1: the scar that takes 1 off Out of Action rolls."""
DISGRACED = BATTLE_SCARS[4]
MARK_OF_SHAME = BATTLE_SCARS[5]
"""R5.4/R8.7: the scar that bars a unit from an Attached unit."""

BATTLE_SCAR_EFFECTS: dict[str, str] = {
    "Crippling Damage": 'No Advance moves, and 1" less Move.',
    "Battle-weary": (
        "Takes -1 on Battle-shock, Leadership, Desperate Escape and Out of Action tests."
    ),
    "Fatigued": "1 less OC, and no bonus for charging.",
    "Disgraced": "Stratagems can't be used on it; can't be Marked for Greatness.",
    "Mark of Shame": (
        "Can't join an Attached unit, friendly Auras don't reach it, "
        "and it can't be Marked for Greatness."
    ),
    "Deep Scars": "Every Critical Hit against it wounds automatically.",
}
"""R5.4: Battle Scar name -> short effect."""

SHAMEFUL_SCARS: frozenset[str] = frozenset({DISGRACED, MARK_OF_SHAME})
"""R3.3/R6.2: scars that bar Marked for Greatness and Renowned Heroes."""

WEAPON_MODIFICATIONS: dict[int, str] = {
    1: "Finely Balanced",
    2: "Brutal",
    3: "Armour Piercing",
    4: "Master-worked",
    5: "Heirloom",
    6: "Precise",
}
"""R4.6: D6 -> Weapon Modification name."""

WEAPON_MODIFICATION_EFFECTS: dict[str, str] = {
    "Finely Balanced": "Ballistic or Weapon Skill is 1 better.",
    "Brutal": "Strength goes up by 1.",
    "Armour Piercing": "AP is 1 better.",
    "Master-worked": "Damage goes up by 1.",
    "Heirloom": "Attacks go up by 1.",
    "Precise": "Its Critical Wounds count as [PRECISION].",
}
"""R4.6: Weapon Modification name -> short effect."""

BATTLE_TRAIT_TABLES: dict[str, dict[int, tuple[str, str]]] = {
    TraitTable.CHARACTER: {
        1: ("Deadly Combatant", "Its melee weapons get [SUSTAINED HITS 1]."),
        2: ("Born Hunter", 'Scouts 9".'),
        3: ("Bio-acid Burns", "Feel No Pain 5+."),
        4: ("Natural Leader", "May re-roll its Battle-shock and Leadership tests."),
        5: ("Shadow Stalker", "Has Stealth."),
        6: ("Death Incarnate", 'Aura: enemy units within 6" take -1 to Leadership.'),
    },
    TraitTable.INFANTRY: {
        1: ("Battle-scarred Resistance", "Feel No Pain 6+."),
        2: ("Vanguard Espionage", 'Scouts 9".'),
        3: ("Obdurate Obedience", "OC goes up by 1."),
        4: (
            "Resolute Veterans",
            "+1 on its Battle-shock, Leadership and Desperate Escape tests.",
        ),
        5: ("Only the Swift Survive", "+1 to its Advance and Charge rolls."),
        6: (
            "Headhunters",
            "Choose an enemy unit: re-roll Hit and Wound rolls of 1 against it.",
        ),
    },
    TraitTable.MOUNTED: {
        1: ("Tireless Raiders", "Can shoot while engaged, but only at units it is engaged with."),
        2: ("Hunter's Celerity", 'Move goes up by 2".'),
        3: ("High-speed Gunnery", "Its ranged weapons get [ASSAULT]."),
        4: ("Predatory Urge", "May re-roll its Charge rolls."),
        5: ("Mounted Guerrillas", "Can charge in a turn it Fell Back."),
        6: (
            "Encircling Raptors",
            "Arrives from Strategic Reserves as if the battle round were one later.",
        ),
    },
    TraitTable.VEHICLE: {
        1: ("Blessed Hull", "5+ invulnerable save."),
        2: ("Focused Gunners", "No Hit roll penalty for shooting while engaged."),
        3: (
            "Reinforced Superstructure",
            "Attacks of Strength 7 or less against it have AP 1 worse.",
        ),
        4: ("Elite Crew", "May re-roll Hit rolls of 1."),
        5: ("Archeotech Power Cell", 'Move goes up by 2".'),
        6: ("Auto-repair Nodes", "In your Command phase, one model gets 1 wound back."),
    },
}
"""R4.4/R4.8: traits table name -> D6 -> (trait name, short effect)."""

CRUSADE_RELICS: dict[str, tuple[RelicCategory, str]] = {
    "Crimson Medallion of Bastior": (RelicCategory.ARTIFICER, ""),
    "Master-crafted Armour": (RelicCategory.ARTIFICER, "+1 to its armour saving throws."),
    "Artificer Weapon": (
        RelicCategory.ARTIFICER,
        "Each Critical Hit with it also deals 1 mortal wound.",
    ),
    "Biosplint Gland": (RelicCategory.ARTIFICER, ""),
    "Archeotech Nano-med": (RelicCategory.ANTIQUITY, ""),
    "Sigil of Sol": (RelicCategory.ANTIQUITY, ""),
    "Cranium Obscura": (RelicCategory.ANTIQUITY, ""),
    "Shadesplinter Cloak": (RelicCategory.ANTIQUITY, ""),
    "Lantern of Detestation": (RelicCategory.ANTIQUITY, ""),
    "Shard of Dying Light": (RelicCategory.ANTIQUITY, ""),
    "Gheist Prism Field": (RelicCategory.LEGENDARY, ""),
    "Vortex Grenade": (RelicCategory.LEGENDARY, ""),
    "Null-field Disruptor": (RelicCategory.LEGENDARY, ""),
    "Vertebrax of Vodun": (RelicCategory.LEGENDARY, ""),
}
"""R4.5/R4.8: relic name -> (category, short effect); "" means the organiser fills it in."""
