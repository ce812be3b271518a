"""Versions of what a page shows, for caching its long parts.

Every change to a force, its units or its campaign is a service call that writes history
rows, and the history writer (`services._common.write_history`) moves on, in the
change's own transaction, a `revision` on the rows it concerns: a force counts the
history rows that name it, a campaign those that name it and no force (members,
house rules, its own content). So what a page shows has a version that can be read from
the database with the page's own rows, and a fragment cached under it can never be
stale, in any process. Pages cache their long tables this way (`{% cache %}` keyed by a
version), so that looking again at a league's pages costs the same however large the
league: only a change makes the next look build the table again.

**A force's version** is its revision. Every change to a force holds the force's row
(locked, or updated), so its changes commit one after the other and the number names
one state exactly. It comes with the force: the Order of Battle asks nothing more.

**A campaign's version** is its own revision and the sum of its forces'. A number on the
campaign's row that every change moved on would make every change in the league wait for
the one before it; the sum costs no such wait. It still names one state: a change that
commits adds to it, and what a query sees of committed changes only ever grows (two
changes to two forces can commit in the other order than they began, and a page may see
the later one first, but it cannot see the earlier one and then not see it). So a sum
seen once is never seen again for another state. It is read in the campaign's own query
(`campaigns_with_versions`), a sum over the campaign's forces by their index.

**The map's version** leaves the forces out: a change to a force (a Requisition, a card)
changes nothing on the map, which shows the campaign's own rows (its territories, who
holds them, their control points, the alliances and phases: every change to them writes
a history row that names the campaign and no force) and the battles fought over its
territories (a battle is only ever fought over its own campaign's). Those battles are
named by the number of the campaign's newest battle over a territory and how many of its
battles were voided: a new battle has a higher number than any before it, a void is
never undone, and what the map shows of a battle (its size, date and territory) is set
when it starts, so the pair moves with every change to the set. A battle over no
territory leaves the map as it was, whether it starts or ends. Both come in the
campaign's query, by the battles' indexes (`map_versions`).

**The results' version** names what the campaign's completed battles scored: the wins
chart and the alliances' standings show only that (and the names of what they count). It
is how many of the campaign's battles were completed and how many voided: a side's result
and points are set when its battle completes and never changed after, a void moves a
battle out of the completed ones (or out of those being played) and is never undone. So
the voids only grow, and with them fixed the completed ones only grow: the pair never
names two states, and a battle that starts leaves it be. Both come in the same query
(`map_versions`).

**A battle's version** names what its page shows of its sides as they play it: each
side's answer, army and record, and the battle's status. Every change to a side, or to
the battle, is a service call that writes a history row naming the force of each side it
changes (`services.invitations`, `muster`, `battles`, `blessings`, `void`), so the sum
of the revisions of the battle's forces moves on with each of them, and only grows: a
battle's sides are all made when it starts. With the status, it names one state of the
page's sides (a change to one of the forces elsewhere, say a card renamed, moves it on
too: the page shows the cards' names). It is read in one query by the index on the
battle's sides (`battles_with_versions`), the access check with it, so a page that asks
every few seconds whether its battle changed costs one query while nothing did.

**A player's waiting things' version** names the dashboard's *Waiting for you*: the
battles their forces are in (each side's answer, army and record), their Out of Action
tests and promotions. It is two sums: the revisions of the player's forces, and those of
the other forces in the battles theirs are in, not yet over. Every change to what the
list shows writes a history row naming one of those forces, and every change to which
battles are in it (an invitation, a battle's end, a withdrawal) names the player's own
force, so the first sum moves whenever the second one's forces change: with the first
fixed the second only grows, and the pair never names two states
(`waiting_versions`, one query).
"""

from __future__ import annotations

import functools
import hashlib
import operator
from collections.abc import Callable
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.db.models import (
    Count,
    OuterRef,
    PositiveBigIntegerField,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce

from campaign.models import Battle, BattleParticipant, Campaign, CrusadeForce
from campaign.prepared import Prepared

FRAGMENT_SECONDS = 600
"""How long a cached fragment lives: shorter than a picture's signed address in a bucket,
and long enough for the players at a table to look again and again."""


def kept(
    key: str,
    build: Callable[[], Any],
    *,
    keep: Callable[[Any], bool] = lambda value: True,
    alias: str = DEFAULT_CACHE_ALIAS,
) -> Any:
    """What cache ``alias`` keeps under ``key``, else what ``build`` makes, kept for
    `FRAGMENT_SECONDS` when ``keep`` says. The key names a version of everything the value
    shows (the revisions above), so a kept copy is right or never asked for. None is
    never kept (it is what a miss reads as): build False for "nothing"."""
    store = caches[alias]
    value = store.get(key)
    if value is None:
        value = build()
        if value is not None and keep(value):
            store.set(key, value, FRAGMENT_SECONDS)
    return value


def campaigns_with_versions(campaigns: QuerySet[Campaign]) -> QuerySet[Campaign]:
    """Campaigns with ``forces_revision``, the sum of their forces' revisions, in the same
    query as the campaigns."""
    forces = CrusadeForce.objects.filter(campaign=OuterRef("pk")).order_by().values("campaign")
    total = forces.annotate(total=Sum("revision")).values("total")
    return campaigns.annotate(
        forces_revision=Coalesce(
            Subquery(total, output_field=PositiveBigIntegerField()),
            Value(0),
            output_field=PositiveBigIntegerField(),
        )
    )


def campaign_version(campaign: Campaign) -> str:
    """The version of what the campaign's page shows (``campaign`` comes from
    `campaigns_with_versions`)."""
    return f"{campaign.revision}-{campaign.forces_revision}"


def map_versions(campaigns: QuerySet[Campaign]) -> QuerySet[Campaign]:
    """Campaigns with ``newest_fought_over`` (the number of their newest battle over a
    territory, 0 without any), ``voided_battles``, ``completed_battles`` and
    ``open_battles`` (how many of their battles were voided, completed, and are still
    being played), in the campaigns' own query. The counts are of rows (``COUNT(*)``),
    which PostgreSQL can read from the battles' index on their campaign and status alone;
    the newest battle over a territory comes from an index of those battles alone."""
    battles = Battle.objects.filter(campaign=OuterRef("pk")).order_by().values("campaign")

    def counted(*statuses: str) -> CombinedExpression | Coalesce:
        """How many of the campaign's battles have one of ``statuses``: a count for each,
        by the index on the battles' campaign and status (for "one of these", PostgreSQL's
        plan for any values read every battle of the league)."""
        counts = (
            Coalesce(
                Subquery(battles.filter(status=status).annotate(n=Count("*")).values("n")),
                Value(0),
            )
            for status in statuses
        )
        return functools.reduce(operator.add, counts)

    return campaigns.annotate(
        newest_fought_over=Coalesce(
            Subquery(battles.filter(territory__isnull=False).order_by("-pk").values("pk")[:1]),
            Value(0),
        ),
        voided_battles=counted(Battle.Status.VOIDED),
        completed_battles=counted(Battle.Status.COMPLETED),
        open_battles=counted(*Battle.OPEN_STATUSES),
    )


def map_version(campaign: Campaign) -> str:
    """The version of the campaign's map (``campaign`` comes from `map_versions`)."""
    return f"{campaign.revision}-{campaign.newest_fought_over}-{campaign.voided_battles}"


def results_version(campaign: Campaign) -> str:
    """The version of what the campaign's completed battles scored (``campaign`` comes
    from `map_versions`)."""
    return f"{campaign.completed_battles}-{campaign.voided_battles}"


def summed(values: QuerySet, column: str) -> Coalesce:
    """The sum of ``column`` over ``values`` (grouped into one row), 0 for none, as a
    subquery."""
    return Coalesce(
        Subquery(values.annotate(total=Sum(column)).values("total")),
        Value(0),
        output_field=PositiveBigIntegerField(),
    )


def battles_with_versions(battles: QuerySet[Battle]) -> QuerySet[Battle]:
    """Battles with ``forces_revision``, the sum of their sides' forces' revisions, in the
    battles' own query (a force has one side in a battle at most)."""
    sides = BattleParticipant.objects.filter(battle=OuterRef("pk")).order_by().values("battle")
    return battles.annotate(forces_revision=summed(sides, "force__revision"))


def sides_with_versions(sides: QuerySet[BattleParticipant]) -> QuerySet[BattleParticipant]:
    """Sides with ``battle_forces_revision``, what `battles_with_versions` gives their
    battle, in the sides' own query."""
    all_sides = BattleParticipant.objects.filter(battle=OuterRef("battle_id")).order_by()
    return sides.annotate(
        battle_forces_revision=summed(all_sides.values("battle"), "force__revision")
    )


def side_battle_version(side: BattleParticipant) -> str:
    """`battle_version` of a side's battle (``side`` from `sides_with_versions`)."""
    return f"{side.battle.status}-{side.battle_forces_revision}"


def battle_version(battle: Battle) -> str:
    """The version of what a battle's page shows of its sides (``battle`` comes from
    `battles_with_versions`)."""
    return f"{battle.status}-{battle.forces_revision}"


def _waiting_versions(user: int) -> QuerySet:
    from django.contrib.auth import get_user_model

    one_row = Value(1)
    mine = CrusadeForce.objects.filter(player_id=user).order_by().annotate(row=one_row)
    battles = BattleParticipant.objects.filter(BattleParticipant.in_play(), force__player=user)
    others = BattleParticipant.objects.filter(battle__in=battles.values("battle_id"))
    theirs = (
        CrusadeForce.objects.filter(pk__in=others.values("force_id"))
        .exclude(player_id=user)
        .order_by()
        .annotate(row=one_row)
    )
    return (
        get_user_model()
        .objects.filter(pk=user)
        .annotate(
            mine=summed(mine.values("row"), "revision"),
            theirs=summed(theirs.values("row"), "revision"),
        )
        .values_list("mine", "theirs")
        .order_by()
    )


WAITING_VERSIONS = Prepared(_waiting_versions, user=int)


def waiting_versions(user, rows: list | None = None) -> tuple[int, int]:
    """(the revisions of the player's forces, those of the other forces in the battles
    theirs are in and that are not over), in one query (compiled once:
    `campaign.prepared`); ``rows``: what `WAITING_VERSIONS` read, when read already."""
    if rows is None:
        rows = WAITING_VERSIONS.fetch(user=user.pk)
    return rows[0] if rows else (0, 0)


def digest(*shown) -> str:
    """A short name for what a fragment shows (its own values, so never another state)."""
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:32]
