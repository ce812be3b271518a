"""Crusade cards to print: every unit on an Order of Battle, as its card page shows it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from campaign import rules
from campaign.models import BattleScar, CrusadeForce, RequisitionPurchase, Unit

from .labels import keyword_labels
from .units import HonourRow, honour_rows


@dataclass(frozen=True)
class PaperCard:
    """One unit's Crusade card, without the controls of its page."""

    unit: Unit
    progress: rules.RankProgress | None
    """Progress towards the next rank; None for a unit that never gains XP."""
    honours: list[HonourRow]
    scars: list[BattleScar]
    keywords: list[str]
    purchases: list[RequisitionPurchase]


class CardsToPrint:
    """The force and its cards; the cards are read only when the page builds them, not
    when they come from the cache (cached under the force's revision, which every change
    to the force or its units moves on: see `selectors.versions`)."""

    def __init__(self, force: CrusadeForce) -> None:
        self.force = force

    @property
    def version(self) -> int:
        return self.force.revision

    @cached_property
    def cards(self) -> list[PaperCard]:
        return _cards(self.force)


def cards_to_print(force: CrusadeForce) -> CardsToPrint:
    """The force's active units in Order of Battle order, each as a card, in six queries
    whatever the force's size (one, when the cards come from the cache)."""
    force = CrusadeForce.objects.select_related("player", "campaign").get(pk=force.pk)
    return CardsToPrint(force)


def _cards(force: CrusadeForce) -> list[PaperCard]:
    units = (
        force.units.active().with_card_details().prefetch_related("requisitions").order_by("name")
    )
    cards = []
    for unit in units:
        unit.force = force
        progress = None
        if not unit.no_xp:
            progress = rules.rank_progress(unit.xp, xp_cap=unit.facts().xp_cap)
        cards.append(
            PaperCard(
                unit=unit,
                progress=progress,
                honours=honour_rows(unit),
                scars=unit.active_scars(),
                keywords=keyword_labels(unit),
                purchases=list(unit.requisitions.all()),
            )
        )
    return cards
