"""Campaign Points: what a completed battle scores for each side, its force and its
alliance, by the campaign's scoring (`Campaign.SCORING_FIELDS`), and moved back exactly by
a void."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When

from campaign import rules
from campaign.models import (
    AllianceTotal,
    Battle,
    BattleParticipant,
    Campaign,
    CrusadeForce,
    HistoryAction,
)
from campaign.models.forces import MOST_FORCE_CAMPAIGN_POINTS

from . import _common as common
from .bulk import update_rows

SCORING_FIELDS = Campaign.SCORING_FIELDS
FOR_RESULT = {
    rules.BattleResult.WIN: "points_for_win",
    rules.BattleResult.DRAW: "points_for_draw",
    rules.BattleResult.LOSS: "points_for_loss",
}
FOR_GROUND = {"took": "points_for_taking", "held": "points_for_holding"}


def points_for(campaign: Campaign | None, result: str, ground: str | None = None) -> int:
    """What one side scores by the campaign's scoring: its result's points, and those for
    taking or holding the battle's territory."""
    if campaign is None:
        return 0
    points = getattr(campaign, FOR_RESULT[result]) if result in FOR_RESULT else 0
    if ground in FOR_GROUND:
        points += getattr(campaign, FOR_GROUND[ground])
    return points


def score(battle: Battle, sides: list[BattleParticipant], ground: dict[int, str]) -> None:
    """Inside the battle's end (forces locked): each side's Campaign Points and alliance.
    ``ground`` is `territories.after_battle`'s answer: side pk -> "took" or "held".
    Two queries whatever the armies' size (one per table)."""
    if not sides:
        return
    campaign = sides[0].force.campaign if battle.campaign_id else None
    forces = []
    for side in sides:
        force = side.force
        side.alliance_id = force.alliance_id
        side.campaign_points = points_for(campaign, side.result, ground.get(side.pk))
        force.campaign_points = min(
            MOST_FORCE_CAMPAIGN_POINTS, force.campaign_points + side.campaign_points
        )
        forces.append(force)
    update_rows(sides, ["alliance", "campaign_points"])
    update_rows(forces, ["campaign_points"])
    _count_for_alliances(battle, sides, 1)


def unscore(
    battle: Battle, sides: list[BattleParticipant], forces: dict[int, CrusadeForce]
) -> None:
    """Inside a void (forces locked): take back what `score` gave (never below 0). The
    sides keep what they scored, as the record of a battle that no longer counts."""
    _count_for_alliances(battle, sides, -1)
    changed = []
    for side in sides:
        force = forces.get(side.force_id)
        if force is not None and side.campaign_points:
            force.campaign_points = max(0, force.campaign_points - side.campaign_points)
            changed.append(force)
    if changed:
        update_rows(changed, ["campaign_points"])


def _count_for_alliances(battle: Battle, sides: list[BattleParticipant], sign: int) -> None:
    """Add a completed battle to the totals of each alliance with a side in it, in the
    battle's phase (``sign`` 1), or take it back out (-1, a void): one UPDATE, made as
    increments so that battles ending at once both count. An alliance's row for a phase
    is made with its first battle there (if a battle ending at the same moment made it
    first, this one is added to it)."""
    if battle.campaign_id is None:
        return
    counted: dict[int, dict[str, int]] = {}
    for side in sides:
        if side.alliance_id is not None:
            change = counted.setdefault(
                side.alliance_id, {"battles": sign, "wins": 0, "campaign_points": 0}
            )
            if side.result == BattleParticipant.Result.WIN:
                change["wins"] = sign
            change["campaign_points"] += sign * side.campaign_points
    if not counted:
        return
    rows = AllianceTotal.objects.filter(phase_id=battle.phase_id, alliance_id__in=counted)

    def add(rows) -> int:
        return rows.update(
            **{
                name: F(name)
                + Case(
                    *(
                        When(alliance_id=a, then=Value(change[name]))
                        for a, change in counted.items()
                    ),
                    default=Value(0),
                )
                for name in ("battles", "wins", "campaign_points")
            }
        )

    if add(rows) == len(counted):
        return
    for alliance in sorted(set(counted) - set(rows.values_list("alliance_id", flat=True))):
        try:
            with transaction.atomic():
                AllianceTotal.objects.create(
                    campaign_id=battle.campaign_id,
                    alliance_id=alliance,
                    phase_id=battle.phase_id,
                    **{name: max(0, value) for name, value in counted[alliance].items()},
                )
        except IntegrityError:  # made meanwhile by a battle ending at the same moment
            add(rows.filter(alliance_id=alliance))


@transaction.atomic
def set_scoring(*, actor, campaign: Campaign, reason: str = "", **values: int) -> Campaign:
    """Change the Campaign Points a battle scores from now on; battles already completed
    keep what they scored."""
    common.only(values, SCORING_FIELDS, "scoring")
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    diff = common.apply_changes(campaign, SCORING_FIELDS, values)
    if not diff:
        return campaign
    campaign.save(update_fields=list(diff))
    common.record(
        actor,
        HistoryAction.SCORING_CHANGED,
        f"Campaign Points of {campaign.name} changed",
        campaign=campaign,
        changed=diff,
        reason=(reason or "").strip(),
    )
    return campaign
