"""The expected parse of every shared sample: the tables of samples/SOURCES.md as data.

Each sample is a block of ``TABLES``: ``path | format | total``, then ``name | faction |
detachment | battle size`` (the name may hold ``|`` itself), then its units as in
``tests.rosters.tables``. A role is ``?`` where the file doesn't say ("(datasheet)" in
SOURCES.md, or a style that shows no roles).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.rosters.tables import Row, cells, rows_of

SAMPLES = Path(__file__).parent / "samples"

TAU = """
Commander Farsight | 95 | 1 | {epic}-
Commander Shadowsun | 100 | 1 | {epic}W
Commander in Coldstar Battlesuit | 105 | 1 | {char}- | Plasma Accelerator Rifle | {plasma}
Commander in Coldstar Battlesuit | 120 | 1 | {char}- | Fusion Blades | {blades}
Commander in Enforcer Battlesuit | 100 | 1 | {char}- | Thermoneutronic Projector | {projector}
Kroot Carnivores | 65 | 10 | {other}-
Kroot Carnivores | 65 | 10 | {other}-
Pathfinder Team | 90 | 10 | {other}-
Stealth Battlesuits | 60 | 3 | {other}-
Stealth Battlesuits | 60 | 3 | {other}-
Stealth Battlesuits | 60 | 3 | {other}-
Vespid Stingwings | 65 | 5 | {other}-
Broadside Battlesuits | 300 | 3 | {other}-
Crisis Fireknife Battlesuits | 130 | 3 | {other}-
Crisis Starscythe Battlesuits | 110 | 3 | {other}-
Crisis Sunforge Battlesuits | 150 | 3 | {other}-
Crisis Sunforge Battlesuits | 150 | 3 | {other}-
Ghostkeel Battlesuit | 160 | 1 | {other}-
"""
"""The one T'au army of SOURCES.md section 4: each New Recruit style fills in the roles it
shows for epic heroes, other characters and other units, and the Enhancement costs."""


def tau(epic: str, char: str, other: str, plasma="", blades="", projector="") -> str:
    roles = {"epic": epic, "char": char, "other": other}
    return TAU.format(**roles, plasma=plasma, blades=blades, projector=projector).strip()


# The app's sections: CHARACTERS (EPIC HERO not shown), BATTLELINE, DEDICATED TRANSPORTS,
# OTHER DATASHEETS. BattleScribe categories say everything. New Recruit's full style groups
# by primary category (characters yes, battleline not); its WTC style marks CHARACTERS with
# CharN labels, nothing else; its short style shows no roles at all.
TABLES = f"""
app-text/space-wolves-boop.txt | wh40k-app-text | 1985
Boop | Space Marines - Space Wolves | Stormlance Task Force | Strike Force (2000 points)
Bjorn the Fell-Handed | 190 | 1 | C?---
Harald Deathwolf | 85 | 1 | C?---
Lieutenant with Combi-weapon | 70 | 1 | C?---
Logan Grimnar on Stormrider | 180 | 1 | C?--W
Wolf Guard Battle Leader on Thunderwolf | 80 | 1 | C?---
Wolf Guard Battle Leader on Thunderwolf | 95 | 1 | C?--- | Portents of Wisdom
Wolf Lord on Thunderwolf | 125 | 1 | C?--- | Fury of the Storm
Gladiator Lancer | 160 | 1 | -----
Infiltrator Squad | 100 | 5 | -----
Scout Squad | 70 | 5 | -----
Thunderwolf Cavalry | 240 | 6 | -----
Thunderwolf Cavalry | 240 | 6 | -----
Thunderwolf Cavalry | 240 | 6 | -----
Vanguard Veteran Squad with Jump Packs | 110 | 5 | -----

app-text/death-guard-plague-wall-annotated.txt | wh40k-app-text | 980
Plague Wall | Death Guard | Flyblown Host | Incursion (1000 points)
Lord of Contagion | 120 | 1 | C?--W
Tallyman | 50 | 1 | C?---
Plague Marines | 130 | 7 | --B--
Plague Marines | 130 | 7 | --B--
Chaos Rhino | 85 | 1 | ---T-
Chaos Rhino | 85 | 1 | ---T-
Deathshroud Terminators | 160 | 3 | -----
Foetid Bloat-Drone with Heavy Blight Launcher | 120 | 1 | -----
Myphitic Blight-haulers | 100 | 1 | -----

app-text/astra-militarum-13th.txt | wh40k-app-text | 950  # the units listed add up to 310
13th | Astra Militarum | Combined Arms | Incursion (1000 points)
Krieg Command Squad | 65 | 3 | C?---
Lord Marshal Dreir | 100 | 1 | C?--W
Death Korps of Krieg | 145 | 20 | --B--

battlescribe-ros/votann-leviathan-965.ros | battlescribe-ros | 965
01 | LoV | Leviathan | v0102 | Leagues of Votann | Oathband | Incursion (1000 points)
Hearthkyn Warriors | 110 | 10 | --B--
Einhyr Hearthguard | 150 | 5 | -----
Hernkyn Pioneers | 90 | 3 | -----
Hekaton Land Fortress | 225 | 1 | -----
Sagitaur | 100 | 1 | ---T-
Sagitaur | 100 | 1 | ---T-
Hearthkyn Warriors | 110 | 10 | --B--
Einhyr Champion | 80 | 1 | C---W | Appraising Glare | 20

battlescribe-ros/necrons-10e-1205.ros | battlescribe-ros | 1205
Necrons 10e | Necrons | Awakened Dynasty | Strike Force (2000 points)
Overlord | 85 | 1 | C----
Tesseract Vault | 425 | 1 | -----
The Silent King | 470 | 3 | CE--W
Doom Scythe | 225 | 1 | -----

battlescribe-ros/ultramarines-10e-810.rosz | battlescribe-rosz | 810
Ultramarines 10E | Adeptus Astartes - Ultramarines | Gladius Task Force | Incursion (1000 points)
Outrider Squad | 105 | 3 | -----
Assault Intercessor Squad | 80 | 5 | --B--
Primaris Captain | 80 | 1 | C---W
Primaris Lieutenant | 75 | 1 | C----
Assault Intercessor Squad | 80 | 5 | --B--
Razorback | 100 | 1 | ---T-
Eliminator Squad | 75 | 3 | -----
Lieutenant in Phobos Armour | 60 | 1 | C----
Impulsor | 85 | 1 | ---T-
Land Speeder Storm | 70 | 1 | ---T-

battlescribe-ros/chaos-daemons-1975.ros | battlescribe-ros | 1975
# The battle size as the file says, although the list is 1975 pts.
Chaos | Chaos Daemons | Daemonic Incursion | Incursion (1000 points)
Be'lakor | 325 | 1 | CE--W
Shalaxi Helbane | 400 | 1 | CE---
Flamers | 130 | 6 | -----
Bloodcrushers | 240 | 6 | -----
Pink Horrors | 140 | 10 | --B--
Plaguebearers | 145 | 10 | --B--
Lord of Change | 255 | 1 | C---- | The Everstave | 25
Fluxmaster | 60 | 1 | C----
Great Unclean One | 280 | 1 | C----

battlescribe-ros/thousand-sons-940.ros | battlescribe-ros | 940
New Roster | Thousand Sons | Cult of Magic | Strike Force (2000 points)
Ahriman | 130 | 1 | CE---
Infernal Master | 115 | 1 | C---- | Arcane Vortex | 25
Rubric Marines | 105 | 5 | --B--
Rubric Marines | 105 | 5 | --B--
Tzaangor Enlightened | 45 | 3 | -----
Magnus the Red | 440 | 1 | CE--W

text-plain/tau-nr-full.txt | newrecruit-text-full | 1985
Tauuuu | T'au Empire | Experimental Prototype Cadre | Strike Force (2000 points)
{tau("CE??", "C-??", "--??")}

text-plain/tau-nr-wtc.txt | newrecruit-text-wtc | 1985
| T'au Empire | Experimental Prototype Cadre |
{tau("C???", "C???", "--??", "10", "25", "20")}

text-plain/tau-nr-short.txt | newrecruit-text-short | 1985  # no total: the sum of its units
| | |
{tau("????", "????", "????")}

text-plain/custodes-nr-wtc.txt | newrecruit-text-wtc | 1990
| Adeptus Custodes | Lions of the Emperor (Against All Odds) |
Blade Champion | 135 | 1 | C???- | Superior Creation | 25
Shield-Captain on Dawneagle Jetbike | 165 | 1 | C???- | Praesidius | 25
Valerian | 110 | 1 | C???W
Custodian Guard | 215 | 5 | --??-
Allarus Custodians | 340 | 6 | --??-
Allarus Custodians | 340 | 6 | --??-
Custodian Wardens | 250 | 5 | --??-
Prosecutors | 45 | 4 | --??-
Prosecutors | 45 | 4 | --??-
Vertus Praetors | 145 | 2 | --??-
Vertus Praetors | 145 | 2 | --??-
Witchseekers | 55 | 5 | --??-
"""


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


def expected_of(block: str) -> Expected:
    """One block of ``TABLES`` as an Expected."""
    lines = [line for line in (row.split("#")[0].strip() for row in block.splitlines()) if line]
    path, format, total = cells(lines[0])
    header = [cell.strip() for cell in lines[1].rsplit("|", 3)]
    return Expected(path, format, *header, int(total), rows_of("\n".join(lines[2:])))


EXPECTED = tuple(expected_of(block) for block in TABLES.strip().split("\n\n"))


def sample_files() -> list[Path]:
    """Every sample file under samples/ (the documentation aside)."""
    return sorted(
        path
        for path in SAMPLES.rglob("*")
        if path.is_file() and path.suffix in (".txt", ".ros", ".rosz")
    )
