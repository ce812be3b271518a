"""The demo campaign's story: three alliances, three phases, a map of Kharos and the log,
written in our own words and made through the services like everything else."""

from __future__ import annotations

from campaign import services
from campaign.maps.grid import Place, grid_map
from campaign.models import Alliance, Campaign, CrusadeForce, Phase, Territory

ALLIANCES = {
    # player -> the alliance of the sample pack (enabled by the demo) their force joins
    "alice": "Wardens of the Vell",
    "bruno": "The Besieging Host",
    "chen": "Scavenger Bands",
}
PHASES = [
    (
        "Landfall",
        "Incursion",
        "The fleets reach Kharos. Every army fights for a foothold before the storms "
        "close the skies.",
    ),
    (
        "The Siege Lines",
        "Strike Force",
        "Trenches spread around the hive walls. Every ruin is a fortress and every night "
        "brings a raid.",
    ),
    (
        "The Last Gate",
        "Onslaught",
        "When the storms return, whoever holds the gatehouse holds Kharos.",
    ),
]
# id, name, column, row, description, the alliance holding it when the fleets arrive
TERRITORIES = [
    ("landing-fields", "Landing Fields", 0, 0, "Scorched pads where the drop-ships came down.", ""),
    ("ash-wastes", "Ash Wastes", 1, 0, "Grey dunes over a buried manufactorum.", ""),
    ("signal-spire", "Signal Spire", 2, 0, "A vox tower that still calls to the fleet.", ""),
    ("northern-gate", "Northern Gate", 3, 0, "The hive's second way in, half fallen.", ""),
    ("hab-ring", "Hab Ring Sigma", 0, 1, "Empty habs, made for ambushes.", "bruno"),
    ("the-breach", "The Breach", 1, 1, "Where the wall fell in the first bombardment.", "alice"),
    ("vault-of-echoes", "Vault of Echoes", 2, 1, "A sealed archive nobody explains.", "chen"),
    ("gatehouse", "The Gatehouse", 3, 1, "The fortified heart of the hive's defences.", "alice"),
    ("promethium-docks", "Promethium Docks", 0, 2, "Fuel tanks that burn for days.", "bruno"),
    ("ruined-basilica", "Ruined Basilica", 1, 2, "A cathedral without a roof.", ""),
    ("chasm-bridge", "Chasm Bridge", 2, 2, "The one crossing over the rift, mined twice.", ""),
    ("citadel", "Citadel Kharos", 3, 2, "The governor's last fortress.", "chen"),
]


def open_the_campaign(organiser, campaign: Campaign, forces: dict[str, CrusadeForce]) -> None:
    """The organiser sets the season up (phases and the map: the alliances came with the
    sample pack), starts its first phase and writes its opening; each player picks their
    force's alliance."""
    for name, size, narrative in PHASES:
        services.define_phase(
            actor=organiser, campaign=campaign, name=name, narrative=narrative, battle_size=size
        )
    places = [
        Place(key, name, column, row, description, ALLIANCES.get(holder, ""))
        for key, name, column, row, description, holder in TERRITORIES
    ]
    services.import_map(
        actor=organiser,
        campaign=campaign,
        data=grid_map(
            places, name="Kharos Hive", description="The hive city and the wastes around its walls."
        ),
    )
    for player, force in forces.items():
        alliance = Alliance.objects.get(campaign=campaign, name=ALLIANCES[player])
        services.choose_alliance(actor=force.player, force=force, alliance=alliance)
    services.advance_phase(actor=organiser, campaign=campaign)
    services.write_log_entry(
        actor=organiser,
        campaign=campaign,
        title="The fleets arrive",
        text="Three fleets broke out of the warp within a day of each other. The *Wardens* "
        "hold the walls, the **Besieging Host** has landed at the docks, and the "
        "scavengers are already picking through the wastes.\n\nEach week: one battle, "
        "one requisition, one story. Tell yours here.",
        phase=phase(campaign, 1),
    )


def phase(campaign: Campaign, position: int) -> Phase:
    return Phase.objects.get(campaign=campaign, position=position)


def territory(campaign: Campaign, key: str) -> Territory:
    return Territory.objects.get(campaign=campaign, key=key)


def next_phase(organiser, campaign: Campaign, title: str, text: str) -> None:
    """The organiser closes the phase being played and opens the next, with a word."""
    current = services.advance_phase(actor=organiser, campaign=campaign)
    services.write_log_entry(
        actor=organiser, campaign=campaign, title=title, text=text, phase=current
    )


def tell(force: CrusadeForce, battle, title: str, text: str) -> None:
    """The force's player tells the story of ``battle`` in the campaign's log."""
    services.write_log_entry(
        actor=force.player,
        campaign=force.campaign,
        title=title,
        text=text,
        battle=battle,
        territory=battle.territory,
    )
