"""The campaign's map as its page draws it: territories, who holds them (now, or at the
end of a phase), and the battles fought over each; the map as its file; the territories
a battle may be fought over.

The queries do not depend on how many territories or battles there are: the holders at
the end of a phase come from `TerritoryChange` rows by subqueries, the newest battles of
each territory by a window."""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db.models import Count, Exists, F, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber

from campaign import maps
from campaign.models import Alliance, Battle, Campaign, Phase, Territory, TerritoryChange

NOBODY = "#9e9e9e"
"""The fill of a territory nobody holds."""
RADIUS = 40
HEIGHT = RADIUS * math.sqrt(3)
SCALE = 1.6
"""Pixels per unit of the drawing: a hex is 128 px wide and its names 14 px high at any
screen size (a map wider than the screen scrolls inside its frame)."""
LABEL_LINE = 11
"""Most characters on one line of a hex's name (two lines at most)."""
LINE_HEIGHT = 10.5
NEWEST_BATTLES = 3
"""Battles listed per territory in the map's table (newest first)."""


@dataclass
class Hex:
    territory: Territory
    holder: Alliance | None
    centre_x: float
    centre_y: float
    points: str
    colour: str
    ink: str
    label: list[str]

    @property
    def anchor(self) -> str:
        return territory_anchor(self.territory)

    @property
    def lines(self) -> list[tuple[str, float]]:
        """The name's lines with the height of each, centred on the hex."""
        top = self.centre_y - LINE_HEIGHT * (len(self.label) - 1) / 2
        return [(line, top + i * LINE_HEIGHT) for i, line in enumerate(self.label)]


@dataclass
class MapRow:
    territory: Territory
    holder: Alliance | None
    control: list[tuple[str, int]]
    borders: list[Territory]
    battles: list[BattleLink] = field(default_factory=list)
    battle_count: int = 0

    @property
    def anchor(self) -> str:
        return territory_anchor(self.territory)


@dataclass
class MapView:
    name: str
    description: str
    phase: Phase | None
    phases: list[Phase]
    hexes: list[Hex]
    rows: list[MapRow]
    legend: list[tuple[str, str]]
    width: float
    height: float
    control_threshold: int
    uses_control_points: bool

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width:.0f} {self.height:.0f}"

    @property
    def pixel_width(self) -> int:
        return round(self.width * SCALE)

    @property
    def pixel_height(self) -> int:
        return round(self.height * SCALE)


def territory_anchor(territory: Territory) -> str:
    """The id of a territory's row in the campaign page's map table."""
    return f"territory-{territory.key}"


def _hex_points(x: float, y: float) -> str:
    corners = (
        (x + RADIUS * math.cos(math.radians(a)), y + RADIUS * math.sin(math.radians(a)))
        for a in range(0, 360, 60)
    )
    return " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in corners)


def _centre(column: int, row: int) -> tuple[float, float]:
    """Flat-topped hexes in offset coordinates: odd columns sit half a hex lower."""
    x = RADIUS + column * 1.5 * RADIUS
    y = HEIGHT / 2 + row * HEIGHT + (HEIGHT / 2 if column % 2 else 0)
    return x, y


def _ink(colour: str) -> str:
    """Black or white text, whichever reads better on ``colour``."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


def _label(name: str) -> list[str]:
    """A territory's name in at most two short lines, cut with an ellipsis past that."""
    lines: list[str] = []
    for word in name.split():
        if lines and len(lines[-1]) + 1 + len(word) <= LABEL_LINE:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [line if len(line) <= LABEL_LINE else line[: LABEL_LINE - 1] + "…" for line in lines]


def _phase(campaign: Campaign, phase: int | str | None) -> Phase | None:
    try:
        position = int(phase) if phase not in (None, "") else None
    except (TypeError, ValueError):
        return None
    if position is None:
        return None
    return Phase.objects.filter(campaign=campaign, position=position).first()


def _as_of(territories, phase: Phase):
    """Annotate each territory with who held it at the end of ``phase``."""
    by_then = Q(phase__position__lte=phase.position)
    if phase.ended_at is not None:
        by_then |= Q(phase__isnull=True, created_at__lte=phase.ended_at)
    else:
        by_then |= Q(phase__isnull=True)
    changes = TerritoryChange.objects.filter(territory=OuterRef("pk"))
    before = changes.filter(by_then)
    after = changes.exclude(by_then)
    return territories.annotate(
        changed_by_then=Exists(before),
        held_then=Subquery(before.order_by("-created_at", "-pk").values("held_after")[:1]),
        changed_after=Exists(after),
        held_first_after=Subquery(after.order_by("created_at", "pk").values("held_before")[:1]),
    )


def _holder_id(territory: Territory, phase: Phase | None) -> int | None:
    if phase is None:
        return territory.held_by_id
    if territory.changed_by_then:
        return territory.held_then
    if territory.changed_after:
        return territory.held_first_after
    return territory.held_by_id


class BattleLink(NamedTuple):
    """A battle in the map's table: what its link shows."""

    pk: int
    battle_size: str
    date: datetime.date


def _newest_battles(campaign: Campaign) -> tuple[dict[int, list[BattleLink]], dict[int, int]]:
    """The newest battles fought over each territory, and how many there are in all: one
    query, the database numbering and counting each territory's battles."""
    fought = Battle.objects.filter(territory__campaign=campaign).exclude(
        status=Battle.Status.VOIDED
    )
    by_territory = [F("territory_id")]
    newest = (
        fought.annotate(
            place=Window(
                RowNumber(),
                partition_by=by_territory,
                order_by=[F("date").desc(), F("pk").desc()],
            ),
            fought_there=Window(Count("pk"), partition_by=by_territory),
        )
        .filter(place__lte=NEWEST_BATTLES)
        .order_by("territory_id", "place")
        .values_list("territory_id", "pk", "battle_size", "date", "fought_there")
    )
    battles: dict[int, list[BattleLink]] = {}
    counts: dict[int, int] = {}
    for territory, pk, size, date, count in newest:
        battles.setdefault(territory, []).append(BattleLink(pk, size, date))
        counts[territory] = count
    return battles, counts


def _borders(territories: list[Territory]) -> dict[int, list[Territory]]:
    """Each territory's neighbours, nearest the top left first, from the pairs of the
    borders' table (one query of numbers: the neighbours are territories of the same
    map, already read; one of another campaign's, which no service makes, is read too)."""
    by_pk = {territory.pk: territory for territory in territories}
    through = Territory.neighbours.through
    pairs = list(
        through.objects.filter(from_territory__in=list(by_pk)).values_list(
            "from_territory_id", "to_territory_id"
        )
    )
    strangers = {to for _, to in pairs if to not in by_pk}
    if strangers:
        by_pk.update({t.pk: t for t in Territory.objects.filter(pk__in=strangers)})
    borders: dict[int, list[Territory]] = {territory.pk: [] for territory in territories}
    for start, end in pairs:
        borders[start].append(by_pk[end])
    for shown in borders.values():
        shown.sort(key=lambda t: (t.row, t.column))
    return borders


def campaign_map(campaign: Campaign, phase: int | str | None = None) -> MapView | None:
    """The map the campaign page draws (None for a campaign without one): as it stands
    now, or as it stood at the end of the phase at position ``phase``."""
    then = _phase(campaign, phase)
    territories = Territory.objects.filter(campaign=campaign).order_by("row", "column")
    if then is not None:
        territories = _as_of(territories, then)
    territories = list(territories)
    if not territories:
        return None
    borders_of = _borders(territories)
    alliances = {a.pk: a for a in Alliance.objects.filter(campaign=campaign).order_by("name")}
    phases = list(
        Phase.objects.filter(campaign=campaign, ended_at__isnull=False).order_by("position")
    )
    battles, counts = _newest_battles(campaign)
    hexes, rows, held = [], [], set()
    for territory in territories:
        holder = alliances.get(_holder_id(territory, then))
        if holder is not None:
            held.add(holder.pk)
        colour = holder.colour if holder is not None else NOBODY
        x, y = _centre(territory.column, territory.row)
        hexes.append(
            Hex(
                territory,
                holder,
                x,
                y,
                _hex_points(x, y),
                colour,
                _ink(colour),
                _label(territory.name),
            )
        )
        control = [
            (alliances[int(pk)].name, points)
            for pk, points in sorted(territory.control_points.items())
            if then is None and int(pk) in alliances and points
        ]
        borders = borders_of[territory.pk]
        rows.append(
            MapRow(
                territory,
                holder,
                control,
                borders,
                battles.get(territory.pk, []),
                counts.get(territory.pk, 0),
            )
        )
    columns = max(t.column for t in territories)
    lines = max(t.row for t in territories)
    odd = any(t.column % 2 for t in territories)
    legend = [(a.name, a.colour) for a in alliances.values() if a.pk in held]
    legend.append(("Nobody", NOBODY))
    return MapView(
        name=campaign.map_name or "Map",
        description=campaign.map_description,
        phase=then,
        phases=phases,
        hexes=hexes,
        rows=rows,
        legend=legend,
        width=2 * RADIUS + columns * 1.5 * RADIUS,
        height=HEIGHT * (lines + 1) + (HEIGHT / 2 if odd else 0),
        control_threshold=campaign.control_threshold,
        uses_control_points=campaign.territory_rule == Campaign.TerritoryRule.CONTROL_POINTS,
    )


def map_file(campaign: Campaign) -> maps.CampaignMap:
    """The campaign's map as the format's dataclasses: what `services.import_map` reads
    back to the same map."""
    territories = list(
        Territory.objects.filter(campaign=campaign)
        .select_related("held_by")
        .prefetch_related("neighbours")
        .order_by("row", "column")
    )
    return maps.CampaignMap(
        format=maps.FORMAT,
        version=maps.VERSION,
        map=maps.MapHeader(campaign.map_name or campaign.name[:80], campaign.map_description),
        territories=tuple(
            maps.TerritoryEntry(
                id=t.key,
                name=t.name,
                description=t.description,
                column=t.column,
                row=t.row,
                neighbours=tuple(
                    n.key for n in sorted(t.neighbours.all(), key=lambda n: (n.row, n.column))
                ),
                held_by=t.held_by.name if t.held_by else None,
            )
            for t in territories
        ),
    )


def map_file_text(campaign: Campaign) -> str:
    return maps.map_text(map_file(campaign))


def territory_choices(campaign: Campaign | None) -> list[Territory]:
    """The territories a battle of ``campaign`` may be fought over, with who holds each."""
    if campaign is None:
        return []
    return list(
        Territory.objects.filter(campaign=campaign).select_related("held_by").order_by("name", "pk")
    )
