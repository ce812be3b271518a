"""The Out of Action page: the test, the unit as it stands, and what a failure may cost."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import prefetch_related_objects

from campaign import rules, services
from campaign.models import (
    Battle,
    BattleHonour,
    BattleScar,
    CustomContent,
    OutOfActionTest,
    Unit,
    card_prefetches,
)

NOT_WAITING = "This Out of Action test is not waiting for a choice."


@dataclass(frozen=True)
class OutOfActionPage:
    test: OutOfActionTest
    can_write: bool
    facts: rules.UnitFacts
    honours: list[BattleHonour]
    scars: list[BattleScar]
    custom_scars: list[CustomContent]
    """The campaign's own Battle Scars still offered (retired ones are not)."""
    choices: frozenset[rules.OutOfAction]
    """What the player may choose after a failed roll (empty until then)."""

    @property
    def unit(self) -> Unit:
        return self.test.unit

    @property
    def battle(self) -> Battle:
        return self.test.battle_unit.participant.battle

    @property
    def can_blow(self) -> bool:
        return rules.OutOfAction.DEVASTATING_BLOW in self.choices

    @property
    def can_scar(self) -> bool:
        return rules.OutOfAction.BATTLE_SCAR in self.choices

    @property
    def only_choice(self) -> rules.OutOfAction | None:
        return next(iter(self.choices)) if len(self.choices) == 1 else None

    def refusal(self, choice: str) -> str | None:
        """Why the player can't pick ``choice`` now, in the rules' words; None if they can."""
        if self.test.status != OutOfActionTest.Status.AWAITING_CHOICE:
            return NOT_WAITING
        return rules.out_of_action_refusal(
            choice, battle_honours=len(self.honours), battle_scars=len(self.scars)
        )


def out_of_action_page(test: OutOfActionTest, *, can_write: bool = False) -> OutOfActionPage:
    """``test`` comes from the access helper, with its unit, force and battle loaded."""
    unit = test.unit
    prefetch_related_objects([unit], *card_prefetches())
    awaiting = test.status == OutOfActionTest.Status.AWAITING_CHOICE
    return OutOfActionPage(
        test=test,
        can_write=can_write,
        facts=unit.facts(),
        honours=unit.active_honours(),
        scars=unit.active_scars(),
        custom_scars=services.campaign_content(unit, CustomContent.Kind.BATTLE_SCAR),
        choices=services.out_of_action_choices(test, unit=unit) if awaiting else frozenset(),
    )
