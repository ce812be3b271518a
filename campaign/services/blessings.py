"""The underdog of a battle and the Crusade Blessings it picks.

Once every side has mustered, the army with fewer Crusade points than the strongest army
it faces is the underdog; its player picks Blessings from the campaign's enabled packs, as
many as the packs' thresholds give for the gap, on the battle page before recording.

**Decision:** a side may pick again until it has recorded: the new picks replace the old
ones, and the history row names both. The picks stay with a voided battle as a record.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Prefetch

from campaign import rules
from campaign.models import (
    Battle,
    BattleParticipant,
    BattleUnit,
    BlessingPick,
    ContentPack,
    CustomContent,
    HistoryAction,
    card_prefetches,
)
from campaign.prepared import Prepared

from . import _common as common
from .battles import over

FIELD = "blessings"


@dataclass(frozen=True)
class Underdog:
    """One side's place as the underdog or not: its standing and the Blessings its gap gives."""

    standing: rules.Standing
    allowed: int

    @property
    def points(self) -> int:
        return self.standing.points

    @property
    def gap(self) -> int:
        return self.standing.gap

    @property
    def is_underdog(self) -> bool:
        return self.standing.underdog


def army_queryset():
    """A side's army with each card's honours and scars (its Crusade points), in three
    queries however many units it holds."""
    return BattleUnit.objects.select_related("unit").prefetch_related(*card_prefetches("unit__"))


def army_crusade_points(entries: Iterable[BattleUnit]) -> int:
    """The Crusade points of a mustered army, from its entries (with `army_queryset`'s cards)."""
    return rules.army_crusade_points(
        rules.ArmyCard(e.unit.crusade_points, removed=not e.unit.is_active) for e in entries
    )


def campaign_thresholds(campaign_id: int | None) -> list[list[tuple[int, int]]]:
    """The underdog thresholds of each pack the campaign enables, in one query."""
    if campaign_id is None:
        return []
    packs = _ENABLED_PACKS.fetch(campaign=campaign_id)
    return [[(t.gap_at_least, t.blessings) for t in pack.thresholds()] for pack in packs]


_ENABLED_PACKS = Prepared(
    lambda campaign: (
        ContentPack.objects.filter(enabled_in__campaign=campaign)
        .only("underdog_thresholds")
        .order_by("pk")
    ),
    campaign=int,
)
"""The packs a campaign enables, with their underdog thresholds (compiled once)."""


def fighting(sides: list[BattleParticipant]) -> list[BattleParticipant]:
    return [side for side in sides if side.is_accepted]


def waiting_for(sides: list[BattleParticipant]) -> list[str]:
    """The forces the underdog waits for: invitations unanswered, armies not mustered."""
    return [s.force.name for s in sides if s.is_invited or (s.is_accepted and not s.mustered)]


def underdogs(
    sides: list[BattleParticipant], thresholds: list[list[tuple[int, int]]]
) -> dict[int, Underdog]:
    """Side pk -> its standing and Blessings, once every side has mustered (empty
    before). Each side's ``army`` is read as fetched (`army_queryset`)."""
    if waiting_for(sides) or not fighting(sides):
        return {}
    totals = {side.pk: army_crusade_points(side.army.all()) for side in fighting(sides)}
    return {
        pk: Underdog(standing, rules.blessings_allowed(standing.gap, thresholds))
        for pk, standing in rules.standings(totals).items()
    }


def pick_refusal(battle: Battle, sides: list[BattleParticipant], side) -> str | None:
    """Why ``side`` can't pick Blessings now, whatever it picks (None: it may try)."""
    if over(battle):
        return over(battle)
    if not side.is_accepted:
        return f"{side.force.name} has not accepted this battle."
    if side.has_recorded:
        return "This side has recorded the battle: its Blessings can no longer change."
    waiting = waiting_for(sides)
    if waiting:
        return (
            f"The underdog is known once every side has mustered: waiting for {', '.join(waiting)}."
        )
    return None


def offered_blessings(campaign_id: int | None):
    """The Crusade Blessings the battle's campaign offers (none outside a campaign)."""
    if campaign_id is None:
        return CustomContent.objects.none()
    return (
        CustomContent.objects.available()
        .enabled_in(campaign_id)
        .filter(kind=CustomContent.Kind.BLESSING)
        .order_by("pack__name", "position", "pk")
    )


@transaction.atomic
def pick_blessings(
    *, actor, participant: BattleParticipant, blessings: Iterable[CustomContent]
) -> list[BlessingPick]:
    """The underdog's player picks its Crusade Blessings. Picking again before
    the side records replaces the earlier picks; the same picks again change nothing."""
    force = common.lock_force(participant.force_id)
    battle = Battle.objects.get(pk=participant.battle_id)
    sides = list(
        battle.participants.select_related("force")
        .prefetch_related(Prefetch("army", queryset=army_queryset()))
        .order_by("pk")
    )
    side = next(s for s in sides if s.pk == participant.pk)
    refusal = pick_refusal(battle, sides, side)
    if refusal:
        common.refuse(refusal)
    wanted = {b.pk for b in blessings}
    chosen = list(offered_blessings(battle.campaign_id).filter(pk__in=wanted))
    if len(chosen) != len(wanted):
        common.refuse("That is not one of this campaign's Crusade Blessings.", field=FIELD)
    if not chosen:
        common.refuse("Pick at least one Blessing.", field=FIELD)
    place = underdogs(sides, campaign_thresholds(battle.campaign_id))[side.pk]
    refusal = rules.blessing_pick_refusal(
        standing=place.standing, allowed=place.allowed, picked=len(chosen)
    )
    if refusal:
        common.refuse(refusal, field=FIELD)
    old = list(side.blessing_picks.select_related("blessing").order_by("pk"))
    if {p.blessing_id for p in old} == wanted:
        return old
    side.blessing_picks.all().delete()
    picks = BlessingPick.objects.bulk_create(
        BlessingPick(participant=side, blessing=b, picked_by=common.real_user(actor), gap=place.gap)
        for b in chosen
    )
    names = [b.name for b in chosen]
    what = "picks" if not old else "now picks"
    common.record(
        actor,
        HistoryAction.BLESSINGS_PICKED,
        f"{force.name}, the underdog by {place.gap} Crusade points, {what} "
        f"Crusade Blessing{'s' if len(names) != 1 else ''}: {', '.join(names)}",
        force=force,
        battle=battle,
        changed={"blessings": [[p.blessing.name for p in old], names]},
    )
    return picks
