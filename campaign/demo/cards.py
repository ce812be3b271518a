"""The demo's players, their forces and their cards, taken from real army lists."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Card:
    """A demo card: the fields of `services.NewUnit`, bar the faction keywords."""

    name: str
    datasheet: str
    points: int
    models_description: str
    model_count: int = 1
    wargear: str = ""
    is_character: bool = False
    is_epic_hero: bool = False
    is_battleline: bool = False
    body: str = ""
    """The keyword that says which Battle Traits tables fit: infantry, mounted or vehicle."""
    enhancement: str = ""
    enhancement_points: int = 0
    max_model_count: int | None = None


FORCES = {
    "alice": (
        "Krieg 13th Siege Regiment",
        "Astra Militarum",
        "Hold the Kharos breach until the Mechanicus arrives; settle the score with "
        "the Wolves who took our trenches.",
        [
            Card(
                "Lord Marshal Dreir",
                "Lord Marshal Dreir",
                100,
                "1 Lord Marshal",
                1,
                "Laspistol, Sabre of Sacrifice, Savage claws",
                is_character=True,
                body="infantry",
            ),
            Card(
                "Krieg Command Squad",
                "Krieg Command Squad",
                65,
                "1 Lord Commissar, 2 Veteran Guardsmen",
                3,
                "Plasma pistols, power fist, chainsword, servo-scribes",
                is_character=True,
                body="infantry",
            ),
            Card(
                "Siege Company Kappa",
                "Death Korps of Krieg",
                145,
                "2 Watchmasters, 18 Troopers",
                20,
                "Lasguns, long-las, chainswords",
                is_battleline=True,
                body="infantry",
                max_model_count=20,
            ),
        ],
    ),
    "bruno": (
        "The Stormlance of Fenris",
        "Adeptus Astartes",
        "Hunt down the heretic Custodes impostors; avenge the fallen of the Krieg trenches.",
        [
            Card(
                "Logan Grimnar",
                "Logan Grimnar on Stormrider",
                180,
                "1 Logan Grimnar",
                1,
                "The Axe Morkai, storm bolter",
                is_character=True,
                is_epic_hero=True,
            ),
            Card(
                "Ragnar Frostmane",
                "Wolf Lord on Thunderwolf",
                125,
                "1 Wolf Lord",
                1,
                "Twin lightning claws",
                is_character=True,
                body="mounted",
                enhancement="Fury of the Storm",
                enhancement_points=20,
            ),
            Card(
                "Shadow Pack",
                "Infiltrator Squad",
                100,
                "1 Sergeant, 4 Infiltrators",
                5,
                "Bolt carbines, bolt pistols",
                body="infantry",
                max_model_count=10,
            ),
            Card(
                "Fangblade",
                "Gladiator Lancer",
                160,
                "1 Gladiator Lancer",
                1,
                "Lancer laser destroyer, Icarus rocket pod, storm bolters",
                body="vehicle",
            ),
        ],
    ),
    "chen": (
        "Shield Host of the Vigil",
        "Adeptus Custodes",
        "Recover the lost relics of the Kharos vaults before the Wolves can.",
        [
            Card(
                "Valerian",
                "Valerian",
                110,
                "1 Valerian",
                1,
                "Gnosis",
                is_character=True,
                is_epic_hero=True,
                body="infantry",
            ),
            Card(
                "Aurelian the Blade",
                "Blade Champion",
                135,
                "1 Blade Champion",
                1,
                "Vaultswords",
                is_character=True,
                body="infantry",
                enhancement="Superior Creation",
                enhancement_points=25,
            ),
            Card(
                "Custodian Guard Tertius",
                "Custodian Guard",
                215,
                "5 Custodian Guard",
                5,
                "Guardian spears",
                is_battleline=True,
                body="infantry",
                max_model_count=5,
            ),
            Card(
                "Prosecutors of the Silent Sisterhood",
                "Prosecutors",
                45,
                "1 Sister Superior, 3 Prosecutors",
                4,
                "Boltguns",
                body="infantry",
                max_model_count=10,
            ),
        ],
    ),
}

FACTION_KEYWORDS = {
    "Astra Militarum": "Imperium, Astra Militarum",
    "Adeptus Astartes": "Imperium, Adeptus Astartes, Space Wolves",
    "Adeptus Custodes": "Imperium, Adeptus Custodes",
}
