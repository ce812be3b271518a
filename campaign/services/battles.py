"""Battles: start, each side records its end, the battle completes (or is disputed and
settled). What the end gives and its writes are in `battle_gains`, mustering in
`muster`, invitations in `invitations`, the Out of Action tests after a battle in
`out_of_action`, undoing a battle in `void`."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from campaign import rules
from campaign.models import (
    Battle,
    BattleParticipant,
    Campaign,
    CrusadeForce,
    HistoryAction,
    OutOfActionTest,
    Promotion,
)

from . import _common as common
from . import agendas as agenda_service
from . import battle_gains as gains
from . import territories as territory_service
from .approval import FIGHT, require_approved
from .battle_gains import RESULTS, ForceGain, UnitOutcome
from .bulk import update_rows

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
    return gains.side_gain(side, result, outcomes, gains.armies(battle).get(side.pk, []))


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
    armies = gains.armies(battle)
    picks = agenda_service.battle_picks(s.pk for s in sides)
    gain = gains.side_gain(side, result, outcomes, armies.get(side.pk, []), picks[side.pk])
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
        gains.complete(actor, battle, fighting, armies, results, now, picks=picks)
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
    gains.complete(actor, battle, fighting, gains.armies(battle), results, now)
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
