"""`make bench`: time the hot paths on generated data, then roll everything back.

Timings are measured here, never asserted in tests (tests assert query counts).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from campaign import selectors, services
from campaign.models import Membership


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the Order of Battle, campaign overview, battle recording and requisitions."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--units", type=int, default=100)
        parser.add_argument("--forces", type=int, default=30)
        parser.add_argument("--repeat", type=int, default=20)

    def handle(self, *args, units: int, forces: int, repeat: int, **options) -> None:
        self.stdout.write(f"database: {connection.vendor}")
        try:
            with transaction.atomic():
                self._run(units=units, forces=forces, repeat=repeat)
                raise Rollback
        except Rollback:
            pass

    def _time(self, label: str, func: Callable[[], object], repeat: int) -> None:
        samples = []
        with CaptureQueriesContext(connection) as queries:
            func()
        for _ in range(repeat):
            start = time.perf_counter()
            func()
            samples.append((time.perf_counter() - start) * 1000)
        self.stdout.write(
            f"{label:<46} median {statistics.median(samples):7.2f} ms  "
            f"p90 {sorted(samples)[int(len(samples) * 0.9) - 1]:7.2f} ms  "
            f"{len(queries)} queries"
        )

    def _run(self, *, units: int, forces: int, repeat: int) -> None:
        User = get_user_model()
        organiser = User.objects.create_user("bench-organiser")
        campaign = services.create_campaign(actor=organiser, name="Bench", starting_rp=5)
        all_forces = []
        for i in range(forces):
            player = User.objects.create_user(f"bench-player-{i}")
            services.join_campaign(
                actor=player, user=player, campaign=campaign, role=Membership.Role.PLAYER
            )
            force = services.create_force(
                actor=player,
                player=player,
                campaign=campaign,
                name=f"Force {i}",
                faction="Adeptus Astartes",
            )
            services.correct_force(
                actor=organiser, force=force, reason="bench", supply_limit=units * 100
            )
            all_forces.append(force)
        big = all_forces[0]
        for j in range(units):
            services.add_unit(
                actor=big.player,
                force=big,
                unit=services.NewUnit(
                    name=f"Unit {j}",
                    datasheet="Intercessor Squad",
                    points=80,
                    faction_keywords="Adeptus Astartes",
                    is_character=j % 10 == 0,
                ),
            )
        for force in all_forces[1:]:
            for j in range(10):
                services.add_unit(
                    actor=force.player,
                    force=force,
                    unit=services.NewUnit(
                        name=f"Unit {j}",
                        datasheet="Captain",
                        points=80,
                        faction_keywords="Adeptus Astartes",
                        is_character=True,
                    ),
                )
        self._time(
            f"Order of Battle selector ({units} units)",
            lambda: selectors.order_of_battle(big).units,
            repeat,
        )
        self._time(
            f"campaign overview selector ({forces} forces)",
            lambda: selectors.campaign_overview(campaign).standings,
            repeat,
        )
        self._time(
            "requisition options for a card",
            lambda: services.requisition_options(big, unit=big.units.first()),
            repeat,
        )

        def battle() -> None:
            a, b = all_forces[1], all_forces[2]
            fight = services.start_battle(
                actor=a.player, force=a, opponents=[b], battle_size="Incursion", campaign=campaign
            )
            results = {}
            for p in fight.participants.select_related("force"):
                if p.is_invited:
                    services.accept_invitation(actor=p.force.player, participant=p)
                army = list(p.force.units.active()[:3])
                services.muster_army(
                    actor=p.force.player,
                    participant=p,
                    faction="Adeptus Astartes",
                    detachment="Bench",
                    units=army,
                    warlord=army[0],
                )
                results[p.pk] = "draw"
            services.record_battle_end(battle=fight, results=results, outcomes={})
            services.void_battle(actor=organiser, battle=fight, reason="bench")

        self._time("start, accept, muster 2x3, record, void", battle, max(3, repeat // 4))

        force = all_forces[3]

        def requisition() -> None:
            services.correct_force(actor=organiser, force=force, reason="bench", rp=1)
            services.increase_supply_limit(actor=force.player, force=force)

        self._time("buy Increase Supply Limit (incl. RP reset)", requisition, repeat)
