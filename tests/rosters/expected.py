"""The expected parse of every shared sample: the tables of samples/SOURCES.md as data.

Role flags are (character, epic_hero, battleline, dedicated_transport); None where the
file doesn't say ("(datasheet)" in SOURCES.md, or a style that shows no roles).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SAMPLES = Path(__file__).parent / "samples"

Flags = tuple[bool | None, bool | None, bool | None, bool | None]

# The app's sections: CHARACTERS (EPIC HERO not shown), BATTLELINE, DEDICATED TRANSPORTS,
# OTHER DATASHEETS.
APP_CHAR: Flags = (True, None, False, False)
APP_BATTLELINE: Flags = (False, False, True, False)
APP_TRANSPORT: Flags = (False, False, False, True)
APP_OTHER: Flags = (False, False, False, False)

# BattleScribe categories say everything.
ROS_EPIC: Flags = (True, True, False, False)
ROS_CHAR: Flags = (True, False, False, False)
ROS_BATTLELINE: Flags = (False, False, True, False)
ROS_TRANSPORT: Flags = (False, False, False, True)
ROS_OTHER: Flags = (False, False, False, False)

# New Recruit full style: groups by primary category (characters yes, battleline not).
FULL_EPIC: Flags = (True, True, None, None)
FULL_CHAR: Flags = (True, False, None, None)
FULL_OTHER: Flags = (False, False, None, None)

# New Recruit WTC style: CharN labels mark CHARACTERS, nothing else.
WTC_CHAR: Flags = (True, None, None, None)
WTC_OTHER: Flags = (False, False, None, None)

# New Recruit short style: no roles at all.
SHORT: Flags = (None, None, None, None)


@dataclass(frozen=True)
class Row:
    name: str
    points: int
    models: int
    flags: Flags
    enhancement: str = ""
    enhancement_points: int | None = None
    warlord: bool = False


@dataclass(frozen=True)
class Expected:
    path: str
    format: str
    name: str
    faction: str
    detachment: str
    battle_size: str
    total_points: int
    rows: tuple[Row, ...]


def _tau(flags: tuple[Flags, Flags, Flags], costs: tuple[int | None, ...]) -> tuple[Row, ...]:
    """The one T'au army of SOURCES.md section 4, as each New Recruit style shows it."""
    epic, char, other = flags
    plasma, blades, projector = costs
    return (
        Row("Commander Farsight", 95, 1, epic),
        Row("Commander Shadowsun", 100, 1, epic, warlord=True),
        Row("Commander in Coldstar Battlesuit", 105, 1, char, "Plasma Accelerator Rifle", plasma),
        Row("Commander in Coldstar Battlesuit", 120, 1, char, "Fusion Blades", blades),
        Row(
            "Commander in Enforcer Battlesuit", 100, 1, char, "Thermoneutronic Projector", projector
        ),
        Row("Kroot Carnivores", 65, 10, other),
        Row("Kroot Carnivores", 65, 10, other),
        Row("Pathfinder Team", 90, 10, other),
        Row("Stealth Battlesuits", 60, 3, other),
        Row("Stealth Battlesuits", 60, 3, other),
        Row("Stealth Battlesuits", 60, 3, other),
        Row("Vespid Stingwings", 65, 5, other),
        Row("Broadside Battlesuits", 300, 3, other),
        Row("Crisis Fireknife Battlesuits", 130, 3, other),
        Row("Crisis Starscythe Battlesuits", 110, 3, other),
        Row("Crisis Sunforge Battlesuits", 150, 3, other),
        Row("Crisis Sunforge Battlesuits", 150, 3, other),
        Row("Ghostkeel Battlesuit", 160, 1, other),
    )


EXPECTED: tuple[Expected, ...] = (
    Expected(
        "app-text/space-wolves-boop.txt",
        "wh40k-app-text",
        "Boop",
        "Space Marines - Space Wolves",
        "Stormlance Task Force",
        "Strike Force (2000 points)",
        1985,
        (
            Row("Bjorn the Fell-Handed", 190, 1, APP_CHAR),
            Row("Harald Deathwolf", 85, 1, APP_CHAR),
            Row("Lieutenant with Combi-weapon", 70, 1, APP_CHAR),
            Row("Logan Grimnar on Stormrider", 180, 1, APP_CHAR, warlord=True),
            Row("Wolf Guard Battle Leader on Thunderwolf", 80, 1, APP_CHAR),
            Row("Wolf Guard Battle Leader on Thunderwolf", 95, 1, APP_CHAR, "Portents of Wisdom"),
            Row("Wolf Lord on Thunderwolf", 125, 1, APP_CHAR, "Fury of the Storm"),
            Row("Gladiator Lancer", 160, 1, APP_OTHER),
            Row("Infiltrator Squad", 100, 5, APP_OTHER),
            Row("Scout Squad", 70, 5, APP_OTHER),
            Row("Thunderwolf Cavalry", 240, 6, APP_OTHER),
            Row("Thunderwolf Cavalry", 240, 6, APP_OTHER),
            Row("Thunderwolf Cavalry", 240, 6, APP_OTHER),
            Row("Vanguard Veteran Squad with Jump Packs", 110, 5, APP_OTHER),
        ),
    ),
    Expected(
        "app-text/death-guard-plague-wall-annotated.txt",
        "wh40k-app-text",
        "Plague Wall",
        "Death Guard",
        "Flyblown Host",
        "Incursion (1000 points)",
        980,
        (
            Row("Lord of Contagion", 120, 1, APP_CHAR, warlord=True),
            Row("Tallyman", 50, 1, APP_CHAR),
            Row("Plague Marines", 130, 7, APP_BATTLELINE),
            Row("Plague Marines", 130, 7, APP_BATTLELINE),
            Row("Chaos Rhino", 85, 1, APP_TRANSPORT),
            Row("Chaos Rhino", 85, 1, APP_TRANSPORT),
            Row("Deathshroud Terminators", 160, 3, APP_OTHER),
            Row("Foetid Bloat-Drone with Heavy Blight Launcher", 120, 1, APP_OTHER),
            Row("Myphitic Blight-haulers", 100, 1, APP_OTHER),
        ),
    ),
    Expected(
        "app-text/astra-militarum-13th.txt",
        "wh40k-app-text",
        "13th",
        "Astra Militarum",
        "Combined Arms",
        "Incursion (1000 points)",
        950,  # the header's total; the units listed add up to 310
        (
            Row("Krieg Command Squad", 65, 3, APP_CHAR),
            Row("Lord Marshal Dreir", 100, 1, APP_CHAR, warlord=True),
            Row("Death Korps of Krieg", 145, 20, APP_BATTLELINE),
        ),
    ),
    Expected(
        "battlescribe-ros/votann-leviathan-965.ros",
        "battlescribe-ros",
        "01 | LoV | Leviathan | v0102",
        "Leagues of Votann",
        "Oathband",
        "Incursion (1000 points)",
        965,
        (
            Row("Hearthkyn Warriors", 110, 10, ROS_BATTLELINE),
            Row("Einhyr Hearthguard", 150, 5, ROS_OTHER),
            Row("Hernkyn Pioneers", 90, 3, ROS_OTHER),
            Row("Hekaton Land Fortress", 225, 1, ROS_OTHER),
            Row("Sagitaur", 100, 1, ROS_TRANSPORT),
            Row("Sagitaur", 100, 1, ROS_TRANSPORT),
            Row("Hearthkyn Warriors", 110, 10, ROS_BATTLELINE),
            Row("Einhyr Champion", 80, 1, ROS_CHAR, "Appraising Glare", 20, warlord=True),
        ),
    ),
    Expected(
        "battlescribe-ros/necrons-10e-1205.ros",
        "battlescribe-ros",
        "Necrons 10e",
        "Necrons",
        "Awakened Dynasty",
        "Strike Force (2000 points)",
        1205,
        (
            Row("Overlord", 85, 1, ROS_CHAR),
            Row("Tesseract Vault", 425, 1, ROS_OTHER),
            Row("The Silent King", 470, 3, ROS_EPIC, warlord=True),
            Row("Doom Scythe", 225, 1, ROS_OTHER),
        ),
    ),
    Expected(
        "battlescribe-ros/ultramarines-10e-810.rosz",
        "battlescribe-rosz",
        "Ultramarines 10E",
        "Adeptus Astartes - Ultramarines",
        "Gladius Task Force",
        "Incursion (1000 points)",
        810,
        (
            Row("Outrider Squad", 105, 3, ROS_OTHER),
            Row("Assault Intercessor Squad", 80, 5, ROS_BATTLELINE),
            Row("Primaris Captain", 80, 1, ROS_CHAR, warlord=True),
            Row("Primaris Lieutenant", 75, 1, ROS_CHAR),
            Row("Assault Intercessor Squad", 80, 5, ROS_BATTLELINE),
            Row("Razorback", 100, 1, ROS_TRANSPORT),
            Row("Eliminator Squad", 75, 3, ROS_OTHER),
            Row("Lieutenant in Phobos Armour", 60, 1, ROS_CHAR),
            Row("Impulsor", 85, 1, ROS_TRANSPORT),
            Row("Land Speeder Storm", 70, 1, ROS_TRANSPORT),
        ),
    ),
    Expected(
        "battlescribe-ros/chaos-daemons-1975.ros",
        "battlescribe-ros",
        "Chaos",
        "Chaos Daemons",
        "Daemonic Incursion",
        "Incursion (1000 points)",  # as the file says, although the list is 1975 pts
        1975,
        (
            Row("Be'lakor", 325, 1, ROS_EPIC, warlord=True),
            Row("Shalaxi Helbane", 400, 1, ROS_EPIC),
            Row("Flamers", 130, 6, ROS_OTHER),
            Row("Bloodcrushers", 240, 6, ROS_OTHER),
            Row("Pink Horrors", 140, 10, ROS_BATTLELINE),
            Row("Plaguebearers", 145, 10, ROS_BATTLELINE),
            Row("Lord of Change", 255, 1, ROS_CHAR, "The Everstave", 25),
            Row("Fluxmaster", 60, 1, ROS_CHAR),
            Row("Great Unclean One", 280, 1, ROS_CHAR),
        ),
    ),
    Expected(
        "battlescribe-ros/thousand-sons-940.ros",
        "battlescribe-ros",
        "New Roster",
        "Thousand Sons",
        "Cult of Magic",
        "Strike Force (2000 points)",
        940,
        (
            Row("Ahriman", 130, 1, ROS_EPIC),
            Row("Infernal Master", 115, 1, ROS_CHAR, "Arcane Vortex", 25),
            Row("Rubric Marines", 105, 5, ROS_BATTLELINE),
            Row("Rubric Marines", 105, 5, ROS_BATTLELINE),
            Row("Tzaangor Enlightened", 45, 3, ROS_OTHER),
            Row("Magnus the Red", 440, 1, ROS_EPIC, warlord=True),
        ),
    ),
    Expected(
        "text-plain/tau-nr-full.txt",
        "newrecruit-text-full",
        "Tauuuu",
        "T'au Empire",
        "Experimental Prototype Cadre",
        "Strike Force (2000 points)",
        1985,
        _tau((FULL_EPIC, FULL_CHAR, FULL_OTHER), (None, None, None)),
    ),
    Expected(
        "text-plain/tau-nr-wtc.txt",
        "newrecruit-text-wtc",
        "",
        "T'au Empire",
        "Experimental Prototype Cadre",
        "",
        1985,
        _tau((WTC_CHAR, WTC_CHAR, WTC_OTHER), (10, 25, 20)),
    ),
    Expected(
        "text-plain/tau-nr-short.txt",
        "newrecruit-text-short",
        "",
        "",
        "",
        "",
        1985,  # no total in the file: the sum of its units
        _tau((SHORT, SHORT, SHORT), (None, None, None)),
    ),
    Expected(
        "text-plain/custodes-nr-wtc.txt",
        "newrecruit-text-wtc",
        "",
        "Adeptus Custodes",
        "Lions of the Emperor (Against All Odds)",
        "",
        1990,
        (
            Row("Blade Champion", 135, 1, WTC_CHAR, "Superior Creation", 25),
            Row("Shield-Captain on Dawneagle Jetbike", 165, 1, WTC_CHAR, "Praesidius", 25),
            Row("Valerian", 110, 1, WTC_CHAR, warlord=True),
            Row("Custodian Guard", 215, 5, WTC_OTHER),
            Row("Allarus Custodians", 340, 6, WTC_OTHER),
            Row("Allarus Custodians", 340, 6, WTC_OTHER),
            Row("Custodian Wardens", 250, 5, WTC_OTHER),
            Row("Prosecutors", 45, 4, WTC_OTHER),
            Row("Prosecutors", 45, 4, WTC_OTHER),
            Row("Vertus Praetors", 145, 2, WTC_OTHER),
            Row("Vertus Praetors", 145, 2, WTC_OTHER),
            Row("Witchseekers", 55, 5, WTC_OTHER),
        ),
    ),
)


def sample_files() -> list[Path]:
    """Every sample file under samples/ (the documentation aside)."""
    return sorted(
        path
        for path in SAMPLES.rglob("*")
        if path.is_file() and path.suffix in (".txt", ".ros", ".rosz")
    )
