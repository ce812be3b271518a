"""Battles for the service tests: started, mustered, recorded, and their Out of Action tests."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from campaign import services
from campaign.models import (
    Battle,
    BattleParticipant,
    BattleUnit,
    CrusadeForce,
    OutOfActionTest,
    Unit,
)
from campaign.services import UnitOutcome
from tests.factories import make_battle
from tests.services.cards import commissar

_names = itertools.count(1)


class Dice:
    """A loaded die for the services' `rng`: returns the given results in order."""

    def __init__(self, *results: int) -> None:
        self.results = list(results)

    def randint(self, a: int, b: int) -> int:
        result = self.results.pop(0)
        assert a <= result <= b
        return result


@dataclass
class Fight:
    """A started, mustered battle, and what each side will report at its end."""

    battle: Battle
    participants: dict[int, BattleParticipant]
    results: dict[int, str]
    outcomes: dict[int, UnitOutcome] = field(default_factory=dict)
    actor: object = None

    def entry(self, unit: Unit) -> BattleUnit:
        return BattleUnit.objects.get(participant__battle=self.battle, unit=unit)

    def participant(self, force: CrusadeForce) -> BattleParticipant:
        return self.participants[force.pk]

    def report(self, unit: Unit, outcome: UnitOutcome) -> None:
        self.outcomes[self.entry(unit).pk] = outcome

    def record(self, actor=None):
        """Each side's player records their side (or `actor` records them all)."""
        return services.record_battle_end(
            actor=actor or self.actor,
            battle=self.battle,
            results=self.results,
            outcomes=self.outcomes,
        )

    def record_side(self, force: CrusadeForce, result: str | None = None, actor=None):
        """One side's player records that side: its result and its units' outcomes."""
        side = self.participant(force)
        return services.record_side(
            actor=actor or self.actor or force.player,
            participant=side,
            result=result or self.results[side.pk],
            outcomes=self.outcomes,
        )

    def test_for(self, unit: Unit) -> OutOfActionTest:
        return OutOfActionTest.objects.get(battle_unit__participant__battle=self.battle, unit=unit)


def go_to_battle(
    *armies: Sequence[Unit],
    size: str = "Incursion",
    results: Sequence[str] | None = None,
    outcomes: dict[Unit, UnitOutcome] | None = None,
    attachments: dict[Unit, Unit] | None = None,
    second_leader_rules: dict[Unit, str] | None = None,
    campaign=None,
    actor=None,
) -> Fight:
    """Start a battle between the armies' forces: the first force's player starts it, each
    other player accepts the invitation, and each musters their army.

    The first CHARACTER of each army is its Warlord; by default the first army wins.
    Each force's player does it all, unless an `actor` (say, an organiser) is named.
    """
    forces = [army[0].force for army in armies]
    battle = make_battle(*forces, actor=actor, battle_size=size, campaign=campaign)
    participants = {p.force_id: p for p in battle.participants.all()}
    attachments = attachments or {}
    for force, army in zip(forces, armies, strict=True):
        services.muster_army(
            actor=actor or force.player,
            participant=participants[force.pk],
            faction=force.faction,
            detachment="Crusade detachment",
            units=list(army),
            warlord=next(u for u in army if u.is_character),
            attachments={
                leader.pk: bodyguard.pk
                for leader, bodyguard in attachments.items()
                if leader.force_id == force.pk
            },
            second_leader_rules={
                bodyguard.pk: rule
                for bodyguard, rule in (second_leader_rules or {}).items()
                if bodyguard.force_id == force.pk
            },
        )
    results = results or ["win"] + ["loss"] * (len(forces) - 1)
    fight = Fight(
        battle=battle,
        participants={pk: BattleParticipant.objects.get(pk=p.pk) for pk, p in participants.items()},
        results={participants[f.pk].pk: r for f, r in zip(forces, results, strict=True)},
        actor=actor,
    )
    for unit, outcome in (outcomes or {}).items():
        fight.report(unit, outcome)
    return fight


def fight(*armies: Sequence[Unit], **kwargs) -> Fight:
    """A whole battle: started, mustered and recorded (R8, R9)."""
    battle = go_to_battle(*armies, **kwargs)
    battle.record()
    return battle


def destroyed_in_battle(unit: Unit, *, leader: Unit | None = None) -> OutOfActionTest:
    """Fight a battle in which `unit` is destroyed; return its Out of Action test (R5.1).

    A non-CHARACTER unit fights alongside `leader` (a CHARACTER of its force), since an
    army needs one (R8.4).
    """
    if leader is None and not unit.is_character:
        leader = commissar(unit.force, f"Commissar {next(_names)}")
    army = [unit] if unit.is_character else [leader, unit]
    done = fight(army, outcomes={unit: UnitOutcome(destroyed=True)})
    return done.test_for(unit)


def roll(test: OutOfActionTest, value: int | None = None, *, rng=None) -> OutOfActionTest:
    """The unit's player takes its Out of Action test: `value` as rolled, or `rng` rolls."""
    return services.take_out_of_action_test(
        actor=test.unit.force.player, test=test, roll=value, rng=rng
    )


def resolve(test: OutOfActionTest, choice: str, **kwargs) -> OutOfActionTest:
    """The unit's player makes the choice a failed Out of Action test asks for (R5.2)."""
    return services.resolve_out_of_action(
        actor=test.unit.force.player, test=test, choice=choice, **kwargs
    )
