"""The battle page's underdog panel: each army's Crusade points, the gap,
the underdog, how many Blessings it may pick, and the Blessings picked."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import QuerySet

from campaign.models import (
    Battle,
    BattleHonour,
    BattleParticipant,
    BattleScar,
    BlessingPick,
    CustomContent,
    UnitUpgrade,
)
from campaign.prepared import Prepared, fetch_together
from campaign.services.blessings import (
    Underdog,
    campaign_thresholds,
    offered_blessings,
    pick_refusal,
    underdogs,
    waiting_for,
)


def blessing_picks_in(battle: int) -> QuerySet[BlessingPick]:
    """The Blessings every side of a battle picked, with who picked them."""
    return BlessingPick.objects.filter(participant__battle_id=battle).select_related(
        "blessing", "picked_by"
    )


@dataclass(frozen=True)
class ArmyStanding:
    participant: BattleParticipant
    place: Underdog
    picks: list[BlessingPick]
    mine: bool
    can_pick: bool
    """This user may pick (or pick again) this side's Blessings now."""

    @property
    def picks_over(self) -> bool:
        """An army changed since this side picked: it now has more Blessings than its gap
        gives (or is no longer the underdog). The picks stay until its player picks again."""
        return len(self.picks) > self.place.allowed


@dataclass(frozen=True)
class BlessingsPanel:
    battle: Battle
    waiting: list[str]
    """The forces still to answer or muster (the underdog is not known yet)."""
    armies: list[ArmyStanding]
    offered: list[CustomContent]
    """The campaign's Blessings, when this user may pick some."""
    has_thresholds: bool
    contenders: int
    """The sides that fight or are still invited."""

    @property
    def known(self) -> bool:
        return bool(self.armies)

    @property
    def picked(self) -> list[ArmyStanding]:
        return [army for army in self.armies if army.picks]

    @property
    def shown(self) -> bool:
        """Worth a panel: an open battle of two armies or more, or Blessings picked."""
        if self.picked:
            return True
        return self.battle.is_open and self.contenders > 1

    @property
    def underdogs(self) -> list[ArmyStanding]:
        return [army for army in self.armies if army.place.is_underdog]

    @property
    def picker(self) -> ArmyStanding | None:
        """The user's own side that may pick Blessings now (None: no form)."""
        return next((army for army in self.armies if army.can_pick), None)


def cards_needed(battle: Battle, sides: list[BattleParticipant]) -> bool:
    """Whether the panel counts the armies' Crusade points: while the battle is open, or
    for Blessings picked. A battle over with none picked shows no panel, and nobody may
    pick any (`pick_refusal`), so its cards are not read."""
    return battle.is_open or any(side.blessing_picks.all() for side in sides)


def _active_in(model):
    def build(battle: int) -> QuerySet:
        cards = {"unit__battle_entries__participant__battle_id": battle}
        return model.objects.filter(status=model.Status.ACTIVE, **cards)

    build.__qualname__ = f"active {model.__name__} in a battle"
    return Prepared(build, battle=int)


_CARDS_LISTS = tuple(
    (name, _active_in(model))
    for name, model in (
        ("active_honour_list", BattleHonour),
        ("active_scar_list", BattleScar),
        ("active_upgrade_list", UnitUpgrade),
    )
)
"""What a unit's Crusade points need, for every card in a battle's armies (compiled
once, `campaign.prepared`)."""


def with_cards(battle: Battle, sides: list[BattleParticipant]) -> None:
    """Give each unit of the sides' fetched armies its active honours, scars and upgrades
    (what its Crusade points need), in three queries whatever the armies' size or state,
    sent together."""
    reads = fetch_together(*((query, {"battle": battle.pk}) for _, query in _CARDS_LISTS))
    lists = []
    for (name, _), rows in zip(_CARDS_LISTS, reads, strict=True):
        by_unit: dict[int, list] = defaultdict(list)
        for row in rows:
            by_unit[row.unit_id].append(row)
        lists.append((name, by_unit))
    for side in sides:
        for entry in side.army.all():
            for name, by_unit in lists:
                setattr(entry.unit, name, by_unit[entry.unit_id])


def blessings_panel(battle: Battle, sides: list[BattleParticipant], *, user) -> BlessingsPanel:
    """The panel from the sides as the battle page fetched them (each army with its cards'
    honours and scars, and each side's ``blessing_picks``): at most two queries more, for
    the packs' thresholds and the Blessings on offer; none for a battle over with no
    Blessings picked (`cards_needed`)."""
    contenders = sum(1 for side in sides if side.is_accepted or side.is_invited)
    if not cards_needed(battle, sides):
        return BlessingsPanel(battle, [], [], [], False, contenders)
    waiting = waiting_for(sides) if battle.is_open else []
    thresholds = campaign_thresholds(battle.campaign_id)
    places = underdogs(sides, thresholds) if not waiting else {}
    armies = []
    for side in sides:
        if side.pk not in places:
            continue
        place = places[side.pk]
        mine = user.is_authenticated and side.force.player_id == user.pk
        can_pick = (
            mine
            and place.is_underdog
            and place.allowed > 0
            and pick_refusal(battle, sides, side) is None
        )
        armies.append(ArmyStanding(side, place, list(side.blessing_picks.all()), mine, can_pick))
    offered = []
    if any(army.can_pick for army in armies):
        offered = list(offered_blessings(battle.campaign_id))
    return BlessingsPanel(battle, waiting, armies, offered, any(thresholds), contenders)
