"""Agendas in play on the pages (R11.1): the picks and achievements on the battle page, a
card's Agenda tallies."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from campaign.models import AgendaAchievement, AgendaPick, Unit


def agenda_picks() -> Prefetch:
    """A battle's sides with the Agendas each picked (one query for every side)."""
    return Prefetch("agenda_picks", AgendaPick.objects.select_related("agenda").order_by("pk"))


def agenda_achievements() -> Prefetch:
    """An army's entries with what each achieved (one query for the whole army)."""
    return Prefetch(
        "agenda_achievements", AgendaAchievement.objects.select_related("agenda").order_by("pk")
    )


@dataclass(frozen=True)
class AgendaTally:
    name: str
    tally: int


@dataclass(frozen=True)
class CardAgendas:
    """A card's Agenda tallies by Agenda (largest first), and in total."""

    tallies: list[AgendaTally]
    total: int


def card_agendas(unit: Unit) -> CardAgendas:
    tallies = sorted(
        (AgendaTally(name, n) for name, n in unit.agenda_tallies.items() if n),
        key=lambda t: (-t.tally, t.name.casefold()),
    )
    return CardAgendas(tallies, unit.agenda_tally)
