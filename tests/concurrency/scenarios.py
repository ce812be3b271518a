"""Data for the live-server tests, built through the services as players build it.

Runs inside the server's own settings and database: `live.scenario(env, name, ...)`
calls `main` through `manage.py shell --command`, which prints one line of JSON.
Every player's password is `live.PASSWORD`, hashed once with the default hasher.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db.models import Sum

from campaign import rules, services
from campaign.models import (
    Battle,
    BattleParticipant,
    Campaign,
    CounterValue,
    CrusadeForce,
    CustomContent,
    Membership,
    PackRequisitionPurchase,
    RequisitionPurchase,
    Unit,
)
from tests.concurrency.live import PASSWORD
from tests.factories import make_battle

KEYWORDS = "Imperium, Astra Militarum"
FACTION = "Astra Militarum"


def main(name: str, arguments: str) -> None:
    print(json.dumps(SCENARIOS[name](**json.loads(arguments))))


def _players(prefix: str, count: int) -> list:
    hashed = make_password(PASSWORD)
    return [
        get_user_model().objects.create(username=f"{prefix}{n}", password=hashed)
        for n in range(1, count + 1)
    ]


def _campaign(name: str) -> Campaign:
    (organiser,) = _players(f"{name.lower()}-organiser", 1)
    return services.create_campaign(actor=organiser, name=name)


def _force(player, campaign: Campaign | None, name: str) -> CrusadeForce:
    if campaign is not None:
        services.join_campaign(
            actor=player, user=player, campaign=campaign, role=Membership.Role.PLAYER
        )
    return services.create_force(
        actor=player, player=player, campaign=campaign, name=name, faction=FACTION
    )


def _unit_without_xp(force: CrusadeForce, name: str, datasheet: str, points: int, **kind):
    return services.add_unit(
        actor=force.player,
        force=force,
        unit=services.NewUnit(
            name=f"{name} of {force.name}",
            datasheet=datasheet,
            points=points,
            faction_keywords=KEYWORDS,
            **kind,
        ),
    )


def _epic_hero(force: CrusadeForce) -> Unit:
    """An EPIC HERO CHARACTER: a Warlord that never gains XP (R2.6), so never a promotion
    to settle before the next battle (R3.7)."""
    return _unit_without_xp(
        force, "Lord Marshal", "Lord Marshal Dreir", 100, is_character=True, is_epic_hero=True
    )


def _swarm(force: CrusadeForce) -> Unit:
    """A SWARM unit: no XP either (R2.6)."""
    return _unit_without_xp(force, "Cyber-mastiffs", "Cyber-mastiff Pack", 40, is_swarm=True)


def _side(force: CrusadeForce, units: list[Unit]) -> dict:
    return {
        "username": force.player.username,
        "force": force.pk,
        "units": [u.pk for u in units],
        "warlord": units[0].pk if units else None,
        "rp": force.rp,
        "supply_limit": force.supply_limit,
    }


def supply_race() -> dict:
    """One player's force with its starting 5RP and 1000-point Supply Limit (R1.2)."""
    (player,) = _players("quartermaster", 1)
    force = _force(player, None, "13th Siege Regiment")
    return _side(force, [])


def battle_to_record() -> dict:
    """Two players in a battle, the second having accepted it, both armies mustered (R8): it
    only needs each side recorded (R9)."""
    campaign = _campaign("Vigil")
    sides = []
    for player, name in zip(_players("vigil", 2), ("Iron Wolves", "Red Talons"), strict=True):
        force = _force(player, campaign, name)
        sides.append((force, [_epic_hero(force), _swarm(force)]))
    (first, _), (second, _) = sides
    battle = make_battle(first, second, campaign=campaign)
    for force, units in sides:
        services.muster_army(
            actor=force.player,
            participant=battle.participants.get(force=force),
            faction=FACTION,
            detachment="Combined Regiment",
            units=units,
            warlord=units[0],
        )
    return {"battle": battle.pk, "sides": [_side(force, units) for force, units in sides]}


def soak(pairs: int) -> dict:
    """`pairs` pairs of players in one campaign, each force ready to fight at once."""
    campaign = _campaign("Gaming Group")
    sides = []
    for n, player in enumerate(_players("player", 2 * pairs), start=1):
        force = _force(player, campaign, f"Regiment {n}")
        sides.append(_side(force, [_epic_hero(force), _swarm(force)]))
    return {"pairs": [sides[i : i + 2] for i in range(0, len(sides), 2)]}


def picture_owner() -> dict:
    """A player with a force and one Crusade card, ready for a picture."""
    (player,) = _players("painter", 1)
    force = _force(player, None, "Painted Regiment")
    return _side(force, [_epic_hero(force)])


def recruits() -> dict:
    """A player's force with one squad of 1 model that may grow to 10 (R6: Fresh Recruits)."""
    (player,) = _players("recruiter", 1)
    force = _force(player, None, "Recruiting Regiment")
    squad = services.add_unit(
        actor=player,
        force=force,
        unit=services.NewUnit(
            name="Infantry Squad Vell",
            datasheet="Infantry Squad",
            points=65,
            faction_keywords=KEYWORDS,
            is_infantry=True,
            model_count=1,
            max_model_count=10,
        ),
    )
    return {**_side(force, [squad]), "unit": squad.pk}


def card(unit: int) -> dict:
    """One card's models and points, and how many Requisitions were bought for it."""
    squad = Unit.objects.get(pk=unit)
    bought = RequisitionPurchase.objects.filter(unit=squad).count()
    return {"model_count": squad.model_count, "points": squad.points, "purchases": bought}


def report(forces: list[int]) -> dict:
    """Each force's numbers, and what its battles and purchases say they should be."""
    statuses = {status: 0 for status in Battle.Status.values}
    for status in Battle.objects.values_list("status", flat=True):
        statuses[status] += 1
    rows = []
    for force in CrusadeForce.objects.filter(pk__in=forces).order_by("pk"):
        fought = BattleParticipant.objects.filter(
            force=force, battle__status=Battle.Status.COMPLETED
        )
        purchases = RequisitionPurchase.objects.filter(force=force)
        rows.append(
            {
                "force": force.pk,
                "rp": force.rp,
                "rp_cap": force.rp_cap,
                "supply_limit": force.supply_limit,
                "battle_tally": force.battle_tally,
                "victories": force.victories,
                "battles_completed": fought.count(),
                "wins": fought.filter(result=BattleParticipant.Result.WIN).count(),
                "rp_from_battles": sum(p.rp_after - p.rp_before for p in fought),
                "rp_spent": purchases.aggregate(spent=Sum("cost"))["spent"] or 0,
                "supply_increases": purchases.filter(
                    requisition=rules.Requisition.INCREASE_SUPPLY_LIMIT
                ).count(),
                "purchases": purchases.count(),
                "supply_limit_increase": (
                    force.campaign.supply_limit_increase
                    if force.campaign
                    else rules.DEFAULT_HOUSE_RULES.supply_limit_increase
                ),
            }
        )
    return {"battles": statuses, "forces": rows}


def pack_race() -> dict:
    """A force in a campaign with the sample pack (Salvage; Scavenging Party for 1RP gives
    2 Salvage; Field Workshop costs 3 Salvage), with its starting 5RP and no Salvage."""
    from tests.counter_packs import SAMPLE

    campaign = _campaign("Scrapyard")
    organiser = campaign.memberships.get(role=Membership.Role.ORGANISER).user
    services.import_pack(actor=organiser, data=SAMPLE.read_bytes(), campaign=campaign)
    (player,) = _players("scavenger", 1)
    force = _force(player, campaign, "Scrap Kings")
    unit = _swarm(force)
    items = CustomContent.objects.filter(kind="requisition", pack__campaign=campaign)
    return {**_side(force, [unit]), "requisitions": {i.key: i.pk for i in items}}


def pack_report(force: int) -> dict:
    """A force's RP and Salvage, and how many of each pack Requisition it bought."""
    found = CrusadeForce.objects.get(pk=force)
    salvage = CounterValue.objects.filter(force=found, unit=None, counter__key="salvage")
    bought = PackRequisitionPurchase.objects.filter(force=found)
    return {
        "rp": found.rp,
        "salvage": salvage.values_list("value", flat=True).first(),
        "bought": {
            key: bought.filter(requisition__key=key).count()
            for key in ("scavenging-party", "field-workshop")
        },
    }


SCENARIOS: dict[str, Callable[..., dict]] = {
    "pack_race": pack_race,
    "pack_report": pack_report,
    "supply_race": supply_race,
    "battle_to_record": battle_to_record,
    "soak": soak,
    "picture_owner": picture_owner,
    "recruits": recruits,
    "card": card,
    "report": report,
}
