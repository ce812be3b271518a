"""What the benchmark's pages show: the subjects found in each seeded league."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, F, Q, When
from django.db.models.functions import Abs

from campaign.models import Battle, BattleParticipant, Campaign, CrusadeForce, Membership, Unit

from .database import BenchDatabase
from .seed import BASELINE_BATTLES, MUSTER_MISSION, RECORD_MISSION, Scale
from .stopwatch import PageFailed


@dataclass(frozen=True)
class Subjects:
    """What the pages show in one seeded league, each with the user who looks at it."""

    campaign: Campaign
    organiser: object
    battle: Battle
    in_progress: Battle
    to_muster: BattleParticipant
    """The starter's side of a battle just started, its army still to muster."""
    unit: Unit
    force: CrusadeForce
    order_of_battle: dict[int, CrusadeForce]
    """The forces of exactly 50 and 200 units, by size."""
    veteran: Unit
    """The most-fought active unit of the campaign: its card, and its force's export."""


def find_subjects(
    league: tuple[BenchDatabase, Campaign], start: tuple[BenchDatabase, Campaign], scale: Scale
) -> tuple[Subjects, Subjects]:
    """The pages' subjects in the league and in the same league at the start of its season.

    Both leagues grow from one seed, so like can be compared with like, and what
    differs is how many battles the campaign has played:

    - battle detail: the last of the season's first battles with losses (Out of Action
      tests show): the same battle in both;
    - record form: the battle left in progress, the same two armies in both;
    - Crusade card: the most-fought unit at the start of the season, and a unit with
      the same record (battles, honours, scars) in the league;
    - force history: the force with the longest history at the start of the season,
      a full page (100 rows) in both.
    """
    (league_db, league_campaign), (start_db, start_campaign) = league, start
    with start_db.active():
        force_name = _longest_history(start_campaign, scale).name
        start_unit = _cards(start_campaign).order_by("-battles_played", "-honours_held", "pk")[0]
    with league_db.active():
        league_unit = _unit_with_the_same_record(league_campaign, start_unit)
        in_league = _subjects(league_campaign, scale, league_unit, force_name)
    with start_db.active():
        at_start = _subjects(start_campaign, scale, start_unit, force_name)
    return in_league, at_start


def league_subjects(campaign: Campaign, scale: Scale) -> Subjects:
    """The pages' subjects in one seeded league on its own (no 20-battle twin): its most
    fought card, and the force with the longest history. Reads the active database."""
    veteran = _cards(campaign).order_by("-battles_played", "-honours_held", "pk")[0]
    return _subjects(campaign, scale, veteran, _longest_history(campaign, scale).name)


def _subjects(campaign: Campaign, scale: Scale, unit: Unit, force_name: str) -> Subjects:
    organiser = campaign.memberships.select_related("user").get(role=Membership.Role.ORGANISER)
    first_battles = list(
        campaign.battles.order_by("pk").values_list("pk", flat=True)[:BASELINE_BATTLES]
    )
    return Subjects(
        campaign=campaign,
        organiser=organiser.user,
        battle=campaign.battles.filter(
            pk__in=first_battles, status=Battle.Status.COMPLETED, participants__army__destroyed=True
        )
        .order_by("-pk")
        .first(),
        in_progress=campaign.battles.get(status=Battle.Status.IN_PROGRESS, mission=RECORD_MISSION),
        to_muster=BattleParticipant.objects.select_related("force__player").get(
            battle__campaign=campaign, battle__mission=MUSTER_MISSION
        ),
        unit=unit,
        force=campaign.forces.select_related("player").get(name=force_name),
        order_of_battle=_order_of_battle_forces(campaign, scale),
        veteran=_cards(campaign).order_by("-battles_played", "-honours_held", "pk")[0],
    )


def _order_of_battle_forces(campaign: Campaign, scale: Scale) -> dict[int, CrusadeForce]:
    sized = campaign.forces.annotate(
        active=Count("units", filter=Q(units__status=Unit.Status.ACTIVE))
    ).filter(active__in=scale.order_of_battle_sizes)
    forces = {force.active: force for force in sized.select_related("player")}
    missing = set(scale.order_of_battle_sizes) - set(forces)
    if missing:
        raise PageFailed(f"no force with exactly {sorted(missing)} units in {campaign.name}")
    return forces


def _longest_history(campaign: Campaign, scale: Scale) -> CrusadeForce:
    """The force with the most history rows, the Order of Battle forces left aside."""
    sized = _order_of_battle_forces(campaign, scale).values()
    return (
        campaign.forces.exclude(pk__in=[f.pk for f in sized])
        .annotate(entries=Count("history"))
        .order_by("-entries", "pk")
        .first()
    )


def _cards(campaign: Campaign):
    """Active units with what their card shows most of: honours and scars held."""
    return (
        Unit.objects.filter(force__campaign=campaign, status=Unit.Status.ACTIVE)
        .select_related("force__player")
        .annotate(
            honours_held=Count("honours", filter=Q(honours__status="active"), distinct=True),
            scars_held=Count("scars", filter=Q(scars__status="active"), distinct=True),
        )
    )


def _unit_with_the_same_record(campaign: Campaign, like: Unit) -> Unit:
    """The unit whose record (battles played, honours, scars) is closest to `like`'s,
    of the same datasheet if one is as close."""
    distance = (
        Abs(F("battles_played") - like.battles_played)
        + Abs(F("honours_held") - like.honours_held)
        + Abs(F("scars_held") - like.scars_held)
    )
    other_datasheet = Case(When(datasheet=like.datasheet, then=0), default=1)
    return (
        _cards(campaign)
        .annotate(distance=distance, other_datasheet=other_datasheet)
        .order_by("distance", "other_datasheet", "pk")
        .first()
    )
