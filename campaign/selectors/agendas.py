"""Agendas in play on the pages: the picks and achievements on the battle page, a
card's Agenda tallies."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from campaign.models import AgendaAchievement, AgendaPick, BattleUnit, Unit
from campaign.prepared import Prepared


def agenda_picks_in(battle: int) -> QuerySet[AgendaPick]:
    """The Agendas every side of a battle picked, in the order picked."""
    return (
        AgendaPick.objects.filter(participant__battle_id=battle)
        .select_related("agenda")
        .order_by("pk")
    )


ACHIEVED = Prepared(
    lambda battle: (
        AgendaAchievement.objects.filter(battle_unit__participant__battle_id=battle)
        .select_related("agenda")
        .order_by("pk")
    ),
    battle=int,
)
"""What a battle's army entries achieved (compiled once, `campaign.prepared`)."""


def show_achievements(entries: list[BattleUnit], achieved: list[AgendaAchievement]) -> None:
    """Give each of a battle's army entries what it achieved (``entry.agendas_achieved``)
    among ``achieved``, the battle's `ACHIEVED`: one query whatever the armies (none
    mustered yet included)."""
    found: dict[int, list[AgendaAchievement]] = {}
    for row in achieved:
        found.setdefault(row.battle_unit_id, []).append(row)
    for entry in entries:
        entry.agendas_achieved = found.get(entry.pk, [])


@dataclass(frozen=True)
class AgendaTally:
    name: str
    tally: int


@dataclass(frozen=True)
class CardAgendas:
    """A card's Agenda tallies by Agenda (largest first), and in total."""

    tallies: list[AgendaTally]
    total: int


def card_agendas(unit: Unit) -> CardAgendas | None:
    """None for a card that has never achieved one outside any campaign (no pack can give
    it an Agenda): its card then leaves the tally out."""
    if not unit.agenda_tallies and unit.force.campaign_id is None:
        return None
    tallies = sorted(
        (AgendaTally(name, n) for name, n in unit.agenda_tallies.items() if n),
        key=lambda t: (-t.tally, t.name.casefold()),
    )
    return CardAgendas(tallies, unit.agenda_tally)
