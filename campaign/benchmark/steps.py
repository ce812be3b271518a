"""The steps of a battle, committed as players make them: mustering an army, recording
a side, completing a battle (recording its last side).

Each step is timed at two army sizes, to show that its queries do not grow with the
army. Every run sets up a fresh battle of its own in `prepare` (untimed, through the
services); what the steps write stays: the bench database grows a little each run.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from django.http import HttpResponse
from django.urls import reverse

from campaign import rules, services
from campaign.models import Battle, BattleParticipant, BattleUnit, CrusadeForce, Promotion, Unit

from . import moves
from .database import BenchDatabase
from .rosters import AGENDAS
from .seed import BENCH_MISSION, army_candidates, pick_army
from .stopwatch import Clients, PageFailed, Probe
from .subjects import Subjects

STEP_SIZES = (5, 30)
MUSTER_QUERY_BUDGET = 25
RECORD_SIDE_QUERY_BUDGET = 25
COMPLETE_QUERY_BUDGET = 40
STEP_MISSION = BENCH_MISSION


def clear(forces: list[CrusadeForce]) -> None:
    """End the battles an earlier run of the bench left open for `forces` (a force fights
    one battle at a time): cancelled if nobody recorded, else the other sides recorded."""
    battles = Battle.objects.filter(
        participants__force__in=forces, mission=STEP_MISSION, status__in=Battle.OPEN_STATUSES
    ).distinct()
    for battle in battles.order_by("pk"):
        sides = list(battle.participants.select_related("force__player").order_by("pk"))
        if not any(side.has_recorded for side in sides):
            services.cancel_battle(actor=sides[0].force.player, battle=battle)
            continue
        for side in sides:
            if not side.has_recorded:
                services.record_side(actor=side.force.player, **side_record(side, "loss"))
    rng = random.Random(0)
    pending = Promotion.objects.filter(
        battle__mission=STEP_MISSION,
        status=Promotion.Status.PENDING,
        unit__force__in=forces,
    )
    for battle in Battle.objects.filter(pk__in=pending.values("battle")).order_by("pk"):
        moves.take_out_of_action_tests(battle, rng)
        moves.settle_promotions(battle, rng)


def open_to_muster(campaign, force: CrusadeForce) -> BattleParticipant:
    """`force`'s side of a battle it opened, its army still to muster: the one an
    earlier run left, or a new one."""
    side = (
        BattleParticipant.objects.filter(
            force=force,
            battle__mission=STEP_MISSION,
            battle__status=Battle.Status.IN_PROGRESS,
            army__isnull=True,
        )
        .select_related("force__player")
        .first()
    )
    if side is not None and len(side.battle.participants.all()) == 1:
        return side
    clear([force])
    battle = moves.open_battle(
        force=force,
        battle_size="Onslaught",
        mission=STEP_MISSION,
        campaign=campaign,
        date=datetime.date.today(),
    )
    return battle.participants.select_related("force__player").get(force=force)


def step_probes(subjects: Subjects, database: BenchDatabase, clients: Clients) -> list[Probe]:
    """Mustering, recording a side and completing a battle, at each of `STEP_SIZES`."""
    with database.active():
        armies = {size: _armies(subjects, size) for size in STEP_SIZES}
    probes = []
    for step in (_muster_probe, _record_side_probe, _complete_probe):
        for size in STEP_SIZES:
            probes.append(step(subjects, database, clients, size, armies[size]))
    return probes


def _battle_size(size: int) -> str:
    return "Onslaught" if size > 10 else "Strike Force"


def _armies(subjects: Subjects, size: int) -> list[tuple]:
    """Armies of `size` units of the two big forces, cheapest first."""
    forces = [force for _, force in sorted(subjects.order_of_battle.items())][:2]
    armies = []
    for force in forces:
        cheapest_first = sorted(army_candidates(force), key=lambda u: (u.points, u.pk))
        limit = rules.BATTLE_SIZES[_battle_size(size)]
        army = pick_army(cheapest_first, size=size, points_limit=limit)
        if len(army) != size:
            raise PageFailed(f"{force.name} cannot muster {size} units")
        armies.append((force, army))
    return armies


def _muster_probe(subjects, database, clients, size, armies) -> Probe:
    """POST the muster form of a battle just opened: `size` units, the first CHARACTER as
    Warlord."""
    force, army = armies[0]
    client = clients.of(force.player)

    def prepare() -> tuple[str, Callable[[], HttpResponse]]:
        clear([f for f, _ in armies])
        battle = moves.open_battle(
            force=force,
            battle_size=_battle_size(size),
            mission=STEP_MISSION,
            campaign=subjects.campaign,
            date=datetime.date.today(),
        )
        participant = battle.participants.get(force=force)
        url = reverse("army_muster", args=[participant.pk])
        data = muster_form_data(force, army)
        return url, lambda: client.post(url, data)

    return Probe(f"muster_army_{size}", database, prepare, expect=302)


def muster_form_data(force, army: list[Unit]) -> dict:
    warlord = next(u for u in army if u.is_character)
    return {
        "faction": force.faction,
        "detachment": "Crusade detachment",
        "units": [u.pk for u in army],
        "warlord": warlord.pk,
    }


def _fresh_battle(subjects, armies, size: int):
    """A battle of `armies`, started and mustered, once the forces are free of any other."""
    clear([f for f, _ in armies])
    return moves.start_and_muster(
        campaign=subjects.campaign,
        armies=armies,
        battle_size=_battle_size(size),
        mission=STEP_MISSION,
    )


def play_battle(subjects: Subjects, armies: list[tuple], size: int) -> Battle:
    """A battle of ``armies`` (`battle_armies`) fought to its end through the services:
    started, mustered, and each side recorded, the first a win."""
    battle = _fresh_battle(subjects, armies, size)
    first, last = battle.participants.select_related("force__player").order_by("pk")
    services.record_side(actor=first.force.player, **side_record(first, "win"))
    services.record_side(actor=last.force.player, **side_record(last, "loss"))
    return battle


def battle_armies(subjects: Subjects, size: int) -> list[tuple]:
    """Armies of ``size`` units of the two big forces, cheapest first (reads the active
    database)."""
    return _armies(subjects, size)


def _record_side_probe(subjects, database, clients, size, armies) -> Probe:
    """POST the confirmed record form of the first side of a fresh battle."""
    client = clients.of(armies[0][0].player)

    def prepare() -> tuple[str, Callable[[], HttpResponse]]:
        battle = _fresh_battle(subjects, armies, size)
        first = battle.participants.order_by("pk").first()
        url = reverse("army_record", args=[first.pk])
        data = record_form_data(first, "win")
        return url, lambda: client.post(url, data)

    return Probe(f"record_side_{size}", database, prepare, expect=302)


def _complete_probe(subjects, database, clients, size, armies) -> Probe:
    """POST the confirmed record form of the side that completes a fresh battle (the
    other side recorded first)."""
    client = clients.of(armies[1][0].player)

    def prepare() -> tuple[str, Callable[[], HttpResponse]]:
        battle = _fresh_battle(subjects, armies, size)
        first, last = battle.participants.order_by("pk")
        services.record_side(actor=armies[0][0].player, **side_record(first, "win"))
        url = reverse("army_record", args=[last.pk])
        data = record_form_data(last, "loss")
        return url, lambda: client.post(url, data)

    return Probe(f"complete_battle_{size}", database, prepare, expect=302)


def _marked(entries: list[BattleUnit]) -> BattleUnit | None:
    return next(
        (
            e
            for e in entries
            if rules.marked_for_greatness_refusal(e.unit.facts(pending_promotions=0)) is None
        ),
        None,
    )


def _what_each_did(entries: list[BattleUnit]):
    """(entry, kills, bonus XP, bonus reason, destroyed) as a player fills them in."""
    for number, entry in enumerate(entries):
        bonus = number == 0
        yield entry, number % 3, int(bonus), AGENDAS[0] if bonus else "", False


def side_record(participant: BattleParticipant, result: str) -> dict:
    """What `record_form_data` posts, as `services.record_side` arguments."""
    entries = list(participant.army.select_related("unit").order_by("pk"))
    marked = _marked(entries)
    return {
        "participant": participant,
        "result": result,
        "outcomes": {
            entry.pk: services.UnitOutcome(
                destroyed=destroyed,
                enemy_units_destroyed=kills,
                marked_for_greatness=marked is not None and entry.pk == marked.pk,
                bonus_xp=bonus,
                bonus_xp_reason=reason,
            )
            for entry, kills, bonus, reason, destroyed in _what_each_did(entries)
        },
    }


def record_form_data(participant: BattleParticipant, result: str) -> dict[str, str]:
    """One side's confirmed record form as its player fills it in: kills, losses, a bonus."""
    entries = list(participant.army.select_related("unit").order_by("pk"))
    marked = _marked(entries)
    data = {"confirm": "1", "result": result, "marked": str(marked.pk) if marked else ""}
    for entry, kills, bonus, reason, destroyed in _what_each_did(entries):
        data[f"kills_{entry.pk}"] = str(kills)
        data[f"bonus_{entry.pk}"] = str(bonus)
        data[f"reason_{entry.pk}"] = reason
        if destroyed:
            data[f"destroyed_{entry.pk}"] = "on"
    return data
