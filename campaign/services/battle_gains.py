"""What a battle's end gives, and writing it: each unit's and side's gains worked out
from what the sides recorded (shown before a player confirms), and, once the results
agree, the writes that apply them all (`complete`), each table in one query. Called by
`battles` (record, settle) inside their transactions, with the battle and forces locked."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

from django.core.exceptions import ValidationError
from django.db import transaction

from campaign import rules, wins_kept
from campaign.models import (
    Battle,
    BattleParticipant,
    BattleUnit,
    HistoryAction,
    HistoryEntry,
    OutOfActionTest,
    Promotion,
    Unit,
    fact_prefetches,
)

from . import _common as common
from . import agendas as agenda_service
from . import campaign_points as points_service
from . import territories as territory_service
from .attached_credit import attached_credit_errors
from .bulk import update_rows

RESULTS = frozenset(result.value for result in rules.BattleResult)


@dataclass(frozen=True)
class UnitOutcome:
    """What one unit did in the battle, as the player reports it."""

    destroyed: bool = False
    enemy_units_destroyed: int = 0
    marked_for_greatness: bool = False
    bonus_xp: int = 0
    bonus_xp_reason: str = ""
    agendas: agenda_service.Marks = ()
    """(Agenda key, times) for each picked Agenda the unit achieved: kept as
    `AgendaAchievement` rows, not in `FIELDS`."""

    FIELDS = (
        "destroyed",
        "enemy_units_destroyed",
        "marked_for_greatness",
        "bonus_xp",
        "bonus_xp_reason",
    )
    """Where a side's record keeps it: the fields of the unit's `BattleUnit` row."""

    @classmethod
    def stored(cls, entry: BattleUnit) -> UnitOutcome:
        """What the unit's player recorded for it (nothing destroyed, no kills until then)."""
        return cls(**{name: getattr(entry, name) for name in cls.FIELDS})

    def store(self, entry: BattleUnit) -> None:
        for name in self.FIELDS:
            setattr(entry, name, getattr(self, name))
        entry.bonus_xp_reason = self.bonus_xp_reason.strip()


@dataclass
class UnitGain:
    """What recording the battle does to one unit (shown before confirming)."""

    entry: BattleUnit
    outcome: UnitOutcome
    xp_before: int
    xp_after: int
    rank_before: rules.Rank
    rank_after: rules.Rank
    promotions: int
    out_of_action: bool
    agendas: list[agenda_service.AgendaGain] = field(default_factory=list)

    @property
    def xp_gained(self) -> int:
        return self.xp_after - self.xp_before


@dataclass
class ForceGain:
    participant: BattleParticipant
    result: str
    rp_before: int
    rp_after: int
    units: list[UnitGain] = field(default_factory=list)


def armies(battle: Battle) -> dict[int, list[BattleUnit]]:
    """Every side's army with the cards the rules need, in a fixed number of queries."""
    entries = (
        BattleUnit.objects.filter(participant__battle=battle)
        .select_related("unit", "unit__force")
        .prefetch_related(*fact_prefetches("unit__"))
        .order_by("pk")
    )
    armies: dict[int, list[BattleUnit]] = {}
    for entry in entries:
        armies.setdefault(entry.participant_id, []).append(entry)
    return armies


def _unit_gain(entry: BattleUnit, outcome: UnitOutcome, picks: dict) -> UnitGain:
    """What the rules give one unit for the battle (XP, caps, ranks), checking its outcome."""
    unit = entry.unit
    if outcome.enemy_units_destroyed < 0 or outcome.bonus_xp < 0:
        common.refuse("Tallies and bonus XP cannot be negative.")
    if outcome.bonus_xp and not outcome.bonus_xp_reason.strip():
        common.refuse(f"Say why {unit.name} earned bonus XP.", field="bonus_xp_reason")
    if outcome.marked_for_greatness:
        refusal = rules.marked_for_greatness_refusal(unit.facts(pending_promotions=0))
        if refusal:
            common.refuse(refusal, field="marked_for_greatness")
    raw = rules.battle_xp_gained(
        tally_before=unit.units_destroyed,
        enemy_units_destroyed=outcome.enemy_units_destroyed,
        marked_for_greatness=outcome.marked_for_greatness,
        bonus_xp=outcome.bonus_xp,
    )
    agendas, agenda_xp = agenda_service.gains(unit, raw, outcome.agendas, picks)
    xp_after = rules.add_xp(
        unit.xp,
        raw + agenda_xp,
        is_character=unit.is_character,
        legendary_veteran=unit.legendary_veteran,
        no_xp=unit.no_xp,
    )
    return UnitGain(
        entry=entry,
        outcome=outcome,
        xp_before=unit.xp,
        xp_after=xp_after,
        rank_before=rules.rank_for_xp(unit.xp),
        rank_after=rules.rank_for_xp(xp_after),
        promotions=rules.ranks_gained(unit.xp, xp_after),
        out_of_action=outcome.destroyed,
        agendas=agendas,
    )


def side_gain(
    side: BattleParticipant,
    result: str,
    outcomes: dict[int, UnitOutcome],
    army: list[BattleUnit],
    picks: dict | None = None,
) -> ForceGain:
    """What the end of the battle gives one side, checking that side's report: its result,
    one Marked for Greatness, bonus XP reasons, and the credit of its Attached units. Only
    the side's own units are read from ``outcomes``."""
    force = side.force
    if result not in RESULTS:
        common.refuse(f"Choose a result for {force.name}.", field="result")
    gain = ForceGain(
        participant=side,
        result=result,
        rp_before=force.rp,
        rp_after=rules.add_rp(force.rp, rules.RP_PER_BATTLE, cap=force.rp_cap),
    )
    picks = agenda_service.side_picks(side) if picks is None else picks
    gain.units = [_unit_gain(e, outcomes.get(e.pk, UnitOutcome()), picks) for e in army]
    if sum(1 for g in gain.units if g.outcome.marked_for_greatness) > 1:
        common.refuse(
            f"{force.name} can Mark only one unit for Greatness.", field="marked_for_greatness"
        )
    _check_attached_credit(army, {g.entry.pk: g.outcome for g in gain.units})
    agenda_service.check_marks(army, picks, {g.entry.pk: g.outcome for g in gain.units})
    return gain


def _check_attached_credit(army: list[BattleUnit], outcomes: dict[int, UnitOutcome]) -> None:
    """Each occurrence of an Attached unit's kills or bonus XP goes to one of its units
    (a Bodyguard and one or two Leaders), whichever the player names."""
    errors = attached_credit_errors(army, outcomes)
    if errors:
        raise ValidationError(errors)


UNIT_TALLIES = ["xp", "battles_played", "battles_survived", "units_destroyed", "agenda_tallies"]
ENTRY_GAINS = ["xp_before", "xp_after", "promotions_earned"]


@dataclass
class _Writes:
    """Rows a battle's end writes, gathered so each table is written in one query."""

    units: list[Unit] = field(default_factory=list)
    entries: list[BattleUnit] = field(default_factory=list)
    promotions: list[Promotion] = field(default_factory=list)
    tests: list[OutOfActionTest] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)

    def save(self) -> None:
        update_rows(self.units, UNIT_TALLIES)
        update_rows(self.entries, ENTRY_GAINS)
        Promotion.objects.bulk_create(self.promotions)
        OutOfActionTest.objects.bulk_create(self.tests)
        common.write_history(self.history)


def complete(
    actor,
    battle: Battle,
    sides: list[BattleParticipant],
    armies: dict[int, list[BattleUnit]],
    results: dict[int, str],
    now,
    *,
    picks: dict[int, dict] | None = None,
) -> None:
    """Everything a battle's end changes, from what each side recorded and the results
    that count: tallies, RP, XP, promotions and Out of Action tests. Runs inside the
    caller's transaction, with the battle and the forces locked; the number of queries
    does not grow with the armies."""
    plan = []
    achieved = agenda_service.achievements(battle)
    marks = agenda_service.stored_marks(battle, achieved)
    if picks is None:
        picks = agenda_service.battle_picks(side.pk for side in sides)
    for side in sides:
        army = armies.get(side.pk, [])
        stored = {
            entry.pk: replace(UnitOutcome.stored(entry), agendas=marks.get(entry.pk, ()))
            for entry in army
        }
        plan.append(side_gain(side, results[side.pk], stored, army, picks[side.pk]))
    refusal = rules.results_refusal([gain.result for gain in plan])
    if refusal:
        common.refuse(refusal, field="results")
    writes = _Writes()
    for gain in plan:
        participant, force = gain.participant, gain.participant.force
        # Each force's changes are by the one who recorded its side.
        by = participant.recorded_by or actor
        before = {"battle_tally": force.battle_tally, "victories": force.victories, "rp": force.rp}
        force.battle_tally += 1
        force.victories += 1 if gain.result == BattleParticipant.Result.WIN else 0
        force.rp = gain.rp_after
        participant.result = gain.result
        participant.rp_before, participant.rp_after = gain.rp_before, gain.rp_after
        writes.history.append(
            common.history_row(
                by,
                HistoryAction.BATTLE_RECORDED,
                f"{force.name}: {participant.get_result_display()}, "
                f"+{gain.rp_after - gain.rp_before}RP",
                force=force,
                battle=battle,
                changed={k: [v, getattr(force, k)] for k, v in before.items()},
            )
        )
        for unit_gain in gain.units:
            _apply_unit_gain(actor=by, battle=battle, gain=unit_gain, now=now, writes=writes)
        if gain.result == BattleParticipant.Result.WIN:
            # Once committed, the campaign page's chart counts the win without a query.
            won = partial(wins_kept.count_win, force.pk, before["victories"], battle.date)
            transaction.on_commit(won)
    sides_written = [gain.participant for gain in plan]
    update_rows([side.force for side in sides_written], ["battle_tally", "victories", "rp"])
    update_rows(sides_written, ["result", "rp_before", "rp_after"])
    writes.save()
    agenda_service.apply(
        battle, {g.entry.pk: g.agendas for gain in plan for g in gain.units}, achieved
    )
    ground = territory_service.after_battle(actor, battle, [gain.participant for gain in plan])
    points_service.score(battle, [gain.participant for gain in plan], ground)
    battle.status = Battle.Status.COMPLETED
    battle.completed_at = now
    battle.save(update_fields=["status", "completed_at"])


def _apply_unit_gain(*, actor, battle: Battle, gain: UnitGain, now, writes: _Writes) -> None:
    entry, outcome, unit = gain.entry, gain.outcome, gain.entry.unit
    before = common.snapshot(unit, UNIT_TALLIES)
    unit.xp = gain.xp_after
    unit.battles_played += 1
    unit.battles_survived += 0 if outcome.destroyed else 1
    unit.units_destroyed += outcome.enemy_units_destroyed
    unit.agenda_tallies = agenda_service.added(unit.agenda_tallies, gain.agendas)
    writes.units.append(unit)
    entry.xp_before, entry.xp_after = gain.xp_before, gain.xp_after
    entry.promotions_earned = gain.promotions
    writes.entries.append(entry)
    reached = gain.rank_before
    for _ in range(gain.promotions):
        reached = rules.Rank(reached + 1)
        writes.promotions.append(Promotion(unit=unit, rank=reached, battle=battle, created_at=now))
    if outcome.destroyed:
        test = OutOfActionTest(battle_unit=entry, unit=unit, created_at=now)
        if unit.no_xp:  # passes without a roll
            test.status = OutOfActionTest.Status.DONE
            test.outcome = rules.OutOfAction.PASSED
            test.resolved_at = now
        writes.tests.append(test)
    notes = []
    if gain.promotions:
        notes.append(f"promoted to {gain.rank_after.label}")
    if outcome.destroyed:
        notes.append("destroyed")
    if gain.agendas:
        notes.append(agenda_service.summary(gain.agendas))
    writes.history.append(
        common.history_row(
            actor,
            HistoryAction.UNIT_BATTLE_RECORDED,
            f"{unit.name}: +{gain.xp_gained}XP" + (f", {', '.join(notes)}" if notes else ""),
            unit=unit,
            battle=battle,
            changed=common.changes(before, common.snapshot(unit, UNIT_TALLIES)),
            reason=outcome.bonus_xp_reason,
        )
    )
