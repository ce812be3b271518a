"""The Order of Battle's cards as plain rows: read as values, not as model instances.

The units table has a row per card, and building 200 `Unit` instances with their
honours, scars, promotions and upgrades cost more than the rows they brought. The cards
are read by the force in one query of the columns the table shows, what they hold and
wait for in one more (`_details`), and what a row needs (rank, Crusade points, what
waits for it) is worked out once here.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from functools import lru_cache

from django.db.models import CharField, F, IntegerField, Value
from django.db.models.functions import Cast

from campaign import rules
from campaign.models import BattleHonour, BattleScar, CrusadeForce, OutOfActionTest, Unit
from campaign.models.forces import KEYWORD_FIELDS, card_prefetches
from campaign.prepared import Prepared, fetch_together

HONOUR_LABELS = dict(BattleHonour._meta.get_field("category").flatchoices)


@dataclass(frozen=True, slots=True)
class HonourBadge:
    name: str
    category: str
    relic_category: str

    def get_category_display(self) -> str:
        return str(HONOUR_LABELS.get(self.category, self.category))


@dataclass(frozen=True, slots=True)
class ScarBadge:
    name: str


@dataclass(slots=True)
class CardRow:
    """One card as the Order of Battle shows it (the attributes `order_of_battle_row`
    and `unit_badges` read of a `Unit`), and as the muster form lists it (its keywords,
    Crusade points and what waits for it)."""

    pk: int
    name: str
    datasheet: str
    points: int
    xp: int
    thumbnail: str
    counts_towards_supply: bool
    legendary_veteran: bool
    no_xp: bool
    is_titanic: bool
    agenda_tally: int
    honours: list[HonourBadge]
    scars: list[ScarBadge]
    upgrade_points: list[int]
    pending_promotion_pks: list[int]
    pending_test_pks: list[int]
    keywords: frozenset[rules.Keyword] = frozenset()

    is_active = True
    """Only active cards are rows (the removed ones are `RemovedCard`s)."""

    @property
    def is_character(self) -> bool:
        return rules.Keyword.CHARACTER in self.keywords

    @property
    def is_dedicated_transport(self) -> bool:
        return rules.Keyword.DEDICATED_TRANSPORT in self.keywords

    @property
    def rank(self) -> rules.Rank:
        return _rank(self.xp)

    @property
    def xp_display(self) -> str:
        return "N/A" if self.no_xp else str(self.xp)

    def active_honours(self) -> list[HonourBadge]:
        return self.honours

    def active_scars(self) -> list[ScarBadge]:
        return self.scars

    @property
    def crusade_points(self) -> int:
        return _crusade_points(
            tuple((h.category, h.relic_category) for h in self.honours),
            len(self.scars),
            self.is_titanic,
            tuple(self.upgrade_points),
        )


# The rules' answers for a row, asked once a process for each XP and each card's honours,
# scars and upgrades: a table of 200 rows asks the same few questions again and again.
_rank = lru_cache(maxsize=512)(rules.rank_for_xp)


@lru_cache(maxsize=1024)
def _crusade_points(
    honours: tuple[tuple[str, str], ...], scars: int, titanic: bool, upgrades: tuple[int, ...]
) -> int:
    return rules.card_crusade_points(
        honours=honours, scars=scars, titanic=titanic, upgrades=upgrades
    )


@dataclass(frozen=True, slots=True)
class RemovedCard:
    pk: int
    name: str
    datasheet: str
    removed_at: object
    removed_reason: str


ROW_FIELDS = (
    "pk",
    "name",
    "datasheet",
    "points",
    "xp",
    "thumbnail",
    "counts_towards_supply",
    "legendary_veteran",
    "agenda_tallies",
    "status",
    "removed_at",
    "removed_reason",
    *(field for _, field in KEYWORD_FIELDS),
)


KINDS = HONOUR, SCAR, PROMOTION, UPGRADE, TEST = range(5)
"""What a row of `_details` is about."""


def _details(rows: list[tuple]) -> dict[int, dict[int, list[tuple]]]:
    """What each active card of the force holds or waits for (``rows``, the force's
    `_DETAILS`), by kind (`HONOUR` ...) and card, as (key, three texts, a number): its
    active honours (name, category, relic category), scars (name), pending promotions
    and open Out of Action tests (their keys) and active upgrades (their Crusade
    points), each kind in the order its model lists it (when gained or raised, then by
    key).

    One query, compiled once (`campaign.prepared`): on the first look after a change,
    building the five queries' SQL cost far more than running them."""
    found: dict[int, dict[int, list[tuple]]] = {kind: {} for kind in KINDS}
    for kind, unit_id, _, key, a, b, c, number in rows:
        found[int(kind)].setdefault(unit_id, []).append((key, a, b, c, number))
    return found


def _details_query(force: int):
    """`_details` as a query: the five kinds' rows, one after the other."""
    prefetched = {p.to_attr: p.queryset for p in card_prefetches()}
    kinds = {
        HONOUR: (
            prefetched["active_honour_list"],
            "gained_at",
            ("name", "category", "relic_category"),
        ),
        SCAR: (BattleScar.objects.filter(status=BattleScar.Status.ACTIVE), "gained_at", ("name",)),
        PROMOTION: (prefetched["pending_promotion_list"], "created_at", ()),
        UPGRADE: (prefetched["active_upgrade_list"], "gained_at", ()),
        TEST: (OutOfActionTest.objects.open(), "created_at", ()),
    }
    # Typed NULLs: PostgreSQL takes a bare NULL of a union's first branches for text.
    no_text = Cast(Value(None), output_field=CharField())
    branches = []
    for kind, (queryset, at, texts) in kinds.items():
        text = [F(name) for name in texts] + [no_text] * (3 - len(texts))
        number = (
            F("crusade_points")
            if kind == UPGRADE
            else Cast(Value(None), output_field=IntegerField())
        )
        branches.append(
            queryset.filter(unit__force_id=force)
            .order_by()
            .annotate(
                detail_kind=Value(kind, output_field=IntegerField()),
                detail_unit=F("unit_id"),
                detail_at=F(at),
                detail_key=F("pk"),
                detail_a=text[0],
                detail_b=text[1],
                detail_c=text[2],
                detail_number=number,
            )
            .values_list(*DETAIL_COLUMNS)
        )
    first, *others = branches
    return first.union(*others, all=True).order_by("detail_kind", "detail_at", "detail_key")


DETAIL_COLUMNS = (
    "detail_kind",
    "detail_unit",
    "detail_at",
    "detail_key",
    "detail_a",
    "detail_b",
    "detail_c",
    "detail_number",
)
_DETAILS = Prepared(_details_query, force=int)


_CARDS = Prepared(
    lambda force: Unit.objects.filter(force_id=force).order_by("name", "pk").values(*ROW_FIELDS),
    force=int,
)
"""A force's cards, as plain values, compiled once (`campaign.prepared`)."""


def read_cards(force: CrusadeForce) -> tuple[list[dict], list[tuple]]:
    """What `cards_from` builds the force's rows from: its cards' values and what they
    hold and wait for, in two queries whatever the force's size (sent together)."""
    units, detail_rows = fetch_together(
        (_CARDS, {"force": force.pk}), (_DETAILS, {"force": force.pk})
    )
    return units, detail_rows


def cards_digest(read: tuple[list[dict], list[tuple]]) -> str:
    """A digest of everything `read_cards` read: equal digests, equal rows. A page keeps
    what it built of the rows under it, so a change to the force that leaves every card
    as it was (its goals, RP, a Supply Limit bought) finds the rows already built."""
    return hashlib.blake2b(pickle.dumps(read, protocol=5), digest_size=16).hexdigest()


def order_of_battle_cards(force: CrusadeForce) -> tuple[list[CardRow], list[RemovedCard]]:
    """The force's active cards by name (with their badges and what waits for each) and
    its removed ones, in two queries whatever the force's size (sent together)."""
    return cards_from(*read_cards(force))


def cards_from(
    units: list[dict], detail_rows: list[tuple]
) -> tuple[list[CardRow], list[RemovedCard]]:
    """The rows of `read_cards`'s values: the active cards and the removed ones."""
    if not units:
        return [], []
    details = _details(detail_rows)
    honours, scars, promotions = details[HONOUR], details[SCAR], details[PROMOTION]
    upgrades, tests = details[UPGRADE], details[TEST]
    storage = Unit._meta.get_field("thumbnail").storage
    rows, removed = [], []
    for unit in units:
        pk = unit["pk"]
        if unit["status"] != Unit.Status.ACTIVE:
            removed.append(
                RemovedCard(
                    pk, unit["name"], unit["datasheet"], unit["removed_at"], unit["removed_reason"]
                )
            )
            continue
        thumbnail = unit["thumbnail"]
        keywords = frozenset(keyword for keyword, field in KEYWORD_FIELDS if unit[field])
        rows.append(
            CardRow(
                pk=pk,
                name=unit["name"],
                datasheet=unit["datasheet"],
                points=unit["points"],
                xp=unit["xp"],
                thumbnail=storage.url(thumbnail) if thumbnail else "",
                counts_towards_supply=unit["counts_towards_supply"],
                legendary_veteran=unit["legendary_veteran"],
                no_xp=not keywords.isdisjoint(rules.NO_XP_KEYWORDS),
                is_titanic=rules.Keyword.TITANIC in keywords,
                agenda_tally=sum((unit["agenda_tallies"] or {}).values()),
                honours=[HonourBadge(h[1], h[2], h[3]) for h in honours.get(pk, ())],
                scars=[ScarBadge(s[1]) for s in scars.get(pk, ())],
                upgrade_points=[u[4] for u in upgrades.get(pk, ())],
                pending_promotion_pks=[p[0] for p in promotions.get(pk, ())],
                pending_test_pks=[t[0] for t in tests.get(pk, ())],
                keywords=keywords,
            )
        )
    return rows, removed
