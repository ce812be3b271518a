"""The Order of Battle page, a force's history, and the new-unit supply check."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.core.paginator import Page
from django.db.models import Exists, OuterRef, QuerySet, prefetch_related_objects

from campaign import rules, services
from campaign.models import (
    BattleParticipant,
    CrusadeForce,
)
from campaign.prepared import Prepared, by_pk

from .alliances import choosable_alliances, has_alliances_to_pick
from .counters import PackSection, force_pack_section, has_pack_content
from .history_lines import HistoryLine, history_page
from .oob_cards import CardRow, RemovedCard, cards_digest, cards_from, read_cards

HISTORY_PER_PAGE = 50

MOST_RP_PIPS = 12
"""The highest RP cap the Order of Battle draws as a row of dots (they shrink to fit one
row on a phone); above it, a bar: smaller dots could not be told apart."""


@dataclass(frozen=True)
class OrderOfBattle:
    force: CrusadeForce
    can_write: bool
    in_battle: bool
    requisitions: list[services.RequisitionOption]
    invitations: list[BattleParticipant]
    """Battles the force is invited to, waiting for its player's answer."""

    @cached_property
    def packs(self) -> PackSection | None:
        """The force's pack counters and the packs' Requisitions (None without any)."""
        return force_pack_section(self.force, in_battle=self.in_battle)

    @cached_property
    def alliances_to_pick(self) -> list:
        """The alliances the force's player may pick from while it fights for none (a
        query only then, and only in a campaign that has one)."""
        force = self.force
        if not self.can_write or force.alliance_id is not None or force.campaign_id is None:
            return []
        if not getattr(force, "has_alliances_to_pick", True):
            return []
        return list(choosable_alliances(force.campaign_id))

    @property
    def version(self) -> int:
        """The force's revision: the page caches its units table under it."""
        return self.force.revision

    @cached_property
    def _read(self) -> tuple[list[dict], list[tuple]]:
        """The cards as read (`read_cards`): only when the units table is not in the
        cache under the force's revision."""
        return read_cards(self.force)

    @property
    def cards_digest(self) -> str:
        """The digest of the cards as read: the units table is kept under it too, so a
        change to the force that leaves its cards as they were reads them but builds no
        row (`cards_digest`)."""
        return cards_digest(self._read)

    @cached_property
    def _cards(self) -> tuple[list[CardRow], list[RemovedCard]]:
        """The active cards (with what waits for each) and the removed ones: built only
        when the units table is built, not when it comes from the cache."""
        return cards_from(*self._read)

    @property
    def rows(self) -> list[CardRow]:
        return self._cards[0]

    @property
    def agendas_achieved(self) -> int:
        """The Agendas achieved tallies of the force's active cards, together."""
        return sum(row.agenda_tally for row in self.rows)

    @property
    def removed(self) -> list[RemovedCard]:
        return self._cards[1]

    @property
    def units(self) -> list[CardRow]:
        """The active cards (the rows, by their other name)."""
        return self.rows

    @property
    def supply_percent(self) -> int:
        if not self.force.supply_limit:
            return 100
        return min(100, round(100 * self.force.supply_used / self.force.supply_limit))

    @property
    def at_supply_limit(self) -> bool:
        return self.force.supply_used >= self.force.supply_limit

    @property
    def over_supply(self) -> int:
        """How far the stored Supply Used is past the Supply Limit (0 within it)."""
        force = self.force
        return rules.supply_over(supply_used=force.supply_used, supply_limit=force.supply_limit)

    @property
    def over_supply_notice(self) -> str:
        """Why a force over its Supply Limit is held back, and how to bring it back."""
        if not self.over_supply:
            return ""
        increase = rules.Requisition.INCREASE_SUPPLY_LIMIT.label
        recruits = rules.Requisition.FRESH_RECRUITS.label
        adds = rules.points_text(self.force.house_rules.supply_limit_increase)
        return (
            f"This force is {rules.points_text(self.over_supply)} over its Supply Limit "
            f"({self.force.supply_used} used of {self.force.supply_limit}): points that did "
            "not count before, such as an Enhancement's, now do. Until it is back within the "
            "limit, nothing that adds points can be done: no new or imported units, no "
            f"Enhancement and no {recruits}. Remove a unit, or buy {increase} (it adds {adds})."
        )

    @property
    def crusade_points(self) -> int:
        return self.force.crusade_points

    @property
    def rp_pips(self) -> list[bool]:
        """One dot per RP up to the cap, filled for each held; none above `MOST_RP_PIPS`
        (the page draws a bar then: so many dots would be too small to tell apart)."""
        if self.force.rp_cap > MOST_RP_PIPS:
            return []
        return [i < self.force.rp for i in range(self.force.rp_cap)]

    @property
    def rp_percent(self) -> int:
        return min(100, round(100 * self.force.rp / self.force.rp_cap)) if self.force.rp_cap else 0

    @property
    def increase_note(self) -> str:
        """How much one Supply Limit increase adds in this force's campaign."""
        return f"It adds {self.force.house_rules.supply_limit_increase} points."


def order_of_battle_forces() -> QuerySet[CrusadeForce]:
    """Forces as the Order of Battle reads them (through their access helper): with their
    player and campaign, and whether a battle not over invited them or holds them."""
    sides = BattleParticipant.objects.filter(BattleParticipant.in_play(), force=OuterRef("pk"))
    return CrusadeForce.objects.select_related(
        "player", "campaign", "provenance", "alliance"
    ).annotate(
        has_sides_in_play=Exists(sides),
        has_pack_content=has_pack_content(),
        has_alliances_to_pick=has_alliances_to_pick(),
    )


ORDER_OF_BATTLE_FORCE = by_pk(order_of_battle_forces)
"""One force of `order_of_battle_forces`, by its key, compiled once (`campaign.prepared`)."""

_SIDES_IN_PLAY = Prepared(
    lambda force: BattleParticipant.objects.filter(
        BattleParticipant.in_play(), force_id=force
    ).select_related("battle"),
    force=int,
)
"""The force's sides in battles not over, invited or accepted, with their battles: read
on every look at the page of a force in a battle (its SQL cost more to build and plan
than to run)."""


def order_of_battle(
    force: CrusadeForce, *, can_write: bool = False, fetched: bool = False
) -> OrderOfBattle:
    """The Order of Battle page's data, in no query more than its force's while no battle
    not over invited or holds it (most of the time), and one (two while an invitation
    waits) when one does; its units table in two more when it is not cached, whatever the
    force's size. The force is fetched again unless ``fetched``: it just came from its
    access helper, from `order_of_battle_forces`, and no change has been made since."""
    if not fetched:
        force = order_of_battle_forces().get(pk=force.pk)
    sides = []
    if force.has_sides_in_play:
        # One query for both: the battle the force is committed to, and its invitations
        # (who invited, only when invited).
        sides = _SIDES_IN_PLAY.fetch(force=force.pk)
    in_battle = any(side.is_accepted for side in sides)
    invitations = sorted(
        (side for side in sides if side.awaits_answer),
        key=lambda side: (side.battle.date, side.battle.pk),
    )
    prefetch_related_objects(invitations, "battle__created_by")
    return OrderOfBattle(
        force=force,
        can_write=can_write,
        in_battle=in_battle,
        requisitions=services.requisition_options(force, in_battle=in_battle),
        invitations=invitations,
    )


def forces_outside_campaigns(user) -> list[CrusadeForce]:
    """The player's forces raised outside any campaign (they may bring one into a campaign)."""
    return list(CrusadeForce.objects.filter(player_id=user.pk, campaign=None).order_by("name"))


@dataclass(frozen=True)
class HistoryRow:
    entry: HistoryLine
    changes: list[tuple[str, str, str]]


@dataclass(frozen=True)
class ForceHistory:
    """One page of a force's history: read only when the page is built, not when it
    comes from the cache (kept under the force's revision, `version`)."""

    force: CrusadeForce
    number: int | str | None = None
    """The page asked for."""
    per_page: int = HISTORY_PER_PAGE

    @property
    def version(self) -> int:
        """The force's revision: every history row that names the force moves it on."""
        return self.force.revision

    @cached_property
    def page(self) -> Page:
        return history_page(self.force.history.all, self.number, per_page=self.per_page)

    @cached_property
    def rows(self) -> list[HistoryRow]:
        return [HistoryRow(entry, change_rows(entry.changes)) for entry in self.page.object_list]


def force_history(
    force: CrusadeForce, *, page: int | str | None = None, per_page: int = HISTORY_PER_PAGE
) -> ForceHistory:
    """One page of the force's history, newest first, in two queries (none when the page
    comes from the cache)."""
    return ForceHistory(force, page, per_page)


def change_rows(changes: dict[str, Any] | None) -> list[tuple[str, str, str]]:
    """History `changes` as readable (what, before, after) rows."""
    rows = []
    for key, pair in (changes or {}).items():
        before, after = (pair + [None, None])[:2] if isinstance(pair, list) else (None, pair)
        rows.append((_field_label(key), _show(before), _show(after)))
    return rows


ABBREVIATIONS = {"xp": "XP", "rp": "RP"}


def _field_label(key: str) -> str:
    """A stored field's name as players read it: ``rp_cap`` is "RP cap", ``xp`` "XP"."""
    words = key.split("_")
    words[0] = words[0].capitalize()
    return " ".join(ABBREVIATIONS.get(word.lower(), word) for word in words)


def _show(value: Any) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, dict):  # tallies by name, e.g. a card's Agenda tallies
        return ", ".join(f"{name}: {count}" for name, count in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class SupplyStatus:
    fits: bool
    message: str


def supply_status(force: CrusadeForce, points: int | None, *, counts: bool) -> SupplyStatus | None:
    """Whether a new unit of ``points`` would fit in the Supply Limit, as the player types."""
    if points is None:
        return None
    used, limit = force.supply_used, force.supply_limit
    if not counts:
        return SupplyStatus(
            True, f"Fits: this unit is left out of Supply Used ({used} of {limit})."
        )
    refusal = rules.supply_refusal(supply_used=used, supply_limit=limit, extra_points=points)
    after = used + points
    if refusal:
        return SupplyStatus(
            False, f"Too many: {after - limit} over your {limit}-point Supply Limit. {refusal}"
        )
    return SupplyStatus(True, f"Fits: {after} of {limit} used after adding.")
