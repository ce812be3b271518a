"""Seed a Crusade league through the services, the same way every time.

A `Scale` says how big the league is. `seed` builds it with `moves` (so through the
services, with every history row a real game leaves), from one seeded random
generator: the same scale gives the same league, down to the dice.
"""

from __future__ import annotations

import datetime
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.migrations.loader import MigrationLoader
from django.db.models import Max, Min

from campaign import models, rules, services
from campaign.maps.grid import Place, grid_map

from . import moves
from .rosters import (
    AGENDAS,
    FACTIONS,
    MISSIONS,
    PLAYER_NAMES,
    TAU,
    ULTRAMARINES,
    Faction,
    UnitNamer,
    force_composition,
    ordinal,
    roman,
)

SEED_VERSION = 4
RECORD_MISSION = "Vital Ground"
"""The battle left in progress, both sides mustered: the record form's subject."""
MUSTER_MISSION = "Muster Call"
"""The battle just started, its starter's army still to muster: the muster form's subject."""
BENCH_MISSION = "Proving Ground"
"""The mission of the battles the measurements add (left in the database): a kept
league is still complete with them."""
"""Part of every seeded campaign's description; bump it when the seed changes, so that
`bench --reuse` seeds again instead of measuring a league built the old way."""

BASELINE_BATTLES = 20
"""The "small campaign" the size-independent pages are compared with."""
ORGANISER = "organiser"
SEASON_START = datetime.date(2025, 1, 4)
BATTLES_PER_TRANSACTION = 25

SECTORS = ["Ashfall", "Bastion", "Cinder", "Dross", "Ember", "Forge", "Gallow", "Helix"]
REGIONS = ["Reach", "Spire", "Wastes", "Docks", "Gate", "Deep"]
STORY = (
    "The {force} went in at dawn. **{mission}** was the order, and nobody asked twice.\n\n"
    "- the guns spoke first\n- the line held\n- the survivors counted the cost\n\n"
    "> Remember the fallen, and paint the next banner.\n\n"
    "What the *{force}* took that day, they mean to keep."
)

Progress = Callable[[str], None]
WIN, LOSS, DRAW = (
    models.BattleParticipant.Result.WIN,
    models.BattleParticipant.Result.LOSS,
    models.BattleParticipant.Result.DRAW,
)


@dataclass(frozen=True)
class Scale:
    """How big a league to seed. Forces and units include the Order of Battle forces."""

    name: str
    campaign: str
    forces: int
    units: int
    battles: int
    """Completed battles; one more is left in progress, for the record form."""
    order_of_battle_sizes: tuple[int, ...] = (50, 200)
    """Forces of exactly these many units, for the Order of Battle targets."""
    army_size: int = 10
    phases: int = 5
    """The season's phases, played one after another through its battles."""
    map_columns: int = 10
    map_rows: int = 5
    """The campaign map: a territory on every hex of the grid (50)."""
    battles_per_story: int = 4
    """A log entry by the winner of every fourth battle (500 in 2,000 battles)."""

    @property
    def description(self) -> str:
        """Also the mark `seeded_campaign` looks for: a league seeded by another version of
        the seed, or before a model change, is not reused."""
        return (
            f"A league for a whole gaming group: {self.forces} forces, {self.units:,} units, "
            f"{self.battles:,} battles. Seeded by manage.py bench (seed v{SEED_VERSION}, "
            f"schema {_latest_migration()})."
        )

    def at_start_of_season(self, battles: int = BASELINE_BATTLES) -> Scale:
        """The same league after its first `battles` battles only: the pages' baseline.

        The seed depends on the campaign, not on the number of battles, so both leagues
        have the same players, forces and units, and the same first battles.
        """
        return replace(self, name=f"{self.name}-at-{battles}", battles=battles)

    def force_sizes(self) -> list[int]:
        """Units per force: the Order of Battle forces first, then the rest shared out."""
        fixed = list(self.order_of_battle_sizes)
        others = self.forces - len(fixed)
        share, extra = divmod(self.units - sum(fixed), others)
        return fixed + [share + (1 if i < extra else 0) for i in range(others)]


LEAGUE = Scale("league", "The Pariah Nexus League", forces=100, units=5_000, battles=2_000)
SMALL = Scale("small", "The Kharos Gate League", forces=5, units=310, battles=25)
SCALES = {scale.name: scale for scale in (SMALL, LEAGUE)}

ORDER_OF_BATTLE_FACTIONS = {50: ULTRAMARINES, 200: TAU}
"""Factions whose cheap datasheets let those forces muster 30-unit armies."""


@dataclass
class SeedReport:
    campaign: models.Campaign
    seconds: float
    reused: bool
    counts: dict[str, int]


def seeded_campaign(scale: Scale) -> models.Campaign | None:
    """The campaign a complete earlier seed of this scale left in the database, if any."""
    campaign = models.Campaign.objects.filter(
        name=scale.campaign, description=scale.description
    ).first()
    if campaign is None:
        return None
    seeded = campaign.battles.exclude(mission=BENCH_MISSION)
    battles = Counter(seeded.values_list("status", flat=True))
    complete = (
        battles[models.Battle.Status.COMPLETED] == scale.battles
        and battles[models.Battle.Status.IN_PROGRESS] == 2  # to record, to muster
    )
    return campaign if complete else None


def reuse(campaign: models.Campaign) -> SeedReport:
    """Report on a league seeded by an earlier run; its seeding time is read from history."""
    span = campaign.history.aggregate(first=Min("created_at"), last=Max("created_at"))
    seconds = (span["last"] - span["first"]).total_seconds()
    return SeedReport(campaign, seconds, True, league_counts(campaign))


def seed(scale: Scale, *, progress: Progress) -> SeedReport:
    """Build the league of `scale` in an empty database."""
    started = time.perf_counter()
    campaign = LeagueBuilder(scale, progress=progress, started=started).build()
    return SeedReport(campaign, time.perf_counter() - started, False, league_counts(campaign))


def league_counts(campaign: models.Campaign) -> dict[str, int]:
    """How much there is to show: the numbers the targets are stated at."""
    units = models.Unit.objects.filter(force__campaign=campaign)
    return {
        "forces": campaign.forces.count(),
        "units": units.count(),
        "units_removed": units.filter(status=models.Unit.Status.REMOVED).count(),
        "battles": campaign.battles.count(),
        "battle_units": models.BattleUnit.objects.filter(
            participant__battle__campaign=campaign
        ).count(),
        "destroyed": models.BattleUnit.objects.filter(
            participant__battle__campaign=campaign, destroyed=True
        ).count(),
        "out_of_action_tests": models.OutOfActionTest.objects.filter(unit__in=units).count(),
        "promotions": models.Promotion.objects.filter(unit__in=units).count(),
        "battle_honours": models.BattleHonour.objects.filter(unit__in=units).count(),
        "battle_scars": models.BattleScar.objects.filter(unit__in=units).count(),
        "history": models.HistoryEntry.objects.filter(campaign=campaign).count(),
        "phases": campaign.phases.count(),
        "territories": campaign.territories.count(),
        "log_entries": campaign.log_entries.count(),
    }


def pick_army(units: Sequence[models.Unit], *, size: int, points_limit: int) -> list[models.Unit]:
    """Up to `size` units, in the order given, that make a legal army.

    The first CHARACTER comes first and is the Warlord; a datasheet appears at most
    three times (six if BATTLELINE or DEDICATED TRANSPORT), within the points limit.
    """
    warlord = next(u for u in units if u.is_character)
    army, points = [warlord], warlord.points
    per_datasheet = Counter({warlord.datasheet: 1})
    for unit in units:
        if len(army) >= size:
            break
        roomy = unit.is_battleline or unit.is_dedicated_transport
        allowed = rules.MAX_SAME_DATASHEET_BATTLELINE if roomy else rules.MAX_SAME_DATASHEET
        if (
            unit is warlord
            or per_datasheet[unit.datasheet] >= allowed
            or points + unit.points > points_limit
        ):
            continue
        army.append(unit)
        points += unit.points
        per_datasheet[unit.datasheet] += 1
    return army


def army_candidates(force: models.CrusadeForce) -> list[models.Unit]:
    """The force's active units with what a muster and Marked for Greatness look at."""
    return list(force.units.active().with_card_details().order_by("pk"))


def _latest_migration() -> str:
    """The app's latest migration on disk, e.g. "0004_history_index"."""
    leaves = MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes("campaign")
    return ", ".join(name for _, name in leaves)


def _user(username: str, *, staff: bool = False):
    return get_user_model().objects.create_user(
        username=username, email=f"{username}@example.org", is_staff=staff
    )


def _player_name(number: int) -> str:
    name = PLAYER_NAMES[number % len(PLAYER_NAMES)]
    lap = number // len(PLAYER_NAMES)
    return name if lap == 0 else f"{name}{lap + 1}"


class LeagueBuilder:
    """Builds the campaign of one `Scale`: players, forces, units, then a season of battles."""

    def __init__(self, scale: Scale, *, progress: Progress, started: float) -> None:
        self.scale = scale
        self.rng = random.Random(f"{scale.campaign} (seed v{SEED_VERSION})")
        self.progress = progress
        self.started = started
        self.order_of_battle_forces: set[int] = set()

    def build(self) -> models.Campaign:
        organiser = _user(ORGANISER, staff=True)
        campaign = moves.create_campaign(
            organiser=organiser, name=self.scale.campaign, description=self.scale.description
        )
        self._open_the_season(campaign, organiser)
        forces = self._muster_forces(campaign, organiser)
        self._fight_season(campaign, forces, organiser)
        self._leave_a_battle_in_progress(campaign, forces)
        return campaign

    # The narrative: phases, the map, alliances ---------------------------------------

    def _open_the_season(self, campaign: models.Campaign, organiser) -> None:
        """The organiser's phases and map (the alliances come with the sample pack), and
        the first phase begins."""
        for number in range(1, self.scale.phases + 1):
            services.define_phase(
                actor=organiser,
                campaign=campaign,
                name=f"Phase {roman(number)}",
                narrative=f"The league's {ordinal(number)} chapter.",
                battle_size="Strike Force",
            )
        holders = [a.name for a in campaign.alliances.order_by("pk")]
        places = [
            Place(
                f"sector-{column}-{row}",
                f"{SECTORS[column % len(SECTORS)]} {REGIONS[row % len(REGIONS)]}",
                column,
                row,
                "A contested sector of the league's world.",
                holders[(column + row) % len(holders)] if (column + row) % 4 == 0 else "",
            )
            for row in range(self.scale.map_rows)
            for column in range(self.scale.map_columns)
        ]
        services.import_map(
            actor=organiser,
            campaign=campaign,
            data=grid_map(places, name="The league's world"),
        )
        services.advance_phase(actor=organiser, campaign=campaign)
        self.territories = list(campaign.territories.order_by("pk"))
        self.alliances = list(campaign.alliances.order_by("pk"))

    # Forces and units ------------------------------------------------------------------

    def _muster_forces(self, campaign: models.Campaign, organiser) -> list[models.CrusadeForce]:
        sizes = self.scale.force_sizes()
        fixed = len(self.scale.order_of_battle_sizes)
        per_faction: Counter[str] = Counter()
        forces, added, total = [], 0, sum(sizes)
        for number, size in enumerate(sizes):
            if number < fixed:
                faction = ORDER_OF_BATTLE_FACTIONS[size]
            else:
                faction = FACTIONS[(number - fixed) % len(FACTIONS)]
            name = self._force_name(faction, per_faction[faction.keywords])
            per_faction[faction.keywords] += 1
            with transaction.atomic():
                force = self._force(campaign, organiser, number, name, faction, size)
            if number < fixed:
                self.order_of_battle_forces.add(force.pk)
            forces.append(force)
            added += size
            if (number + 1) % max(1, len(sizes) // 10) == 0 or number + 1 == len(sizes):
                self._report(f"forces {number + 1:,}/{len(sizes):,}, units {added:,}/{total:,}")
        return forces

    def _force_name(self, faction: Faction, count: int) -> str:
        templates = faction.force_names
        template = templates[count % len(templates)]
        lap = count // len(templates)
        if "{nth}" in template:
            return template.format(nth=ordinal(3 + (7 * count) % 97))
        return template if lap == 0 else f"{template} {roman(lap + 1)}"

    def _force(
        self,
        campaign: models.Campaign,
        organiser,
        number: int,
        name: str,
        faction: Faction,
        size: int,
    ) -> models.CrusadeForce:
        """One player's force: enlisted, its paper Supply Limit carried over, its units added."""
        player = _user(_player_name(number))
        force = moves.enlist(player=player, campaign=campaign, name=name, faction=faction)
        alliance = self.alliances[number % len(self.alliances)]
        services.choose_alliance(actor=player, force=force, alliance=alliance)
        force.refresh_from_db()
        sheets = force_composition(faction, size, self.rng)
        # Room for the season's Renowned Heroes, on top of the units' points.
        needed = sum(sheet.points for sheet in sheets) + 400
        moves.carry_over_supply_limit(
            organiser=organiser, force=force, supply_limit=-(-needed // 100) * 100
        )
        namer = UnitNamer(faction, self.rng)
        for sheet in sheets:
            moves.add_unit(force=force, faction=faction, sheet=sheet, name=namer.name(sheet))
        return force

    # Battles ---------------------------------------------------------------------------

    def _fight_season(
        self, campaign: models.Campaign, forces: list[models.CrusadeForce], organiser
    ) -> None:
        battles = self.scale.battles
        step = max(1, battles // 10)
        per_phase = -(-battles // self.scale.phases)
        for first in range(0, battles, BATTLES_PER_TRANSACTION):
            with transaction.atomic():
                for number in range(first, min(first + BATTLES_PER_TRANSACTION, battles)):
                    if number and number % per_phase == 0:
                        services.advance_phase(actor=organiser, campaign=campaign)
                    sides = self.rng.sample(forces, 2)
                    date = SEASON_START + datetime.timedelta(days=number * 365 // battles)
                    battle = self._battle(campaign, sides, date)
                    if number % self.scale.battles_per_story == 0:
                        self._tell(campaign, battle, number)
                    if (number + 1) % step == 0:
                        history = models.HistoryEntry.objects.filter(campaign=campaign).count()
                        self._report(
                            f"battles {number + 1:,}/{battles:,}, history {history:,} rows"
                        )

    def _battle(
        self, campaign: models.Campaign, sides: list[models.CrusadeForce], date
    ) -> models.Battle:
        """One battle as a group plays it, over a territory of the map: muster, record,
        Out of Action, promotions."""
        armies = [(force, self._army(force)) for force in sides]
        battle = moves.start_and_muster(
            campaign=campaign,
            armies=armies,
            battle_size="Strike Force",
            mission=self.rng.choice(MISSIONS),
            date=date,
            territory=self.rng.choice(self.territories),
        )
        results, outcomes = self._what_happened(battle, armies)
        moves.record_end(battle=battle, results=results, outcomes=outcomes)
        moves.take_out_of_action_tests(battle, self.rng)
        moves.settle_promotions(battle, self.rng)
        for force in sides:
            if self.rng.random() < 0.08:
                moves.buy_increase_supply_limit(force)
        return battle

    def _tell(self, campaign: models.Campaign, battle: models.Battle, number: int) -> None:
        """The winner (or the first side, after a draw) tells the battle's story."""
        sides = list(battle.participants.select_related("force__player").order_by("pk"))
        teller = next((s for s in sides if s.result == WIN), sides[0]).force
        services.write_log_entry(
            actor=teller.player,
            campaign=campaign,
            title=f"{battle.mission}: the {ordinal(number + 1)} battle",
            text=STORY.format(force=teller.name, mission=battle.mission),
            battle=battle,
            territory=battle.territory,
        )

    def _army(self, force: models.CrusadeForce) -> list[models.Unit]:
        candidates = army_candidates(force)
        self.rng.shuffle(candidates)
        return pick_army(
            candidates,
            size=self.scale.army_size,
            points_limit=rules.BATTLE_SIZES["Strike Force"],
        )

    def _what_happened(
        self, battle: models.Battle, armies: list[tuple[models.CrusadeForce, list[models.Unit]]]
    ) -> tuple[dict[int, str], dict[int, moves.Outcome]]:
        """Results and each unit's deeds: kills, losses, one unit Marked for Greatness.

        Units of the Order of Battle forces are never destroyed, so those forces keep
        exactly the number of units their targets are stated at.
        """
        rng = self.rng
        results_by_side = rng.choice(
            [(WIN, LOSS), (LOSS, WIN), (WIN, LOSS), (LOSS, WIN), (DRAW, DRAW)]
        )
        units = {u.pk: u for _, army in armies for u in army}
        participants = list(battle.participants.order_by("pk"))
        entries = models.BattleUnit.objects.filter(participant__battle=battle).order_by("pk")
        army_of: dict[int, list[models.BattleUnit]] = {p.pk: [] for p in participants}
        for entry in entries:
            army_of[entry.participant_id].append(entry)
        results, outcomes = {}, {}
        for side, participant in enumerate(participants):
            results[participant.pk] = results_by_side[side]
            army = army_of[participant.pk]
            eligible = [
                e
                for e in army
                if rules.marked_for_greatness_refusal(units[e.unit_id].facts(pending_promotions=0))
                is None
            ]
            marked = rng.choice(eligible) if eligible and rng.random() < 0.9 else None
            can_die = participant.force_id not in self.order_of_battle_forces
            for entry in army:
                bonus = 1 if rng.random() < 0.04 else 0
                outcomes[entry.pk] = moves.Outcome(
                    destroyed=can_die and rng.random() < 0.15,
                    enemy_units_destroyed=rng.choice((0, 0, 0, 1, 1, 2)),
                    marked_for_greatness=entry is marked,
                    bonus_xp=bonus,
                    bonus_xp_reason=rng.choice(AGENDAS) if bonus else "",
                )
        return results, outcomes

    def _leave_a_battle_in_progress(
        self, campaign: models.Campaign, forces: list[models.CrusadeForce]
    ) -> None:
        """Two forces mid-battle, mustered and not recorded yet: the record form's subject.

        The same two forces muster the same units at any number of battles, so the
        record form shows the same armies at the start of the season and at its end.
        """
        fixed = len(self.scale.order_of_battle_sizes)
        sides = forces[fixed : fixed + 2]
        limit = rules.BATTLE_SIZES["Strike Force"]
        armies = [
            (
                force,
                pick_army(army_candidates(force), size=self.scale.army_size, points_limit=limit),
            )
            for force in sides
        ]
        agendas = list(
            models.CustomContent.objects.available()
            .enabled_in(campaign.pk)
            .filter(kind=models.CustomContent.Kind.AGENDA)
            .order_by("position")[:2]
        )
        with transaction.atomic():
            moves.start_and_muster(
                campaign=campaign,
                armies=armies,
                battle_size="Strike Force",
                mission=RECORD_MISSION,
                date=SEASON_START + datetime.timedelta(days=366),
                agendas={force.pk: agendas for force in sides},
            )
            moves.open_battle(
                force=forces[fixed + 2],
                battle_size="Strike Force",
                mission=MUSTER_MISSION,
                campaign=campaign,
                date=SEASON_START + datetime.timedelta(days=367),
            )
        self._report("one battle left in progress, mustered with Agendas; one to muster")

    def _report(self, what: str) -> None:
        self.progress(f"  {what} ({time.perf_counter() - self.started:,.0f} s)")
