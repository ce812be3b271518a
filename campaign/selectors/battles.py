"""Battle pages: the battle itself, mustering an army and recording one side's end.

Each works on one battle and its armies, never on the campaign's other battles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.db.models import QuerySet, prefetch_related_objects
from django.urls import reverse

from campaign import rules
from campaign.models import (
    Battle,
    BattleHonour,
    BattleParticipant,
    BattleScar,
    BattleUnit,
    CrusadeForce,
    CustomContent,
    OutOfActionTest,
    Promotion,
    Unit,
    card_prefetches,
)
from campaign.prepared import Prepared, fetch_together, give_related
from campaign.services import agendas as agenda_service
from campaign.services.battles import disagreement, recording_refusal

from .agendas import ACHIEVED, agenda_picks_in, show_achievements
from .blessings import (
    BlessingsPanel,
    blessing_picks_in,
    blessings_panel,
    cards_needed,
    with_cards,
)
from .labels import keyword_labels
from .oob_cards import CardRow, order_of_battle_cards
from .versions import kept, side_battle_version, sides_with_versions


@dataclass(frozen=True)
class ArmyRow:
    entry: BattleUnit
    test: OutOfActionTest | None


@dataclass(frozen=True)
class Side:
    participant: BattleParticipant
    rows: list[ArmyRow]
    mine: bool
    record_refusal: str | None
    """Why this side can't record the battle now (None: it can)."""

    @property
    def points(self) -> int:
        return sum(row.entry.unit.points for row in self.rows)

    @property
    def fights(self) -> bool:
        return self.participant.is_accepted

    @property
    def pending_tests(self) -> list[OutOfActionTest]:
        """My units' tests still to take or settle."""
        if not self.mine:
            return []
        return [row.test for row in self.rows if row.test is not None and row.test.is_open]


@dataclass(frozen=True)
class BattlePage:
    battle: Battle
    can_write: bool
    """The user has a force in this battle."""
    starter: bool
    """The user started this battle (they may withdraw invitations, or cancel it)."""
    sides: list[Side]
    pending_promotions: list[Promotion]
    blessings: BlessingsPanel | None = None
    """The underdog and its Crusade Blessings."""

    @property
    def in_progress(self) -> bool:
        return self.battle.status == Battle.Status.IN_PROGRESS

    @property
    def disputed(self) -> bool:
        return self.battle.status == Battle.Status.DISPUTED

    @property
    def fighting(self) -> list[Side]:
        """The sides whose players accepted (or started) the battle."""
        return [side for side in self.sides if side.fights]

    @property
    def mine(self) -> list[Side]:
        return [side for side in self.sides if side.mine]

    @property
    def unanswered(self) -> list[Side]:
        """Invitations still waiting for an answer, while the battle is open."""
        if not self.in_progress:
            return []
        return [side for side in self.sides if side.participant.is_invited]

    @property
    def all_mustered(self) -> bool:
        return bool(self.fighting) and all(side.participant.mustered for side in self.fighting)

    @property
    def all_recorded(self) -> bool:
        return bool(self.fighting) and all(s.participant.has_recorded for s in self.fighting)

    @property
    def step(self) -> int:
        """Where the battle stands: 1 invitations, 2 muster, 3 record, 4 after the battle."""
        if not self.battle.is_open:
            return 4
        if self.unanswered:
            return 1
        return 3 if self.all_mustered else 2

    @property
    def claims_shown(self) -> bool:
        """Each side's claimed result is shown once every side has recorded."""
        return self.all_recorded

    @property
    def dispute(self) -> str | None:
        """Why the recorded results can't all be true (a disputed battle)."""
        if not self.disputed:
            return None
        return disagreement([side.participant for side in self.sides])

    @property
    def can_cancel(self) -> bool:
        return (
            self.starter
            and self.in_progress
            and not any(side.participant.has_recorded for side in self.sides)
        )

    @property
    def pending_tests(self) -> list[OutOfActionTest]:
        return [test for side in self.sides for test in side.pending_tests]


# The battle page's sides and what each holds, compiled once (`campaign.prepared`), each
# for the whole battle: whom a unit leads or starts in is another entry of the battle,
# linked in Python (`_link_entries`) rather than joined, which would load each card three
# times.
_SIDES = Prepared(
    lambda battle: (
        BattleParticipant.objects.filter(battle_id=battle)
        .select_related("force__player", "recorded_by")
        .order_by("pk")
    ),
    battle=int,
)
_ARMIES = Prepared(
    lambda battle: (
        BattleUnit.objects.filter(participant__battle_id=battle)
        .select_related("unit", "out_of_action")
        .order_by("pk")
    ),
    battle=int,
)
_BLESSINGS = Prepared(blessing_picks_in, battle=int)
_AGENDAS = Prepared(agenda_picks_in, battle=int)


def _link_entries(entries: list[BattleUnit]) -> None:
    """Give each entry the entry it leads and the one it starts in, from the battle's own
    entries (no query)."""
    by_pk = {entry.pk: entry for entry in entries}
    for entry in entries:
        for field in ("attached_to", "embarked_in"):
            other = by_pk.get(getattr(entry, f"{field}_id"))
            if other is not None:
                setattr(entry, field, other)


def _link_warlords(participants: list[BattleParticipant]) -> None:
    """Give each side its Warlord from its army (the muster check keeps it in the army),
    rather than joining a third copy of a card to the sides."""
    for side in participants:
        units = {entry.unit_id: entry.unit for entry in side.army.all()}
        if side.warlord_id in units:
            side.warlord = units[side.warlord_id]


def _test_of(entry: BattleUnit) -> OutOfActionTest | None:
    test = getattr(entry, "out_of_action", None)
    if test is not None:
        test.unit = entry.unit  # already loaded with the army
    return test


def battle_page(battle: Battle, *, user, can_write: bool) -> BattlePage:
    """The battle page in the same number of queries whatever the size of the armies."""
    reads = (_SIDES, _ARMIES, _BLESSINGS, _AGENDAS, ACHIEVED)
    participants, entries, blessings, agendas, achieved = fetch_together(
        *((query, {"battle": battle.pk}) for query in reads)
    )
    for side in participants:
        side.battle = battle
    give_related(participants, "army", entries)
    give_related(participants, "blessing_picks", blessings)
    give_related(participants, "agenda_picks", agendas)
    _link_entries(entries)
    _link_warlords(participants)
    show_achievements(entries, achieved)
    sides = [
        Side(
            participant=p,
            rows=[ArmyRow(entry, _test_of(entry)) for entry in p.army.all()],
            mine=p.force.player_id == user.pk,
            record_refusal=recording_refusal(battle, participants, p),
        )
        for p in participants
    ]
    promotions = []
    # A battle's promotions are made as it completes, one for each its entries earned.
    earned = any(entry.promotions_earned for entry in entries)
    if battle.status == Battle.Status.COMPLETED and can_write and earned:
        promotions = list(
            Promotion.objects.filter(
                battle=battle, status=Promotion.Status.PENDING, unit__force__player=user
            )
            .select_related("unit")
            .order_by("unit__name", "rank")
        )
    starter = user.is_authenticated and battle.created_by_id == user.pk
    if cards_needed(battle, participants):
        with_cards(battle, participants)
    panel = blessings_panel(battle, participants, user=user)
    return BattlePage(battle, can_write, starter, sides, promotions, panel)


@dataclass(frozen=True)
class PendingLink:
    """Something to settle before a unit may fight again, and where to settle it."""

    text: str
    url: str


@dataclass(frozen=True)
class MusterSummary:
    points: int
    limit: int
    report: rules.MusterReport | None
    crusade_points: int = 0
    """The Crusade points of the units ticked."""

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.points / self.limit)) if self.limit else 100

    @property
    def over(self) -> bool:
        return self.points > self.limit


@dataclass(frozen=True)
class MusterPage:
    participant: BattleParticipant
    units: list[Unit] | list[CardRow]
    """The cards to choose from: plain rows as the page is first shown, `Unit`s read
    for a posted muster (the ones the service and the rules' check are given)."""
    initial: dict

    @property
    def battle(self) -> Battle:
        return self.participant.battle

    def with_details(self) -> MusterPage:
        """The units' honours, scars, upgrades and pending promotions, read once: what
        the page shows and the rules' check reads (a muster that goes through needs
        neither: the service reads the cards again under its lock)."""
        first = self.units[0] if self.units else None
        if isinstance(first, Unit) and not hasattr(first, "active_honour_list"):
            prefetch_related_objects(self.units, *card_prefetches())
        return self

    @cached_property
    def agendas(self) -> list[CustomContent]:
        """The Agendas the side may pick (`muster_agendas`)."""
        return muster_agendas(self.participant)

    @cached_property
    def keywords(self) -> dict[int, list[str]]:
        """Unit pk -> the rule-changing keywords shown beside it."""
        return {unit.pk: keyword_labels(unit) for unit in self.units if unit.keywords}

    @cached_property
    def pending(self) -> dict[int, PendingLink]:
        """What blocks a unit, asked only when the page is shown (not on a muster that
        goes through: the service checks it again under its lock)."""
        if self.units and isinstance(self.units[0], CardRow):
            return _card_pending_links(self.units)
        return pending_links(self.units)

    def summary(self, selected: set[int], report: rules.MusterReport | None) -> MusterSummary:
        """Points of the chosen units (the rules' count once they have checked the army)."""
        limit = self.battle.points_limit
        crusade_points = army_crusade_points(self.units, selected)
        if report is not None:
            return MusterSummary(report.points, limit, report, crusade_points)
        points = sum(u.points for u in self.units if u.pk in selected)
        return MusterSummary(points, limit, None, crusade_points)


def army_crusade_points(units: list[Unit], selected: set[int]) -> int:
    """The Crusade points of the ``selected`` units among ``units``."""
    return rules.army_crusade_points(
        rules.ArmyCard(u.crusade_points, removed=not u.is_active) for u in units if u.pk in selected
    )


def muster_units(participant: BattleParticipant, *, details: bool = True) -> list:
    """The units a force may muster, CHARACTERS first, then by name. ``details``: the
    page as first shown, the Order of Battle's plain rows (`order_of_battle_cards`: their
    Crusade points and what waits for each, in two queries whatever the force's size);
    else the `Unit`s alone, their details read later by `MusterPage.with_details`."""
    if details:
        return muster_cards(participant.force)
    return list(participant.force.units.active().order_by("-is_character", "name"))


def muster_cards(force: CrusadeForce) -> list[CardRow]:
    """The force's active cards as the muster form lists them (CHARACTERS first, then by
    name), cached under the force's revision (see `selectors.versions`): every change to
    a card, or to what waits for it, writes a history row that moves it on, so a cached
    list is right or never asked for again. It holds no token of the player's session."""

    def build() -> list[CardRow]:
        cards, _ = order_of_battle_cards(force)
        cards.sort(key=lambda card: not card.is_character)  # stable: names stay in order
        return cards

    return kept(f"muster-cards:{force.pk}:{force.revision}", build)


def muster_agendas(participant: BattleParticipant) -> list[CustomContent]:
    """The Agendas the side's campaign offers (`services.agendas.offered`), with their
    packs, cached under the campaign's revision (see `selectors.versions`): a pack enabled
    or turned off, an Agenda added, edited or retired, writes a history row that names the
    campaign (every campaign that enabled a library pack), so a cached list is right or
    never asked for again. Outside a campaign's battle, read each time."""
    battle = participant.battle
    if battle.campaign_id is None:
        return list(agenda_service.offered(agenda_service.campaign_of(participant)))
    campaign = battle.campaign
    # The query is built only when read: building it cost 0.8 ms.
    return kept(
        f"muster-agendas:{campaign.pk}:{campaign.revision}",
        lambda: list(agenda_service.offered(agenda_service.campaign_of(participant))),
    )


def _card_pending_links(cards: list[CardRow]) -> dict[int, PendingLink]:
    """`pending_links` of the Order of Battle's rows, from what they already hold."""
    links: dict[int, PendingLink] = {}
    for card in cards:
        if card.pending_test_pks:
            url = reverse("out_of_action", args=[card.pending_test_pks[0]])
            links[card.pk] = PendingLink("Out of Action test to take", url)
        elif card.pending_promotion_pks:
            url = reverse("promotion_settle", args=[card.pending_promotion_pks[0]])
            links[card.pk] = PendingLink("Promotion to settle", url)
    return links


def pending_links(units: list[Unit]) -> dict[int, PendingLink]:
    """Units with something to settle first, and a link to settle it (an Out of Action
    test before a promotion)."""
    pks = [u.pk for u in units]
    links: dict[int, PendingLink] = {}
    for test in OutOfActionTest.objects.open().filter(unit__in=pks):
        links[test.unit_id] = PendingLink(
            "Out of Action test to take", reverse("out_of_action", args=[test.pk])
        )
    for promotion in Promotion.objects.filter(unit__in=pks, status=Promotion.Status.PENDING):
        links.setdefault(
            promotion.unit_id,
            PendingLink("Promotion to settle", reverse("promotion_settle", args=[promotion.pk])),
        )
    return links


def _muster_initial(participant: BattleParticipant) -> dict:
    """The army already mustered, as the muster form's initial data."""
    initial: dict = {
        "faction": participant.faction or participant.force.faction,
        "detachment": participant.detachment,
    }
    if participant.mustered:
        army = list(participant.army.select_related("attached_to", "embarked_in"))
        initial["units"] = [e.unit_id for e in army]
        initial["warlord"] = participant.warlord_id
        for entry in army:
            if entry.attached_to_id:
                initial[f"attach_{entry.unit_id}"] = entry.attached_to.unit_id
            if entry.embarked_in_id:
                initial[f"embark_{entry.unit_id}"] = entry.embarked_in.unit_id
            if entry.second_leader_rule:
                initial[f"second_leader_{entry.unit_id}"] = entry.second_leader_rule
    return initial


def muster_page(participant: BattleParticipant, *, initial: bool = True) -> MusterPage:
    """The units to choose from, what blocks any of them, and the army mustered so far
    (``initial``: the page as first shown, the cards' details read at once; else a posted
    muster, whose details are read only if the page is shown again)."""
    return MusterPage(
        participant=participant,
        units=muster_units(participant, details=initial),
        initial=_muster_initial(participant) if initial else {},
    )


@dataclass(frozen=True)
class RecordPage:
    participant: BattleParticipant
    """The side being recorded, with its army and the army's cards (honours, scars)."""
    refusal: str | None
    """Why this side can't record now (None: it can)."""
    agenda_picks: dict[int, CustomContent]
    """The Agendas the side picked (`services.agendas.side_picks`), read with its army."""

    @property
    def battle(self) -> Battle:
        return self.participant.battle

    @property
    def army(self) -> list[BattleUnit]:
        return list(self.participant.army.all())


# The record form's army and its cards' active honours and scars (what `Unit.facts`
# reads), compiled once (`campaign.prepared`); its sides are the battle page's.
_ARMY = Prepared(
    lambda side: (
        BattleUnit.objects.filter(participant_id=side).select_related("unit").order_by("pk")
    ),
    side=int,
)


def _in_army(model):
    return Prepared(
        lambda side: model.objects.filter(
            status=model.Status.ACTIVE, unit__battle_entries__participant_id=side
        ),
        side=int,
    )


_ARMY_FACTS = (
    ("active_honour_list", _in_army(BattleHonour)),
    ("active_scar_list", _in_army(BattleScar)),
)


def versioned_sides() -> QuerySet[BattleParticipant]:
    """The sides the record form is opened from, with their battle's version."""
    return sides_with_versions(BattleParticipant.objects.all())


def side_form_key(participant: BattleParticipant, form: str) -> str:
    """The key of a side's ``form`` (the muster or record form) as first shown
    (``participant`` from `versioned_sides`): the battle's version names the sides, their
    armies and records, the Agendas picked and the state of every card of their forces,
    and the campaign's revision its packs' Agendas and detachments. The forms show nothing
    of whoever opens them."""
    battle = participant.battle
    campaign = battle.campaign.revision if battle.campaign_id else 0
    return f"{form}:{participant.pk}:{side_battle_version(participant)}:{campaign}"


def record_page(participant: BattleParticipant) -> RecordPage:
    """One side's army, ready for its player to record what each unit did."""
    battle = participant.battle
    mine = {"side": participant.pk}
    sides, army, picks, *facts = fetch_together(
        (_SIDES, {"battle": battle.pk}),
        (_ARMY, mine),
        (agenda_service.SIDE_PICKS, mine),
        *((q, mine) for _, q in _ARMY_FACTS),
    )
    side = next(s for s in sides if s.pk == participant.pk)
    side.battle = battle
    for (to_attr, _), rows in zip(_ARMY_FACTS, facts, strict=True):
        found: dict[int, list] = {}
        for row in rows:  # a card is in an army once
            found.setdefault(row.unit_id, []).append(row)
        for entry in army:
            setattr(entry.unit, to_attr, found.get(entry.unit_id, []))
    give_related([side], "army", army)
    _link_entries(army)  # a Leader and its Bodyguard are of one army
    return RecordPage(
        side, recording_refusal(battle, sides, side), agenda_service.picks_by_key(picks)
    )
