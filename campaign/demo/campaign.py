"""The demo campaign's season, played through the services: the players join, raise their
forces, fight, requisition and settle their promotions."""

from __future__ import annotations

import dataclasses
import datetime
import random

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from campaign import rules, services
from campaign.models import (
    Battle,
    Campaign,
    CrusadeForce,
    CustomContent,
    Membership,
    OutOfActionTest,
    Unit,
)
from campaign.packs import SAMPLE_PACK
from campaign.services import blessings
from campaign.services.scripted import start_and_muster

from . import story
from .cards import FACTION_KEYWORDS, FORCES, Card

DEMO_CAMPAIGN = "The Vigil of Kharos"


def _card(force: CrusadeForce, card: Card) -> Unit:
    values = dataclasses.asdict(card)
    body = values.pop("body")
    keywords = {f"is_{body}": True} if body else {}
    unit = services.NewUnit(**values, **keywords, faction_keywords=FACTION_KEYWORDS[force.faction])
    return services.add_unit(actor=force.player, force=force, unit=unit)


def _fight(
    players: list[tuple[CrusadeForce, list[Unit], str]],
    *,
    size: str = "Incursion",
    mission: str = "",
    outcomes: dict[str, services.UnitOutcome] | None = None,
    rolls: dict[str, int] | None = None,
    finish: bool = True,
    weeks_ago: int = 0,
    agendas: dict[CrusadeForce, list[str]] | None = None,
    achieved: dict[str, dict[str, int]] | None = None,
    territory: str = "",
) -> Battle:
    """Start a battle ``weeks_ago`` weeks back (a battle a week, as the campaign says), each
    opponent accepts, each side musters (picking the Agendas ``agendas`` names for its
    force) and (optionally) records, with the Agendas ``achieved`` by unit name (Agenda
    name -> times); Out of Action rolls by unit name. ``territory`` is the key of the
    territory of the map fought over, if any."""
    starter, _, _ = players[0]
    offered = {a.name: a for a in _offered(starter.campaign, CustomContent.Kind.AGENDA)}
    battle = start_and_muster(
        armies=[(force, army) for force, army, _ in players],
        battle_size=size,
        mission=mission,
        campaign=starter.campaign,
        date=timezone.localdate() - datetime.timedelta(weeks=weeks_ago),
        agendas={
            force.pk: [offered[name] for name in names] for force, names in (agendas or {}).items()
        },
        territory=story.territory(starter.campaign, territory) if territory else None,
    )
    sides = {p.force_id: p.pk for p in battle.participants.all()}
    results = {sides[force.pk]: result for force, _, result in players}
    if not finish:
        return battle
    outcomes = dict(outcomes or {})
    for name, marks in (achieved or {}).items():
        marked = tuple((offered[agenda].pk, times) for agenda, times in marks.items())
        outcomes[name] = dataclasses.replace(
            outcomes.get(name, services.UnitOutcome()), agendas=marked
        )
    entries = {e.unit.name: e.pk for p in battle.participants.all() for e in p.army.all()}
    services.record_battle_end(
        battle=battle,
        results=results,
        outcomes={entries[name]: outcome for name, outcome in outcomes.items()},
    )
    for test in OutOfActionTest.objects.filter(
        battle_unit__participant__battle=battle, status=OutOfActionTest.Status.PENDING
    ):
        player = test.unit.force.player
        test = services.take_out_of_action_test(
            actor=player, test=test, roll=(rolls or {}).get(test.unit.name, 4)
        )
        if test.status == OutOfActionTest.Status.AWAITING_CHOICE:
            services.resolve_out_of_action(
                actor=player, test=test, choice="battle_scar", rng=random.Random(test.pk)
            )
    return battle


def _offered(campaign: Campaign, kind: str) -> list[CustomContent]:
    return list(CustomContent.objects.available().enabled_in(campaign.pk).filter(kind=kind))


def _underdog_blesses(battle: Battle) -> None:
    """The underdog's player picks as many Crusade Blessings as its gap gives (the first
    ones the packs list), before either side records."""
    sides = list(
        battle.participants.select_related("force").prefetch_related(
            Prefetch("army", queryset=blessings.army_queryset())
        )
    )
    places = blessings.underdogs(sides, blessings.campaign_thresholds(battle.campaign_id))
    offered = _offered(battle.campaign, CustomContent.Kind.BLESSING)
    for side in sides:
        place = places.get(side.pk)
        if place is not None and place.is_underdog and place.allowed:
            services.pick_blessings(
                actor=side.force.player, participant=side, blessings=offered[: place.allowed]
            )


def _settle(unit: Unit, how: str, **kwargs) -> None:
    unit.refresh_from_db()
    for promotion in unit.promotions.filter(status="pending"):
        actor = unit.force.player
        if how == "trait":
            services.settle_with_battle_trait(actor=actor, promotion=promotion, **kwargs)
        elif how == "weapon":
            services.settle_with_weapon_modification(actor=actor, promotion=promotion, **kwargs)
        else:
            services.settle_with_crusade_relic(actor=actor, promotion=promotion, **kwargs)


def _trait(table: rules.TraitTable, *, roll: int) -> dict:
    """The trait a D6 ``roll`` gives on ``table``, as the settle service takes it."""
    return {"table": table, "trait": rules.BATTLE_TRAIT_TABLES[table][roll][0]}


def _relic(category: rules.RelicCategory, number: int) -> str:
    """The ``number``-th relic of ``category`` in the rulebook's list."""
    names = [name for name, (cat, _) in rules.CRUSADE_RELICS.items() if cat is category]
    return names[number - 1]


def _seasoned(organiser, unit: Unit, xp: int) -> Unit:
    return services.correct_unit(
        actor=organiser,
        unit=unit,
        reason="Carried over from the campaign's paper records",
        xp=xp,
    )


@transaction.atomic
def build_demo_campaign(users: dict) -> Campaign:
    """Organiser, three players, units at every rank, honours, scars, battles."""
    existing = Campaign.objects.filter(name=DEMO_CAMPAIGN).first()
    if existing is not None:
        return existing
    organiser = users["organiser"]
    campaign = services.create_campaign(
        actor=organiser,
        name=DEMO_CAMPAIGN,
        description="A siege-world campaign for three players. Each week: one battle, "
        "one requisition, one story.",
    )
    services.import_pack(actor=organiser, data=SAMPLE_PACK.read_bytes(), campaign=campaign)
    services.add_custom_content(
        actor=organiser,
        campaign=campaign,
        kind=CustomContent.Kind.BATTLE_TRAIT,
        name="Breach Veterans",
        trait_table="infantry",
        effect="Re-roll Charge rolls against units in ruins.",
    )
    services.add_custom_content(
        actor=organiser,
        campaign=campaign,
        kind=CustomContent.Kind.BATTLE_SCAR,
        name="Shell-shocked",
        effect="Cannot use Overwatch.",
    )
    forces: dict[str, CrusadeForce] = {}
    units: dict[str, Unit] = {}
    for username, (name, faction, goals, cards) in FORCES.items():
        player = users[username]
        services.join_campaign(
            actor=player, user=player, campaign=campaign, role=Membership.Role.PLAYER
        )
        details = {"name": name, "faction": faction, "goals": goals}
        force = services.create_force(actor=player, player=player, campaign=campaign, **details)
        forces[username] = force
        for card in cards:
            units[card.name] = _card(force, card)

    # The season's alliances, phases and map; the first phase begins.
    story.open_the_campaign(organiser, campaign, forces)

    # A newcomer invited to join: she says yes or no on her own dashboard.
    if "dana" in users:
        services.invite_to_campaign(
            actor=organiser, user=users["dana"], campaign=campaign, role=Membership.Role.PLAYER
        )

    # Veterans carried over from paper: one step short of their next rank.
    _seasoned(organiser, units["Lord Marshal Dreir"], 49)
    _seasoned(organiser, units["Aurelian the Blade"], 29)
    _seasoned(organiser, units["Ragnar Frostmane"], 14)
    _seasoned(organiser, units["Siege Company Kappa"], 5)

    alice, bruno, chen = forces["alice"], forces["bruno"], forces["chen"]
    u = units
    outcome = services.UnitOutcome
    # 1. Krieg hold the breach against the Wolves.
    breach = _fight(
        [
            (alice, [u["Lord Marshal Dreir"], u["Siege Company Kappa"]], "win"),
            (bruno, [u["Ragnar Frostmane"], u["Shadow Pack"]], "loss"),
        ],
        mission="Hold the Breach",
        agendas={alice: ["Hold the Beacon", "Trophy Takers"], bruno: ["Scout the Ruins"]},
        achieved={
            "Siege Company Kappa": {"Hold the Beacon": 1},
            "Lord Marshal Dreir": {"Trophy Takers": 1},
            "Ragnar Frostmane": {"Scout the Ruins": 1},
        },
        outcomes={
            "Lord Marshal Dreir": outcome(enemy_units_destroyed=1, marked_for_greatness=True),
            "Siege Company Kappa": outcome(enemy_units_destroyed=1),
            "Shadow Pack": outcome(destroyed=True),
            "Ragnar Frostmane": outcome(enemy_units_destroyed=1),
        },
        rolls={"Shadow Pack": 1},
        weeks_ago=5,
        territory="the-breach",
    )
    story.tell(
        alice,
        breach,
        "The breach holds",
        "Dreir walked the line all night. When the Wolves came out of the smoke, the "
        "second trench was waiting for them.\n\n**The breach is still ours.**",
    )
    _settle(u["Lord Marshal Dreir"], "relic", relic=_relic(rules.RelicCategory.LEGENDARY, 2))
    _settle(u["Siege Company Kappa"], "trait", **_trait(rules.TraitTable.INFANTRY, roll=3))
    _settle(
        u["Ragnar Frostmane"],
        "weapon",
        model_name="Ragnar Frostmane",
        weapon="Twin lightning claws",
        modifications=(rules.WEAPON_MODIFICATIONS[4], rules.WEAPON_MODIFICATIONS[5]),
    )

    # 2-5. The Custodes' vault raids: the Prosecutors are ground down and lost.
    for number, result in enumerate(["win", "loss", "draw", "win"], start=2):
        raid = _fight(
            [
                (
                    chen,
                    [u["Aurelian the Blade"], u["Prosecutors of the Silent Sisterhood"]],
                    result,
                ),
                (
                    bruno,
                    [u["Ragnar Frostmane"], u["Fangblade"]],
                    {"win": "loss", "loss": "win", "draw": "draw"}[result],
                ),
            ],
            mission=f"Vault Raid {number - 1}",
            agendas={chen: ["Trophy Takers"]},
            achieved={"Aurelian the Blade": {"Trophy Takers": 1}} if result == "win" else {},
            outcomes={
                "Prosecutors of the Silent Sisterhood": outcome(destroyed=True),
                "Aurelian the Blade": outcome(
                    enemy_units_destroyed=1, marked_for_greatness=number == 2
                ),
                "Fangblade": outcome(enemy_units_destroyed=1),
            },
            rolls={"Prosecutors of the Silent Sisterhood": 1},
            weeks_ago=6 - number,
            size="Incursion" if number <= 3 else "Strike Force",
            territory="vault-of-echoes",
        )
        if number == 3:
            story.tell(
                bruno,
                raid,
                "The vault door falls",
                "The Custodians fought for every step. We did not stop.\n\n"
                "- Ragnar went first\n- Fangblade kept the stairs\n\nThe vault is *ours*.",
            )
            story.next_phase(
                organiser,
                campaign,
                "The storms close in",
                "Landfall is over: nobody is leaving Kharos now. The armies dig in around "
                "the walls, and battles grow to Strike Force.",
            )
        elif number == 5:
            story.tell(
                chen,
                raid,
                "Back through the vault",
                "Aurelian led the way back down. The Wolves' banners are ash and the "
                "vault is sealed again.",
            )
        _settle(u["Aurelian the Blade"], "relic", relic=_relic(rules.RelicCategory.ANTIQUITY, 2))
        _settle(u["Ragnar Frostmane"], "trait", **_trait(rules.TraitTable.CHARACTER, roll=2))
        _settle(u["Fangblade"], "trait", **_trait(rules.TraitTable.VEHICLE, roll=4))

    # A requisition or two between battles.
    services.increase_supply_limit(actor=bruno.player, force=bruno)
    services.fresh_recruits(
        actor=bruno.player,
        unit=u["Shadow Pack"],
        models_added=5,
        points=200,
        models_description="1 Sergeant, 9 Infiltrators",
    )

    # 6. Krieg and Custodes are mid-battle right now.
    storm = _fight(
        [
            (
                alice,
                [u["Lord Marshal Dreir"], u["Krieg Command Squad"], u["Siege Company Kappa"]],
                "draw",
            ),
            (chen, [u["Valerian"], u["Custodian Guard Tertius"]], "draw"),
        ],
        size="Strike Force",
        mission="Storm the Gatehouse",
        finish=False,
        territory="gatehouse",
    )
    # The Custodes bring fewer Crusade points to the gatehouse: the underdog's Blessing.
    _underdog_blesses(storm)
    return campaign


def demo_summary(campaign: Campaign) -> list[str]:
    lines = []
    for force in campaign.forces.select_related("player").order_by("name"):
        lines.append(
            f"  {force.player.username:<10} {force.name} ({force.supply_used}/"
            f"{force.supply_limit} points, {force.rp}RP, {force.battle_tally} battles)"
        )
    in_progress = campaign.battles.filter(status=Battle.Status.IN_PROGRESS).count()
    lines.append(f"  {campaign.battles.count()} battles, {in_progress} in progress")
    campaign.refresh_from_db()
    phase = campaign.current_phase
    if phase is not None:
        lines.append(
            f"  phase {phase.position} of {campaign.phases.count()}: {phase.name}; "
            f"{campaign.territories.count()} territories, "
            f"{campaign.log_entries.count()} log entries"
        )
    return lines
