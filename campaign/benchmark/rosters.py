"""The armies of the benchmark league, after the real army lists in shared/rosters.

Datasheets, points and model counts follow those exports (see shared/rosters/SOURCES.md);
each faction gets a few more common datasheets so that a force of 200 units still
musters legal armies (at most three units of one datasheet, six if BATTLELINE or
DEDICATED TRANSPORT). Names are made up in each faction's style.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass


def listing(text: str, sep: str = ", ") -> tuple[str, ...]:
    """A tuple from a comma-separated list, to keep long name lists compact."""
    return tuple(item.strip() for item in text.split(sep) if item.strip())


@dataclass(frozen=True)
class Datasheet:
    """One kind of unit a faction fields, as a player copies it onto a Crusade card."""

    name: str
    points: int
    models: str
    """Which models, as the army list prints them: "1 Sergeant, 4 Infiltrators"."""
    wargear: str
    table: str = ""
    """Battle Traits table (Character, Infantry, Mounted, Vehicle); empty for other units."""
    max_models: int | None = None
    character: bool = False
    epic_hero: bool = False
    battleline: bool = False
    transport: bool = False
    swarm: bool = False

    @property
    def model_count(self) -> int:
        return sum(int(part.split()[0]) for part in self.models.split(", "))

    @property
    def weapons(self) -> list[str]:
        return [w.strip() for w in self.wargear.split(",") if w.strip()]


def epic(name: str, points: int, wargear: str, *, models: str = "") -> Datasheet:
    """A named EPIC HERO (a CHARACTER that never gains XP)."""
    return Datasheet(name, points, models or f"1 {name}", wargear, character=True, epic_hero=True)


def leader(name: str, points: int, wargear: str, *, models: str = "") -> Datasheet:
    """A CHARACTER that rolls on the Character Battle Traits table."""
    return Datasheet(name, points, models or f"1 {name}", wargear, "Character", character=True)


def squad(
    name: str,
    points: int,
    models: str,
    wargear: str,
    *,
    table: str = "Infantry",
    max_models: int | None = None,
    battleline: bool = False,
    swarm: bool = False,
) -> Datasheet:
    """Infantry, cavalry or a swarm: several models, often up to a datasheet maximum."""
    return Datasheet(
        name,
        points,
        models,
        wargear,
        table,
        max_models=max_models,
        battleline=battleline,
        swarm=swarm,
    )


def vehicle(name: str, points: int, wargear: str, *, transport: bool = False) -> Datasheet:
    """One vehicle; a DEDICATED TRANSPORT may be taken six times in an army."""
    return Datasheet(name, points, f"1 {name}", wargear, "Vehicle", transport=transport)


@dataclass(frozen=True)
class Faction:
    name: str
    """The force's faction, which is also the Faction keyword its armies muster under."""
    keywords: str
    datasheets: tuple[Datasheet, ...]
    force_names: tuple[str, ...]
    """Templates for force names; `{nth}` becomes an ordinal such as 13th."""
    forenames: tuple[str, ...]
    epithets: tuple[str, ...]
    squads: tuple[str, ...]
    """Designations for squads and vehicles: "Kroot Carnivores Kappa"."""


GREEK = listing(
    "Alpha, Beta, Gamma, Delta, Epsilon, Zeta, Eta, Theta, Iota, Kappa, "
    "Lambda, Mu, Nu, Xi, Omicron, Pi, Rho, Sigma, Tau, Upsilon, Phi, Chi, "
    "Psi, Omega"
)
LATIN = listing(
    "Primus, Secundus, Tertius, Quartus, Quintus, Sextus, Septimus, Octavus, "
    "Nonus, Decimus, Undecimus, Duodecimus"
)
PLAGUES = listing(
    "of the Seventh Rot, of the Weeping Sore, of the Bloated Tithe, "
    "of the Last Gasp, of the Rust Choir, of the Glutted Maw, "
    "of the Slow Death, of the Festering Gate"
)
SEPTS = listing("of Vior'la, of Dal'yth, of Sa'cea, of Bork'an, of Fal'shia, of T'au")

SPACE_WOLVES = Faction(
    name="Adeptus Astartes",
    keywords="Imperium, Adeptus Astartes, Space Wolves",
    datasheets=(
        epic(
            "Logan Grimnar on Stormrider",
            180,
            "The Axe Morkai, storm bolter",
            models="1 Logan Grimnar",
        ),
        epic("Bjorn the Fell-Handed", 190, "Trueclaw, assault cannon", models="1 Bjorn"),
        leader("Wolf Lord on Thunderwolf", 125, "Twin lightning claws", models="1 Wolf Lord"),
        leader(
            "Wolf Guard Battle Leader on Thunderwolf",
            80,
            "Frost sword, storm shield",
            models="1 Battle Leader",
        ),
        leader(
            "Lieutenant with Combi-weapon",
            70,
            "Combi-weapon, paired combat blades",
            models="1 Lieutenant",
        ),
        squad(
            "Grey Hunters",
            180,
            "1 Pack Leader, 9 Grey Hunters",
            "Boltguns, plasma gun, power weapon",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Infiltrator Squad",
            100,
            "1 Sergeant, 4 Infiltrators",
            "Marksman bolt carbines, helix gauntlet",
            max_models=10,
        ),
        squad("Scout Squad", 70, "1 Sergeant, 4 Scouts", "Boltguns, heavy bolter", max_models=10),
        squad(
            "Vanguard Veteran Squad with Jump Packs",
            110,
            "1 Sergeant, 4 Veterans",
            "Chainswords, heavy bolt pistols",
            max_models=10,
        ),
        squad(
            "Thunderwolf Cavalry",
            240,
            "1 Pack Leader, 5 Thunderwolf Cavalry",
            "Bolt pistols, Crushing teeth and claws",
            table="Mounted",
            max_models=6,
        ),
        vehicle(
            "Gladiator Lancer", 160, "Lancer laser destroyer, Icarus rocket pod, storm bolters"
        ),
        vehicle("Rhino", 75, "Storm bolter, hunter-killer missile", transport=True),
    ),
    force_names=listing(
        "The Stormlance of Fenris, Great Company {nth}, The {nth} Wolfblade, "
        "The Frostfang Hunt {nth}"
    ),
    forenames=listing("Ragnar, Hrolf, Egil, Sven, Ulfar, Torvald, Krom, Harald, Ivar, Gunnar"),
    epithets=listing(
        "Frostmane, Stormcaller, Ironhowl, Redmaw, Grimbrow, Wyrmslayer, Longfang, Ashpelt"
    ),
    squads=GREEK,
)

DEATH_GUARD = Faction(
    name="Death Guard",
    keywords="Chaos, Heretic Astartes, Death Guard",
    datasheets=(
        epic("Typhus", 80, "Master-crafted manreaper"),
        leader("Lord of Contagion", 120, "Plaguereaper"),
        leader("Tallyman", 50, "Plasma pistol"),
        leader("Malignant Plaguecaster", 65, "Corrupted staff, bolt pistol"),
        squad(
            "Plague Marines",
            130,
            "1 Plague Champion, 6 Plague Marines",
            "Boltguns, plague spewer, bubotic weapons",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Poxwalkers", 50, "10 Poxwalkers", "Improvised weapons", max_models=20, battleline=True
        ),
        squad(
            "Deathshroud Terminators",
            160,
            "1 Deathshroud Champion, 2 Deathshroud Terminators",
            "Manreapers, plaguespurt gauntlets",
            max_models=6,
        ),
        squad(
            "Blightlord Terminators",
            165,
            "1 Blightlord Champion, 4 Blightlords",
            "Combi-bolters, bubotic blades",
            max_models=10,
        ),
        squad(
            "Foetid Bloat-Drone with Heavy Blight Launcher",
            120,
            "1 Foetid Bloat-Drone",
            "Heavy blight launcher, plaguespitters",
            table="Vehicle",
        ),
        squad(
            "Myphitic Blight-haulers",
            100,
            "1 Myphitic Blight-hauler",
            "Bile spurt, gnashing maw, multi-melta",
            table="Vehicle",
        ),
        vehicle("Chaos Rhino", 85, "Combi-bolter, havoc launcher", transport=True),
        vehicle("Plagueburst Crawler", 180, "Plagueburst mortar, entropy cannons"),
    ),
    force_names=listing(
        "The Plague Wall, Plague Company {nth}, The {nth} Blightbringers, Host of the {nth} Pox"
    ),
    forenames=listing(
        "Gurgax, Morbus, Vorrn, Felthius, Scabrax, Oozok, Mulgrath, Pustus, Grulgor, Vomitrax"
    ),
    epithets=listing(
        "the Bloated, the Unclean, Rotheart, the Weeping, Gutspill, "
        "the Thrice-Blessed, Maggotkin, the Patient"
    ),
    squads=PLAGUES,
)

ASTRA_MILITARUM = Faction(
    name="Astra Militarum",
    keywords="Imperium, Astra Militarum",
    datasheets=(
        epic("Lord Marshal Dreir", 100, "Laspistol, Sabre of Sacrifice", models="1 Lord Marshal"),
        leader(
            "Krieg Command Squad",
            65,
            "Plasma pistols, power fist, chainsword",
            models="1 Lord Commissar, 2 Veteran Guardsmen",
        ),
        leader("Cadian Castellan", 45, "Laspistol, chainsword", models="1 Castellan"),
        leader("Commissar", 30, "Bolt pistol, power weapon"),
        squad(
            "Death Korps of Krieg",
            145,
            "2 Watchmasters, 18 Troopers",
            "Lasguns, long-las, chainswords",
            max_models=20,
            battleline=True,
        ),
        squad(
            "Krieg Heavy Weapons Squad",
            60,
            "3 Krieg Heavy Weapons Gunners",
            "Heavy bolters, lascannon",
            max_models=3,
        ),
        squad(
            "Death Riders",
            70,
            "1 Ridemaster, 4 Death Riders",
            "Death Rider lascarbines, power lances",
            table="Mounted",
            max_models=10,
        ),
        vehicle("Chimera", 85, "Multi-laser, heavy bolter, lasgun arrays", transport=True),
        squad(
            "Leman Russ Battle Tank",
            170,
            "1 Leman Russ",
            "Battle cannon, lascannon, heavy bolters",
            table="Vehicle",
        ),
        vehicle("Hellhound", 125, "Inferno cannon, heavy flamer"),
        vehicle("Basilisk", 140, "Earthshaker cannon, heavy bolter"),
    ),
    force_names=listing(
        "Krieg {nth} Siege Regiment, Cadian {nth} Armoured, {nth} Kharos Rifles, "
        "Krieg {nth} Grenadiers"
    ),
    forenames=listing(
        "Dreir, Voss, Hallam, Kessler, Orlov, Straken, Mordecai, Tarsk, Gaunt, Ibram"
    ),
    epithets=listing(
        "of the Siege Lines, Ironjaw, the Unbowed, Greyvale, of Hill 413, "
        "the Stoic, Duskfall, Ashburn"
    ),
    squads=GREEK,
)

VOTANN = Faction(
    name="Leagues of Votann",
    keywords="Leagues of Votann",
    datasheets=(
        leader("Kahl", 75, "Mass hammer, autoch-pattern combi-bolter"),
        leader("Einhyr Champion", 60, "Mass hammer, autoch-pattern combi-bolter"),
        leader(
            "Brokhyr Iron-master",
            65,
            "Graviton rifle, gravitic hammer",
            models="1 Iron-master, 1 E-COG, 2 Ironkin Steeljacks",
        ),
        squad(
            "Hearthkyn Warriors",
            110,
            "1 Theyn, 9 Hearthkyn Warriors",
            "Autoch-pattern bolters, ion blaster, HYLas beam cannon",
            max_models=20,
            battleline=True,
        ),
        squad(
            "Einhyr Hearthguard",
            150,
            "1 Hesyr, 4 Einhyr Hearthguard",
            "Volkanite disintegrators, concussion gauntlets",
            max_models=10,
        ),
        squad(
            "Cthonian Beserks",
            100,
            "1 Cthonian Beserk, 4 Beserks",
            "Concussion mauls, heavy plasma axes",
            max_models=10,
        ),
        squad(
            "Hernkyn Pioneers",
            90,
            "3 Hernkyn Pioneers",
            "Bolt revolvers, magna-coil autocannon",
            table="Mounted",
            max_models=6,
        ),
        vehicle("Sagitaur", 100, "L7 missile launcher, twin bolt cannon", transport=True),
        vehicle("Hekaton Land Fortress", 225, "Cyclic ion cannon, SP heavy conversion beamer"),
        squad(
            "Hernkyn Yaegirs",
            80,
            "1 Theyn, 9 Yaegirs",
            "Bolt revolvers, plasma knives",
            max_models=10,
        ),
    ),
    force_names=listing(
        "The Ironhold Oathband {nth}, Kindred of the {nth} Hold, "
        "The Grimnyr Prospect {nth}, Leviathan Oathband {nth}"
    ),
    forenames=listing("Uthar, Brakka, Hulda, Grenn, Olgrim, Thrund, Vora, Kegrin, Sigrun, Dromm"),
    epithets=listing(
        "Ironbeard, Voidborn, Grudgekeeper, Deepdelver, Coalhand, Oathsworn, Stoneback, Brightforge"
    ),
    squads=GREEK,
)

NECRONS = Faction(
    name="Necrons",
    keywords="Necrons",
    datasheets=(
        epic(
            "The Silent King",
            470,
            "Staff of Stars, Sceptre of Eternal Glory",
            models="1 Szarekh, 2 Triarchal Menhirs",
        ),
        epic(
            "Imotekh the Stormlord",
            100,
            "Staff of the Destroyer, Gauntlet of Fire",
            models="1 Imotekh",
        ),
        leader("Overlord", 85, "Voidscythe, resurrection orb"),
        leader("Royal Warden", 50, "Relic gauss blaster"),
        leader("Technomancer", 80, "Staff of light, canoptek cloak"),
        squad(
            "Necron Warriors",
            90,
            "10 Necron Warriors",
            "Gauss reapers",
            max_models=20,
            battleline=True,
        ),
        squad("Immortals", 70, "5 Immortals", "Gauss blasters", max_models=10, battleline=True),
        squad("Lychguard", 85, "5 Lychguard", "Warscythes", max_models=10),
        squad(
            "Skorpekh Destroyers",
            90,
            "3 Skorpekh Destroyers",
            "Skorpekh hyperphase weapons",
            max_models=6,
        ),
        squad(
            "Canoptek Scarab Swarms",
            40,
            "3 Canoptek Scarab Swarms",
            "Feeder mandibles",
            table="",
            max_models=6,
            swarm=True,
        ),
        vehicle("Doom Scythe", 225, "Death ray, tesla destructor"),
        vehicle("Tesseract Vault", 425, "Tesla spheres, powers of the C'tan"),
        vehicle("Ghost Ark", 115, "Gauss flayer arrays", transport=True),
    ),
    force_names=listing(
        "The Awakened Dynasty {nth}, Szarekhan Legion {nth}, "
        "The {nth} Crownworld Phalanx, Sautekh Host {nth}"
    ),
    forenames=listing(
        "Anrakyr, Oltyx, Zahndrekh, Nemesor Khepra, Vargard Sethek, Ankhep, "
        "Trazyn, Phaeron Amenhet, Thutmek, Sekhmet"
    ),
    epithets=listing(
        "the Undying, the Eternal, of Gidrim, the Unbroken, of the Silver Crown, "
        "the Patient, of Mandragora, the Gilded"
    ),
    squads=GREEK,
)

ULTRAMARINES = Faction(
    name="Adeptus Astartes",
    keywords="Imperium, Adeptus Astartes, Ultramarines",
    datasheets=(
        epic(
            "Marneus Calgar",
            200,
            "Gauntlets of Ultramar",
            models="1 Marneus Calgar, 2 Victrix Honour Guard",
        ),
        leader("Primaris Captain", 80, "Master-crafted bolt rifle, power fist", models="1 Captain"),
        leader("Primaris Lieutenant", 75, "Master-crafted auto bolt rifle", models="1 Lieutenant"),
        leader(
            "Lieutenant in Phobos Armour",
            60,
            "Master-crafted occulus bolt carbine, paired combat blades",
            models="1 Lieutenant",
        ),
        leader("Chaplain", 60, "Crozius arcanum, absolvor bolt pistol"),
        squad(
            "Intercessor Squad",
            80,
            "1 Sergeant, 4 Intercessors",
            "Bolt rifles, astartes grenade launcher",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Assault Intercessor Squad",
            80,
            "1 Sergeant, 4 Assault Intercessors",
            "Heavy bolt pistols, astartes chainswords",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Eliminator Squad", 75, "1 Sergeant, 2 Eliminators", "Bolt sniper rifles", max_models=3
        ),
        squad(
            "Hellblaster Squad",
            110,
            "1 Sergeant, 4 Hellblasters",
            "Plasma incinerators",
            max_models=10,
        ),
        squad(
            "Outrider Squad",
            105,
            "1 Sergeant, 2 Outriders",
            "Twin bolt rifles, astartes chainswords",
            table="Mounted",
            max_models=6,
        ),
        vehicle("Razorback", 100, "Twin heavy bolter, storm bolter", transport=True),
        vehicle("Impulsor", 85, "Bellicatus missile array, storm bolters", transport=True),
        vehicle("Land Speeder Storm", 70, "Heavy bolter, cerberus launcher", transport=True),
        vehicle("Redemptor Dreadnought", 210, "Macro plasma incinerator, onslaught gatling cannon"),
    ),
    force_names=listing(
        "{nth} Company, Ultramarines; The Macragge {nth} Battle Group; "
        "Gladius Task Force {nth}; The Vigil of Ultramar {nth}",
        sep="; ",
    ),
    forenames=listing(
        "Varro, Cato, Titus, Severus, Aquilo, Sicarius, Decimus, Orar, Fabian, Acheran"
    ),
    epithets=listing(
        "Tigurius, of Macragge, of Calth, Helveticus, of Talassar, "
        "the Steadfast, Agemman, of Espandor"
    ),
    squads=LATIN,
)

CHAOS_DAEMONS = Faction(
    name="Chaos Daemons",
    keywords="Chaos, Chaos Daemons, Legiones Daemonica",
    datasheets=(
        epic("Be'lakor", 325, "Blade of Shadows"),
        epic("Shalaxi Helbane", 400, "Living whip, soulpiercer"),
        leader("Lord of Change", 230, "Rod of sorcery, staff of Tzeentch"),
        leader("Great Unclean One", 280, "Bilesword, plague flail"),
        leader("Fluxmaster", 60, "Staff of change"),
        leader("Bloodmaster", 60, "Blade of blood"),
        squad(
            "Pink Horrors",
            140,
            "10 Pink Horrors",
            "Coruscating flames, grasping hands",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Plaguebearers", 145, "10 Plaguebearers", "Plaguswords", max_models=10, battleline=True
        ),
        squad("Bloodletters", 110, "10 Bloodletters", "Hellblades", max_models=10, battleline=True),
        squad(
            "Daemonettes", 110, "10 Daemonettes", "Piercing claws", max_models=10, battleline=True
        ),
        squad("Flamers", 130, "6 Flamers", "Flickering flames, flamer mouths", max_models=6),
        squad(
            "Bloodcrushers",
            240,
            "6 Bloodcrushers",
            "Hellblades, juggernaut's bladed horn",
            table="Mounted",
            max_models=6,
        ),
        squad(
            "Nurglings",
            40,
            "3 Nurgling Swarms",
            "Diseased claws and teeth",
            table="",
            max_models=9,
            swarm=True,
        ),
    ),
    force_names=listing(
        "The Daemonic Incursion {nth}, The {nth} Warp Breach, "
        "Legion of the {nth} Rift, The Shadow Host {nth}"
    ),
    forenames=listing(
        "Kairos, Skarbrand, Zarakyn, Ku'gath, Rotigus, Epidemius, Kha'rak, "
        "Slaakesh, Vexator, Mordrax"
    ),
    epithets=listing(
        "the Many-Eyed, Soulflayer, the Rotten, the Everchanging, Bloodsworn, "
        "of the Crystal Labyrinth, the Hungering, Fateweaver"
    ),
    squads=GREEK,
)

THOUSAND_SONS = Faction(
    name="Thousand Sons",
    keywords="Chaos, Heretic Astartes, Thousand Sons",
    datasheets=(
        epic("Magnus the Red", 440, "The Blade of Magnus"),
        epic("Ahriman", 130, "Black staff of Ahriman, inferno bolt pistol"),
        leader("Infernal Master", 90, "Force weapon, warpflame pistol"),
        leader("Exalted Sorcerer", 80, "Force stave, plasma pistol"),
        leader(
            "Sorcerer in Terminator Armour",
            80,
            "Force stave, inferno combi-bolter",
            models="1 Sorcerer",
        ),
        squad(
            "Rubric Marines",
            105,
            "1 Aspiring Sorcerer, 4 Rubric Marines",
            "Inferno boltguns, warpflamer",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Tzaangors",
            65,
            "1 Twistbray, 9 Tzaangors",
            "Tzaangor blades",
            max_models=20,
            battleline=True,
        ),
        squad(
            "Tzaangor Enlightened",
            45,
            "1 Aviarch, 2 Tzaangor Enlightened",
            "Divining spears",
            table="Mounted",
            max_models=6,
        ),
        squad(
            "Scarab Occult Terminators",
            185,
            "1 Scarab Occult Sorcerer, 4 Terminators",
            "Inferno combi-bolters, hellfyre missile rack",
            max_models=10,
        ),
        vehicle("Chaos Rhino", 85, "Combi-bolter, havoc launcher", transport=True),
        vehicle("Mutalith Vortex Beast", 150, "Betentacled maw, warp vortex"),
    ),
    force_names=listing(
        "The Cult of Magic {nth}, The {nth} Cabal of Prospero, "
        "Warpsmith Coven {nth}, The Silver Towers {nth}"
    ),
    forenames=listing(
        "Amon, Phosis, Hathor, Sobek, Ankhu, Tolbek, Menkaura, Ahzek, Thothmes, Kallista"
    ),
    epithets=listing(
        "of the Corvidae, of the Pyrae, the Blind, Tzeentch-touched, "
        "of the Raptora, the Dust-bound, Starseer, of the Pavoni"
    ),
    squads=LATIN,
)

TAU = Faction(
    name="T'au Empire",
    keywords="T'au Empire",
    datasheets=(
        epic("Commander Farsight", 95, "Dawn Blade, high-intensity plasma rifle"),
        epic("Commander Shadowsun", 100, "Flechette launcher, high-energy fusion blasters"),
        leader(
            "Commander in Coldstar Battlesuit",
            95,
            "High-output burst cannon, missile pod",
            models="1 Commander",
        ),
        leader(
            "Commander in Enforcer Battlesuit",
            80,
            "Cyclic ion blasters, fusion blaster",
            models="1 Commander",
        ),
        leader("Cadre Fireblade", 50, "Fireblade pulse rifle"),
        leader("Ethereal", 50, "Honour stave"),
        squad(
            "Strike Team",
            75,
            "1 Shas'ui, 9 Fire Warriors",
            "Pulse rifles, guardian drone",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Breacher Team",
            90,
            "1 Shas'ui, 9 Breachers",
            "Pulse blasters",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Kroot Carnivores",
            65,
            "1 Long-quill, 9 Kroot Carnivores",
            "Kroot rifles, tanglebomb launcher",
            max_models=20,
        ),
        squad(
            "Pathfinder Team",
            90,
            "1 Shas'ui, 9 Pathfinders",
            "Pulse carbines, ion rifle, rail rifle",
            max_models=10,
        ),
        squad(
            "Stealth Battlesuits",
            60,
            "1 Shas'vre, 2 Stealth Shas'ui",
            "Burst cannons, fusion blaster",
            max_models=6,
        ),
        squad(
            "Vespid Stingwings",
            65,
            "1 Strain Leader, 4 Vespid Stingwings",
            "Neutron blasters",
            max_models=10,
        ),
        squad(
            "Crisis Sunforge Battlesuits",
            150,
            "1 Shas'vre, 2 Shas'ui",
            "Fusion blasters, flamers",
            max_models=6,
        ),
        squad(
            "Ghostkeel Battlesuit",
            160,
            "1 Ghostkeel",
            "Cyclic ion raker, fusion collider",
            table="Vehicle",
        ),
        vehicle("Devilfish", 85, "Accelerator burst cannon, seeker missiles", transport=True),
    ),
    force_names=listing(
        "The Experimental Prototype Cadre {nth}, "
        "Farsight Enclave Contingent {nth}, The {nth} Sphere Expansion, "
        "Hunter Cadre {nth}"
    ),
    forenames=listing(
        "Shas'o Kais, Shas'el Vior'la Tash, Shas'vre Ob'lotai, Shas'o R'myr, "
        "Aun'va Kor, Shas'el Dal'yth Ko, Por'o Kelshan, Shas'o Sha'vastos, "
        "Shas'vre Kauyon, Aun'el Tsua'm"
    ),
    epithets=SEPTS,
    squads=GREEK,
)

CUSTODES = Faction(
    name="Adeptus Custodes",
    keywords="Imperium, Adeptus Custodes",
    datasheets=(
        epic("Valerian", 110, "Gnosis"),
        epic("Trajann Valoris", 140, "Watcher's Axe, Eagle's Scream"),
        leader("Blade Champion", 110, "Vaultswords"),
        leader("Shield-Captain", 120, "Guardian spear"),
        leader(
            "Shield-Captain on Dawneagle Jetbike",
            140,
            "Interceptor lance, salvo launcher",
            models="1 Shield-Captain",
        ),
        squad(
            "Custodian Guard",
            215,
            "5 Custodian Guard",
            "Guardian spears",
            max_models=5,
            battleline=True,
        ),
        squad(
            "Prosecutors",
            45,
            "1 Sister Superior, 3 Prosecutors",
            "Boltguns",
            max_models=10,
            battleline=True,
        ),
        squad(
            "Witchseekers",
            55,
            "1 Sister Superior, 4 Witchseekers",
            "Witchseeker flamers",
            max_models=10,
        ),
        squad(
            "Custodian Wardens", 250, "5 Custodian Wardens", "Castellan axes, vexilla", max_models=5
        ),
        squad(
            "Allarus Custodians",
            340,
            "6 Allarus Custodians",
            "Castellan axes, balistus grenade launchers",
            max_models=6,
        ),
        squad(
            "Vertus Praetors",
            145,
            "2 Vertus Praetors",
            "Interceptor lances, salvo launchers",
            table="Mounted",
            max_models=3,
        ),
        vehicle("Caladius Grav-tank", 215, "Twin iliastus accelerator cannon"),
    ),
    force_names=listing(
        "Shield Host of the Vigil {nth}, The Lions of the Emperor {nth}, "
        "The {nth} Aquilan Shield, Solar Watch {nth}"
    ),
    forenames=listing(
        "Aurelian, Tribune Vaelus, Ixion, Heraklon, Amon Tauromachian, Orthus, "
        "Kaelos, Vorsus, Galatan, Lyros"
    ),
    epithets=listing(
        "Hadrianus, of the Dread Host, Stormborn, Auramagma, of the Emissaries, "
        "Karios, the Unmoved, of the Solar Watch"
    ),
    squads=LATIN,
)

FACTIONS: tuple[Faction, ...] = (
    SPACE_WOLVES,
    DEATH_GUARD,
    ASTRA_MILITARUM,
    VOTANN,
    NECRONS,
    ULTRAMARINES,
    CHAOS_DAEMONS,
    THOUSAND_SONS,
    TAU,
    CUSTODES,
)

PLAYER_NAMES = listing(
    "alice, bruno, chen, dara, emeka, farah, gunnar, hana, ines, jonas, "
    "kofi, lena, mateo, nadia, oskar, priya, quinn, rosa, sven, tariq, uma, "
    "viktor, wren, xiu, yusuf, zoe"
)

MISSIONS = listing(
    "Take and Hold, Purge the Foe, Supply Drop, Scorched Earth, The Ritual, "
    "Sites of Power, Vital Ground, Linchpin, Hidden Supplies, "
    "Burden of Trust, Priority Targets, Deploy Servo-skulls"
)

AGENDAS = listing(
    "Agenda: Cull the Horde, Agenda: Recon Sweep, Agenda: Monster Hunters, "
    "Agenda: Behind Enemy Lines, Agenda: Headhunter"
)


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def roman(number: int) -> str:
    """Small Roman numerals for repeated names: 2 -> II, 14 -> XIV."""
    numerals = [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for value, letters in numerals:
        while number >= value:
            out += letters
            number -= value
    return out


class UnitNamer:
    """Unit names for one force, unique within it, in the faction's style.

    EPIC HEROES keep their own name, other CHARACTERS get a forename and epithet, and
    squads and vehicles their datasheet and a designation: "Plague Marines of the
    Seventh Rot", "Intercessor Squad Tertius", "Stealth Battlesuits Kappa II".
    """

    def __init__(self, faction: Faction, rng: random.Random) -> None:
        self.faction = faction
        heroes = [f"{first} {last}" for first in faction.forenames for last in faction.epithets]
        rng.shuffle(heroes)
        self._heroes = heroes
        self._used: Counter[str] = Counter()

    def name(self, sheet: Datasheet) -> str:
        if sheet.epic_hero:
            return sheet.name
        if sheet.character:
            count = self._used["character"]
            self._used["character"] += 1
            base = self._heroes[count % len(self._heroes)]
            laps = count // len(self._heroes)
            return base if laps == 0 else f"{base} {roman(laps + 1)}"
        count = self._used[sheet.name]
        self._used[sheet.name] += 1
        designations = self.faction.squads
        designation = designations[count % len(designations)]
        laps = count // len(designations)
        return f"{sheet.name} {designation}" + ("" if laps == 0 else f" {roman(laps + 1)}")


def force_composition(faction: Faction, units: int, rng: random.Random) -> list[Datasheet]:
    """The datasheets of a force of `units` units: every datasheet in turn, shuffled.

    Each EPIC HERO appears at most once (it is a named individual); every round
    through the list brings its CHARACTERS, so every army has a Warlord to pick.
    """
    chosen: list[Datasheet] = []
    first_round = True
    while len(chosen) < units:
        sheets = [s for s in faction.datasheets if first_round or not s.epic_hero]
        rng.shuffle(sheets)
        chosen.extend(sheets[: units - len(chosen)])
        first_round = False
    return chosen
