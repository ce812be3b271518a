"""Battles: start, muster, each side records its end, the battle completes (or is
disputed and settled). Invitations are in `invitations`, the Out of Action tests after a
battle in `out_of_action`, undoing a battle in `void`."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from functools import partial

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign import rules, wins_kept
from campaign.models import (
    Battle,
    BattleParticipant,
    BattleUnit,
    Campaign,
    CrusadeForce,
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
from .approval import FIGHT, require_approved
from .attached_credit import attached_credit_errors
from .bulk import update_rows

RESULTS = frozenset(result.value for result in rules.BattleResult)
ARMIES_FIXED = "This battle is over; its armies can no longer change."
ALREADY_RECORDED = "This battle has already been recorded."


def units_with_pending_choices(unit_pks: list[int]) -> set[int]:
    """Units with an unsettled promotion or Out of Action test: they can't be mustered."""
    promoted = Promotion.objects.filter(unit__in=unit_pks, status=Promotion.Status.PENDING)
    tested = OutOfActionTest.objects.open().filter(unit__in=unit_pks)
    return set(promoted.values_list("unit_id", flat=True)) | set(
        tested.values_list("unit_id", flat=True)
    )


def describe(battle: Battle) -> str:
    return battle.battle_size + (f", {battle.mission}" if battle.mission else "")


@transaction.atomic
def start_battle(
    *,
    actor,
    force: CrusadeForce,
    opponents: list[CrusadeForce] = (),
    battle_size: str,
    mission: str = "",
    campaign: Campaign | None = None,
    date: datetime.date | None = None,
    territory=None,
) -> Battle:
    """Open a battle for ``force``, which is committed to it at once, and invite each of
    the ``opponents``: a force is committed only once its player accepts. With no
    opponents the battle is against an opponent the app does not track. The battle
    belongs to the campaign's current phase, and may be fought over a ``territory`` of
    the campaign's map (`territories.check_battle_ground`)."""
    if battle_size not in rules.BATTLE_SIZES:
        common.refuse("Pick a battle size.", field="battle_size")
    opponents = list(opponents)
    pks = [force.pk, *(o.pk for o in opponents)]
    if len(set(pks)) != len(pks):
        common.refuse("A force can only fight once in the same battle.", field="opponents")
    locked = common.lock_forces(pks)
    for other in locked.values():
        if campaign is not None and other.campaign_id != campaign.pk:
            common.refuse(f"{other.name} is not part of {campaign.name}.", field="opponents")
    mine = locked[force.pk]
    require_approved(mine, FIGHT, field="force")
    for opponent in opponents:
        require_approved(locked[opponent.pk], FIGHT, field="opponents")
    if mine.in_battle():
        common.refuse(
            f"{mine.name} is already in a battle that has not been recorded.", field="force"
        )
    territory_service.check_battle_ground(campaign=campaign, force=mine, territory=territory)
    battle = Battle.objects.create(
        campaign=campaign,
        phase_id=_current_phase_id(campaign),
        territory=territory,
        battle_size=battle_size,
        mission=mission,
        date=date or timezone.localdate(),
        created_by=common.real_user(actor),
    )
    BattleParticipant.objects.create(
        battle=battle,
        force=mine,
        faction=mine.faction,
        invitation=BattleParticipant.Invitation.ACCEPTED,
    )
    common.record(
        actor,
        HistoryAction.BATTLE_STARTED,
        f"{mine.name} goes to battle ({describe(battle)})",
        force=mine,
        battle=battle,
    )
    for opponent in (locked[o.pk] for o in opponents):
        BattleParticipant.objects.create(battle=battle, force=opponent, faction=opponent.faction)
        common.record(
            actor,
            HistoryAction.BATTLE_INVITED,
            f"{opponent.name} is invited to battle {mine.name} ({describe(battle)})",
            force=opponent,
            battle=battle,
        )
    return battle


def _current_phase_id(campaign: Campaign | None) -> int | None:
    """The phase the campaign plays now, read afresh: the caller's campaign may be a copy
    from before the organiser advanced it."""
    if campaign is None:
        return None
    return Campaign.objects.filter(pk=campaign.pk).values_list("current_phase_id", flat=True)[0]


def lock_battle(battle: Battle | int) -> tuple[Battle, list[BattleParticipant]]:
    """Re-read a battle with its row locked, and every side with its force locked (the
    battle first, then the forces in primary-key order, so two services never deadlock).
    The sides are read once every lock is held: a muster that was under way is in them."""
    pk = battle.pk if isinstance(battle, Battle) else battle
    battle = Battle.objects.select_for_update().get(pk=pk)
    forces = common.lock_forces(battle.participants.values("force_id"))
    sides = list(battle.participants.select_related("recorded_by").order_by("pk"))
    for side in sides:
        side.battle, side.force = battle, forces[side.force_id]
    return battle, sides


def side_of(sides: list[BattleParticipant], participant: BattleParticipant) -> BattleParticipant:
    return next(side for side in sides if side.pk == participant.pk)


def over(battle: Battle) -> str | None:
    """How a battle that is over ended (None while it is not)."""
    if battle.status == Battle.Status.COMPLETED:
        return ALREADY_RECORDED
    if not battle.is_open:
        return f"This battle was {battle.get_status_display().lower()}."
    return None


def require_open(battle: Battle) -> None:
    """Refuse any change to a battle that is over, saying how it ended."""
    if over(battle):
        common.refuse(over(battle))


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


def _armies(battle: Battle) -> dict[int, list[BattleUnit]]:
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


def _side_gain(
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


def recording_refusal(battle: Battle, sides: list[BattleParticipant], side) -> str | None:
    """Why ``side`` can't record the battle yet, or None: a side records once it fights
    (accepted, mustered), every invitation is answered, and the battle is not over."""
    if over(battle):
        return over(battle)
    if not side.is_accepted:
        return f"{side.force.name} has not accepted this battle."
    if not side.mustered:
        return f"{side.force.name} has not mustered an army yet."
    unanswered = [other.force.name for other in sides if other.is_invited]
    if unanswered:
        return (
            f"Waiting for {', '.join(unanswered)} to answer the invitation. The player who "
            "started the battle can withdraw it."
        )
    return None


def _require_recordable(battle: Battle, sides: list[BattleParticipant], side) -> None:
    refusal = recording_refusal(battle, sides, side)
    if refusal:
        common.refuse(refusal)


def preview_side(
    participant: BattleParticipant, *, result: str, outcomes: dict[int, UnitOutcome]
) -> ForceGain:
    """What recording this side would give its force and units once the battle completes,
    for the summary its player confirms (nothing is written)."""
    battle = Battle.objects.get(pk=participant.battle_id)
    sides = list(battle.participants.select_related("force__campaign").order_by("pk"))
    side = side_of(sides, participant)
    _require_recordable(battle, sides, side)
    return _side_gain(side, result, outcomes, _armies(battle).get(side.pk, []))


def disagreement(sides: list[BattleParticipant]) -> str | None:
    """Why the results the fighting sides claim can't all be true (None when they agree)."""
    fighting = [side for side in sides if side.is_accepted]
    if not all(side.claimed_result in RESULTS for side in fighting):
        return None
    return rules.results_refusal([side.claimed_result for side in fighting])


@transaction.atomic
def record_side(
    *, actor, participant: BattleParticipant, result: str, outcomes: dict[int, UnitOutcome]
) -> Battle:
    """One player's report of the battle's end, for their side only: the result they claim
    and what each of their units did (``outcomes`` by `BattleUnit` key; other sides' units
    are never read). A side may record again to amend its report until the battle is over.

    The report is kept, not applied. Once every side that fights has recorded, the battle
    completes if their results agree (everything applied in this transaction, in a fixed
    number of queries), or becomes disputed until a side amends or an organiser settles.
    """
    battle, sides = lock_battle(participant.battle_id)
    side = side_of(sides, participant)
    require_approved(side.force, FIGHT)
    _require_recordable(battle, sides, side)
    armies = _armies(battle)
    picks = agenda_service.battle_picks(s.pk for s in sides)
    gain = _side_gain(side, result, outcomes, armies.get(side.pk, []), picks[side.pk])
    now = timezone.now()
    claimed_before = side.claimed_result
    for unit_gain in gain.units:
        unit_gain.outcome.store(unit_gain.entry)
    update_rows([g.entry for g in gain.units], list(UnitOutcome.FIELDS))
    agenda_service.store_marks(
        participant=side,
        marks={g.entry.pk: g.outcome.agendas for g in gain.units},
        replacing=bool(claimed_before),
    )
    side.claimed_result, side.recorded_at, side.recorded_by = result, now, common.real_user(actor)
    side.save(update_fields=["claimed_result", "recorded_at", "recorded_by"])
    common.record(
        actor,
        HistoryAction.SIDE_RECORDED,
        f"{side.force.name} {'amends its record' if claimed_before else 'records'} "
        f"the battle: {side.get_claimed_result_display()}",
        force=side.force,
        battle=battle,
        changed=common.changes({"claimed_result": claimed_before}, {"claimed_result": result}),
    )
    fighting = [s for s in sides if s.is_accepted]
    if not all(s.has_recorded for s in fighting):
        return battle
    refusal = disagreement(sides)
    if refusal is None:
        results = {s.pk: s.claimed_result for s in fighting}
        _complete(actor, battle, fighting, armies, results, now, picks=picks)
    elif battle.status != Battle.Status.DISPUTED:
        _dispute(actor, battle, fighting, refusal)
    return battle


def _dispute(actor, battle: Battle, sides: list[BattleParticipant], refusal: str) -> None:
    battle.status = Battle.Status.DISPUTED
    battle.save(update_fields=["status"])
    claims = ", ".join(f"{s.force.name} {s.get_claimed_result_display()}" for s in sides)
    common.write_history(
        [
            common.history_row(
                actor,
                HistoryAction.BATTLE_DISPUTED,
                f"{side.force.name}: the results disagree ({claims})",
                force=side.force,
                battle=battle,
                reason=refusal,
            )
            for side in sides
        ]
    )


@transaction.atomic
def settle_battle(*, actor, battle: Battle, results: dict[int, str], reason: str) -> Battle:
    """Organisers only: end a battle with the results they choose for the sides that fight
    (``results`` by `BattleParticipant` key), after a dispute or for an absent player. A
    side that has not recorded is recorded as its units' defaults (nothing destroyed, no
    kills); a side that did keeps its report. The reason is kept in the history."""
    reason = common.require_reason(
        reason, "Say why you settle this battle; the reason is kept in its history."
    )
    battle, sides = lock_battle(battle)
    require_open(battle)
    fighting = [side for side in sides if side.is_accepted]
    for side in fighting:
        if results.get(side.pk) not in RESULTS:
            common.refuse(f"Choose a result for {side.force.name}.", field=f"result_{side.pk}")
    refusal = rules.results_refusal([results[side.pk] for side in fighting])
    if refusal:
        common.refuse(refusal)
    now = timezone.now()
    rows = []
    for side in fighting:
        chosen = rules.BattleResult(results[side.pk]).label
        if side.has_recorded:
            note = f"it recorded {side.get_claimed_result_display()}"
        else:
            note = "recorded by an organiser"
            side.claimed_result, side.recorded_at = results[side.pk], now
            side.recorded_by = common.real_user(actor)
            side.save(update_fields=["claimed_result", "recorded_at", "recorded_by"])
        rows.append(
            common.history_row(
                actor,
                HistoryAction.BATTLE_SETTLED,
                f"{side.force.name}: {chosen}, settled by an organiser ({note})",
                force=side.force,
                battle=battle,
                reason=reason,
            )
        )
    common.write_history(rows)
    _complete(actor, battle, fighting, _armies(battle), results, now)
    return battle


@transaction.atomic
def record_battle_end(
    *,
    battle: Battle,
    results: dict[int, str],
    outcomes: dict[int, UnitOutcome],
    actor=None,
) -> Battle:
    """Every fighting side recorded at once, each by its own player (or all by ``actor``),
    so the battle completes: how the demo, the benchmark and tests play a battle to its
    end. Results that disagree are refused. The web lets each player record only their
    own side (`record_side`)."""
    claims = list(results.values())
    refusal = rules.results_refusal(claims) if all(c in RESULTS for c in claims) else None
    if refusal:
        common.refuse(refusal, field="results")
    sides = battle.participants.filter(invitation=BattleParticipant.Invitation.ACCEPTED)
    for side in sides.select_related("force__player").order_by("pk"):
        battle = record_side(
            actor=actor or side.force.player,
            participant=side,
            result=results.get(side.pk, ""),
            outcomes=outcomes,
        )
    return battle


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


def _complete(
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
        plan.append(_side_gain(side, results[side.pk], stored, army, picks[side.pk]))
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
