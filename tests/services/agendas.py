"""Agendas for the service and view tests (R11.1): a campaign with a pack of Agendas, two
forces in it, and a battle between them mustered with Agendas picked."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from campaign import services
from campaign.models import BattleParticipant, BattleUnit, CustomContent, Unit
from campaign.services import UnitOutcome
from tests.factories import make_battle, make_campaign, make_character, make_force, make_unit

PACK = {
    "format": "crusade-content-pack",
    "version": 1,
    "pack": {
        "slug": "test-agendas",
        "name": "Test Agendas",
        "description": "Agendas for the tests.",
        "source": "tests",
    },
    "agendas_per_battle": 2,
    "agendas": [
        {
            "id": "beacon",
            "name": "Hold the Beacon",
            "effect": "Hold it.",
            "xp": 2,
            "keeps_tally": False,
            "limit_per_battle": 2,
        },
        {
            "id": "trophies",
            "name": "Trophy Takers",
            "effect": "Take them.",
            "xp": 1,
            "keeps_tally": True,
        },
        {
            "id": "scout",
            "name": "Scout the Ruins",
            "effect": "Scout.",
            "xp": 3,
            "keeps_tally": False,
            "limit_per_battle": 1,
        },
    ],
}


def pack_bytes(**changes) -> bytes:
    return json.dumps({**PACK, **changes}).encode()


def agenda(name: str, campaign=None) -> CustomContent:
    items = CustomContent.objects.filter(kind="agenda", name=name)
    if campaign is not None:
        items = items.enabled_in(campaign.pk)
    return items.get()


@dataclass
class Table:
    """Two forces of a campaign with the test pack; each has a Captain and a squad."""

    campaign: object
    organiser: object
    forces: list = field(default_factory=list)

    @property
    def mine(self):
        return self.forces[0]

    @property
    def theirs(self):
        return self.forces[1]

    def units(self, force) -> list[Unit]:
        return list(force.units.order_by("pk"))


def agenda_table(**pack_changes) -> Table:
    campaign = make_campaign()
    organiser = campaign.memberships.get(role="organiser").user
    services.import_pack(actor=organiser, data=pack_bytes(**pack_changes), campaign=campaign)
    table = Table(campaign, organiser)
    for name in ("Ultramarines", "Iron Hands"):
        force = make_force(campaign=campaign, name=name)
        make_character(force, name=f"{name} Captain")
        make_unit(force, name=f"{name} Squad")
        table.forces.append(force)
    return table


@dataclass
class AgendaFight:
    battle: object
    sides: dict  # force pk -> participant

    def side(self, force) -> BattleParticipant:
        return BattleParticipant.objects.get(pk=self.sides[force.pk].pk)

    def entry(self, unit) -> BattleUnit:
        return BattleUnit.objects.get(participant__battle=self.battle, unit=unit)

    def record(self, force, result, marks: dict | None = None, **outcomes) -> object:
        """Record ``force``'s side: ``marks`` by unit, {unit: {agenda: times}}."""
        entries = {}
        for unit in force.units.all():
            achieved = tuple((a.pk, times) for a, times in (marks or {}).get(unit, {}).items())
            entries[self.entry(unit).pk] = UnitOutcome(
                agendas=achieved, **outcomes.get(unit.name, {})
            )
        return services.record_side(
            actor=force.player, participant=self.side(force), result=result, outcomes=entries
        )


def muster(table: Table, picks: dict | None = None, attachments: dict | None = None):
    """A battle between the table's forces, each mustering all its units and picking
    ``picks[force]`` (Agenda names)."""
    battle = make_battle(table.mine, table.theirs, campaign=table.campaign)
    sides = {p.force_id: p for p in battle.participants.all()}
    for force in table.forces:
        units = table.units(force)
        services.muster_army(
            actor=force.player,
            participant=sides[force.pk],
            faction=force.faction,
            detachment="Gladius",
            units=units,
            warlord=units[0],
            attachments={
                leader.pk: bodyguard.pk
                for leader, bodyguard in (attachments or {}).items()
                if leader.force_id == force.pk
            },
            agendas=[agenda(name) for name in (picks or {}).get(force, [])],
        )
    return AgendaFight(battle, sides)
