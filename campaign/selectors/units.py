"""The Crusade card page."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, partial

from django.core.paginator import Page
from django.db.models import Count, prefetch_related_objects

from campaign import rules, services
from campaign.models import (
    BattleHonour,
    BattleScar,
    CrusadeForce,
    HistoryEntry,
    OutOfActionTest,
    Promotion,
    RequisitionPurchase,
    Unit,
    card_prefetches,
)
from campaign.prepared import Prepared, fetch_together

from .agendas import CardAgendas, card_agendas
from .charts import XP_BATTLES, XpBattle, XpHistory, xp_battles, xp_history
from .counters import PackSection, card_pack_reads, card_pack_section
from .history_lines import history_page, history_rows
from .labels import keyword_labels
from .versions import digest

TIMELINE_PER_PAGE = 20


@dataclass(frozen=True)
class HonourRow:
    honour: BattleHonour
    kind: str
    """The honour's category, and its relic category or traits table when it has one."""
    modifications: list[tuple[str, str]]
    """Weapon Modifications as (name, short effect)."""

    @property
    def is_relic(self) -> bool:
        return self.honour.category == rules.HonourCategory.CRUSADE_RELIC


def honour_rows(unit: Unit) -> list[HonourRow]:
    rows = []
    for honour in unit.active_honours():
        kind = [rules.HonourCategory(honour.category).label]
        if honour.relic_category:
            kind.append(rules.RelicCategory(honour.relic_category).label)
        if honour.trait_table:
            kind.append(honour.trait_table)
        modifications = [
            (name, rules.WEAPON_MODIFICATION_EFFECTS.get(name, ""))
            for name in honour.modifications or []
        ]
        rows.append(HonourRow(honour, " · ".join(kind), modifications))
    return rows


# The card page's lists, compiled once (`campaign.prepared`): the same rows, in the same
# order, as the card's relations and `card_prefetches` give.
@cache
def _card_lists() -> tuple[tuple[str, Prepared], ...]:
    return tuple(
        (wanted.to_attr, Prepared(partial(_filtered, wanted.queryset), unit=int))
        for wanted in card_prefetches()
    )


def _filtered(queryset, unit: int):
    return queryset.filter(unit=unit)


_OPEN_TESTS = Prepared(lambda unit: OutOfActionTest.objects.open().filter(unit=unit), unit=int)
_PURCHASES = Prepared(lambda unit: RequisitionPurchase.objects.filter(unit=unit), unit=int)
_HISTORY_COUNT = Prepared(
    lambda unit: (
        HistoryEntry.objects.filter(unit=unit)
        .order_by()
        .values("unit")
        .annotate(n=Count("*"))  # rows, from the index on the card alone
        .values_list("n", flat=True)
    ),
    unit=int,
)
_HISTORY_FIRST_PAGE = Prepared(
    lambda unit: history_rows(HistoryEntry.objects.filter(unit=unit))[:TIMELINE_PER_PAGE],
    unit=int,
)


def _of_card(query: Prepared, unit: Unit, rows: list | None = None) -> list:
    """``query``'s rows for ``unit`` (or ``rows``, what it read already), each knowing its
    card (as through the relation)."""
    if rows is None:
        rows = query.fetch(unit=unit.pk)
    for row in rows:
        row.unit = unit
    return rows


@dataclass(frozen=True)
class CardPage:
    """What the card page shows. Only what its cache key needs is read when it is made
    (the card, with its force and campaign, and whether the force is in a battle); the
    rest is read when the page is built, not when it comes from the cache."""

    unit: Unit
    can_write: bool
    in_battle: bool = False
    """Whether the force is in a battle that is not over (asked once for the page)."""
    page: int | str | None = None
    """The page of the timeline asked for."""

    @property
    def force(self) -> CrusadeForce:
        return self.unit.force

    @property
    def version(self) -> int:
        """The force's revision: every change to the card writes a history row naming the
        force, so the page caches its parts that hold no form under it."""
        return self.force.revision

    @property
    def page_version(self) -> str:
        """What the page's parts that hold no form depend on beside the card: the force's
        revision and its campaign's (a change to either writes a history row that moves
        it on, `selectors.versions`), whether the force is in a battle (its Requisitions'
        refusals), and whether the viewer may change the card (the Buy links)."""
        campaign = self.force.campaign
        campaign_revision = campaign.revision if campaign is not None else 0
        return f"{self.version}-{campaign_revision}-{int(self.in_battle)}-{int(self.can_write)}"

    @cached_property
    def _built(self) -> dict[str, list]:
        """What building the page reads of the card, read together (`fetch_together`: one
        round trip on PostgreSQL, where it was one a read): its lists, its XP battles, its
        open tests and purchases, its timeline's count and first page, the force's other
        Enhancements (its Requisitions' costs) and its pack state."""
        unit = {"unit": self.unit.pk}
        reads = {to_attr: (query, unit) for to_attr, query in _card_lists()}
        if not self.unit.no_xp:
            reads["xp"] = (XP_BATTLES, unit)
        reads.update(
            tests=(_OPEN_TESTS, unit),
            purchases=(_PURCHASES, unit),
            history_count=(_HISTORY_COUNT, unit),
            enhancements=services.other_enhancements_read(self.unit),
            **card_pack_reads(self.unit),
        )
        if self._first_page:
            reads["history_first_page"] = (_HISTORY_FIRST_PAGE, unit)
        return dict(zip(reads, fetch_together(*reads.values()), strict=True))

    def _read(self, name: str) -> list | None:
        """What `_built` read under ``name``, when the page is being built; else None
        (a part built alone, its other parts found in the cache, reads its own)."""
        built = self.__dict__.get("_built")
        return None if built is None else built.get(name)

    @property
    def _first_page(self) -> bool:
        return str(self.page or 1) == "1"

    @cached_property
    def detailed_unit(self) -> Unit:
        """The card with its honours, scars, upgrades and pending promotions, asked once
        for the page and only when it is built (the page's cached parts show the card as
        this), with the rest of what building it reads (`_built`). Each list is read as
        the prefetch would, for this one card, without the prefetch's machinery for many
        (a third of their time)."""
        unit = self.unit
        built = self._built
        for to_attr, _query in _card_lists():
            setattr(unit, to_attr, built[to_attr])
        return unit

    @cached_property
    def progress(self) -> rules.RankProgress | None:
        """Progress towards the next rank; None for a unit that never gains XP."""
        unit = self.detailed_unit
        return None if unit.no_xp else rules.rank_progress(unit.xp, xp_cap=unit.facts().xp_cap)

    @cached_property
    def honours(self) -> list[HonourRow]:
        return honour_rows(self.detailed_unit)

    @cached_property
    def scars(self) -> list[BattleScar]:
        return self.detailed_unit.active_scars()

    @cached_property
    def keywords(self) -> list[str]:
        return keyword_labels(self.unit)

    @cached_property
    def trait_tables(self) -> list[rules.TraitTable]:
        """The Battle Traits tables that fit the unit."""
        return rules.fitting_trait_tables(self.unit.keywords)

    @cached_property
    def pending_promotions(self) -> list[Promotion]:
        return self.detailed_unit.pending_promotions()

    @cached_property
    def pending_tests(self) -> list[OutOfActionTest]:
        return _of_card(_OPEN_TESTS, self.unit, self._read("tests"))

    @cached_property
    def requisitions(self) -> list[services.RequisitionOption]:
        unit = self.detailed_unit
        return services.requisition_options(
            unit.force,
            unit=unit,
            in_battle=self.in_battle,
            enhancements_counted=self._read("enhancements"),
        )

    @cached_property
    def timeline(self) -> Page:
        """A page of the card's history (`HistoryLine`s)."""
        unit = self.unit.pk
        counts = self._read("history_count")
        if counts is None:
            counts = _HISTORY_COUNT.fetch(unit=unit)
        first = self._read("history_first_page")
        return history_page(
            self.unit.history.all,
            self.page,
            per_page=TIMELINE_PER_PAGE,
            count=counts[0] if counts else 0,
            first_page=partial(_HISTORY_FIRST_PAGE.fetch, unit=unit)
            if first is None
            else partial(list, first),
        )

    @cached_property
    def agendas(self) -> CardAgendas | None:
        """Its Agenda tallies."""
        return card_agendas(self.unit)

    @cached_property
    def purchases(self) -> list[RequisitionPurchase]:
        """The Requisitions bought for the unit: read only when the card's details are
        built, not when they come from the cache."""
        return _of_card(_PURCHASES, self.unit, self._read("purchases"))

    @cached_property
    def _xp_battles(self) -> tuple[list[XpBattle], bool] | None:
        return xp_battles(self.unit, self._read("xp"))

    @property
    def chart_key(self) -> str:
        """What the XP chart is cached under, inside the page's fragment: the very values
        it draws (its battles, their XP, and the card's name and XP cap), so a change to
        the card that the chart does not show (its notes, an honour) draws it not again."""
        unit = self.unit
        shown = (unit.name, unit.is_character, unit.legendary_veteran)
        return digest(shown, self._xp_battles)

    @cached_property
    def xp_history(self) -> XpHistory | None:
        """The unit's XP over its battles (a chart), when it has fought any: drawn only
        when the chart is built, not when it comes from the cache."""
        return xp_history(self.unit, self._xp_battles)

    @cached_property
    def packs(self) -> PackSection | None:
        """The card's pack counters, upgrades and pack Requisitions (None without any)."""
        read = {name: self._read(name) for name in ("pack_purchases", "held")}
        return card_pack_section(self.unit, in_battle=self.in_battle, read=read)

    @property
    def manageable(self) -> bool:
        """The player may still change the card (a removed card never changes)."""
        return self.can_write and self.unit.is_active


def card_page(unit: Unit, *, can_write: bool = False, page: int | str | None = None) -> CardPage:
    """Everything the card page shows, in the same number of queries for any card: none
    when its parts come from the cache and ``unit`` says whether its force is in a battle
    (``force_in_battle``, as `access.get_unit_for_user` reads it), else one."""
    in_battle = getattr(unit, "force_in_battle", None)
    if in_battle is None:
        in_battle = unit.force.in_battle()
    return CardPage(unit=unit, can_write=can_write, in_battle=bool(in_battle), page=page)


def requisition_option(unit: Unit, requisition: rules.Requisition) -> services.RequisitionOption:
    """One unit Requisition as the player sees it: its cost now and why it can't be bought."""
    prefetch_related_objects([unit], *card_prefetches())
    options = services.requisition_options(unit.force, unit=unit)
    return next(option for option in options if option.requisition == requisition)
