"""The campaign's map: which territory a battle may be fought over, and how a battle's end
(or its void) changes who holds it. Every change is a `TerritoryChange` and a history row.

Organisers import a map (from a file or an enabled pack's map section), add and edit
territories, hand a territory to an alliance with a reason, and set the map's rules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from campaign import maps
from campaign.jsonfiles import ID_RE
from campaign.models import (
    Alliance,
    Battle,
    BattleParticipant,
    Campaign,
    ContentPack,
    CrusadeForce,
    EnabledPack,
    HistoryAction,
    Territory,
    TerritoryChange,
)

from . import _common as common

TOOK, HELD = "took", "held"
VOIDED = "battle voided"
NO_ALLIANCE = (
    "{force} fights for no alliance: under this campaign's rules a battle over a territory "
    "starts from ground an alliance holds. Fight without a territory, or join an alliance."
)
OUT_OF_REACH = (
    "{territory} is out of reach: your alliance must hold it, or hold a territory that borders it."
)
NOT_ON_MAP = "That territory is not on this campaign's map."


def _lock_campaign(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _change(
    actor, territory: Territory, campaign: Campaign, *, battle=None, reason: str, **state
) -> TerritoryChange:
    """Write one change of ``territory`` (before its new state is saved)."""
    return TerritoryChange.objects.create(
        territory=territory,
        campaign_id=campaign.pk,
        phase_id=campaign.current_phase_id,
        battle=battle,
        held_before_id=territory.held_by_id,
        held_after_id=state.get("held_after", territory.held_by_id),
        points_before=territory.control_points,
        points_after=state.get("points_after", territory.control_points),
        actor=common.real_user(actor),
        reason=reason[:500],
    )


def _names(pks: Iterable[int | None]) -> dict[int | None, str]:
    """Alliance names by id (None is nobody), in one query."""
    wanted = {pk for pk in pks if pk is not None}
    names: dict[int | None, str] = {None: "nobody"}
    names.update(Alliance.objects.filter(pk__in=wanted).values_list("pk", "name"))
    return names


def check_battle_ground(
    *, campaign: Campaign | None, force: CrusadeForce, territory: Territory | None
) -> None:
    """Refuse a territory that is not the campaign's, or (under the campaign's
    ``attack_from_held`` rule) one the force's alliance can't reach."""
    if territory is None:
        return
    if campaign is None or territory.campaign_id != campaign.pk:
        common.refuse(NOT_ON_MAP, field="territory")
    if not campaign.attack_from_held:
        return
    if force.alliance_id is None:
        common.refuse(NO_ALLIANCE.format(force=force.name), field="territory")
    if territory.held_by_id == force.alliance_id:
        return
    if not territory.neighbours.filter(held_by_id=force.alliance_id).exists():
        common.refuse(OUT_OF_REACH.format(territory=territory.name), field="territory")


def after_battle(actor, battle: Battle, sides: list[BattleParticipant]) -> dict[int, str]:
    """Inside the battle's end: change who holds its territory by the campaign's rule.
    Returns side pk -> "took" or "held" for the side whose alliance took or kept it.

    Only a battle over a territory with a single winning side that fights for an
    alliance changes anything; the number of queries does not depend on the map."""
    if battle.territory_id is None:
        return {}
    winners = [side for side in sides if side.result == BattleParticipant.Result.WIN]
    if len(winners) != 1 or winners[0].force.alliance_id is None:
        return {}
    winner = winners[0]
    alliance_id = winner.force.alliance_id
    territory = (
        Territory.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .get(pk=battle.territory_id)
    )
    campaign = territory.campaign
    if territory.held_by_id == alliance_id:
        return {winner.pk: HELD}
    by = winner.recorded_by or actor
    points = dict(territory.control_points)
    key = str(alliance_id)
    took = campaign.territory_rule == Campaign.TerritoryRule.WINNER_TAKES
    if not took:
        points[key] = points.get(key, 0) + 1
        took = points[key] >= campaign.control_threshold
    names = _names([territory.held_by_id, alliance_id])
    if took:
        _change(
            by,
            territory,
            campaign,
            battle=battle,
            reason="battle",
            held_after=alliance_id,
            points_after={},
        )
        summary = f"{names[alliance_id]} takes {territory.name} from {names[territory.held_by_id]}"
        territory.held_by_id, territory.control_points = alliance_id, {}
    else:
        _change(by, territory, campaign, battle=battle, reason="battle", points_after=points)
        summary = (
            f"{names[alliance_id]} gains a control point on {territory.name} "
            f"({points[key]} of {campaign.control_threshold})"
        )
        territory.control_points = points
    territory.save(update_fields=["held_by", "control_points"])
    common.record(
        by, HistoryAction.TERRITORY_CONTROL_CHANGED, summary, campaign=campaign, battle=battle
    )
    return {winner.pk: TOOK} if took else {}


def after_void(actor, battle: Battle, reason: str) -> None:
    """Inside a void: put the battle's territory back as the battle found it, unless it
    changed since (then it stays, and a history row says so)."""
    if battle.territory_id is None:
        return
    made = TerritoryChange.objects.filter(battle=battle).order_by("-created_at", "-pk").first()
    if made is None:
        return
    territory = (
        Territory.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .get(pk=battle.territory_id)
    )
    campaign = territory.campaign
    if TerritoryChange.objects.filter(territory=territory, pk__gt=made.pk).exists():
        common.record(
            actor,
            HistoryAction.TERRITORY_CONTROL_CHANGED,
            f"{territory.name} has changed since this battle: it stays as it is",
            campaign=campaign,
            battle=battle,
            reason=reason,
        )
        return
    names = _names([territory.held_by_id, made.held_before_id])
    _change(
        actor,
        territory,
        campaign,
        battle=battle,
        reason=VOIDED,
        held_after=made.held_before_id,
        points_after=made.points_before,
    )
    territory.held_by_id, territory.control_points = made.held_before_id, made.points_before
    territory.save(update_fields=["held_by", "control_points"])
    common.record(
        actor,
        HistoryAction.TERRITORY_CONTROL_CHANGED,
        f"{territory.name} goes back to {names[made.held_before_id]}: the battle was voided",
        campaign=campaign,
        battle=battle,
        reason=reason,
    )


def read_map_file(data: bytes | dict[str, Any]) -> maps.CampaignMap:
    """The checked map (from a file's bytes, or its parsed data), or a ValidationError
    listing each problem with its place."""
    try:
        return maps.load_map(data) if isinstance(data, bytes) else maps.check(data)
    except maps.MapError as error:
        common.refuse("\n".join(error.problems), field="file")
        raise  # not reached: refuse raises


@transaction.atomic
def import_map(*, actor, campaign: Campaign, data: bytes | dict[str, Any]) -> list[Territory]:
    """Give a campaign with no territories the map of a file: all of it, or nothing."""
    read = read_map_file(data)
    campaign = _lock_campaign(campaign)
    if Territory.objects.filter(campaign=campaign).exists():
        common.refuse(
            f"{campaign.name} already has a map: a map file only fills an empty one. "
            "Change its territories one by one instead.",
            field="file",
        )
    alliances = dict(Alliance.objects.filter(campaign=campaign).values_list("name", "pk"))
    problems = maps.check_holders(read.territories, alliances)
    if problems:
        common.refuse("\n".join(problems[:50]), field="file")
    made = Territory.objects.bulk_create(
        Territory(
            campaign=campaign,
            key=t.id,
            name=t.name,
            description=t.description,
            column=t.column,
            row=t.row,
            held_by_id=alliances.get(t.held_by) if t.held_by else None,
        )
        for t in read.territories
    )
    by_key = {t.key: t for t in made}
    borders = {
        pair
        for t in read.territories
        for other in t.neighbours
        for pair in ((by_key[t.id].pk, by_key[other].pk), (by_key[other].pk, by_key[t.id].pk))
    }
    through = Territory.neighbours.through
    through.objects.bulk_create(
        through(from_territory_id=a, to_territory_id=b) for a, b in sorted(borders)
    )
    campaign.map_name, campaign.map_description = read.map.name, read.map.description
    campaign.save(update_fields=["map_name", "map_description"])
    common.record(
        actor,
        HistoryAction.MAP_IMPORTED,
        f"Map {read.map.name} of {campaign.name}: {len(made)} territories",
        campaign=campaign,
    )
    return made


def apply_pack_map(*, actor, campaign: Campaign, pack: ContentPack) -> list[Territory]:
    """The map an enabled pack carries, imported into the campaign (`import_map`)."""
    if pack.map is None:
        common.refuse(f"{pack.name} carries no map.", field="pack")
    if not EnabledPack.objects.filter(campaign=campaign, pack=pack).exists():
        common.refuse(f"{pack.name} is not enabled in {campaign.name}.", field="pack")
    section = maps.check_section(pack.map)
    return import_map(
        actor=actor, campaign=campaign, data=maps.map_data(maps.from_section(section))
    )


@transaction.atomic
def define_territory(
    *,
    actor,
    campaign: Campaign,
    key: str,
    name: str,
    column: int,
    row: int,
    description: str = "",
    neighbours: Iterable[Territory] = (),
    territory: Territory | None = None,
) -> Territory:
    """Add a territory to the campaign's map, or change ``territory``: its id, name,
    place on the grid and neighbours (each border is both ways)."""
    campaign = _lock_campaign(campaign)
    common.refuse_out_of_range(Territory, {"column": column, "row": row})
    name, key = (name or "").strip(), (key or "").strip()
    if not name:
        common.refuse("Give the territory a name.", field="name")
    if not ID_RE.match(key):
        common.refuse("An id is 1 to 40 lowercase letters, digits or hyphens.", field="key")
    mine = Territory.objects.filter(campaign=campaign)
    if territory is not None:
        if territory.campaign_id != campaign.pk:
            common.refuse(NOT_ON_MAP, field="territory")
        mine = mine.exclude(pk=territory.pk)
    elif mine.count() >= maps.MOST_TERRITORIES:
        common.refuse(f"A map holds at most {maps.MOST_TERRITORIES} territories.")
    if mine.filter(key=key).exists():
        common.refuse(f'Another territory has the id "{key}".', field="key")
    if taken := mine.filter(column=column, row=row).first():
        common.refuse(f"{taken.name} is already on that hex.", field="column")
    neighbours = list(neighbours)
    if any(n.campaign_id != campaign.pk for n in neighbours):
        common.refuse(NOT_ON_MAP, field="neighbours")
    if territory is not None and any(n.pk == territory.pk for n in neighbours):
        common.refuse("A territory can't border itself.", field="neighbours")
    values = {"key": key, "name": name, "description": description, "column": column, "row": row}
    if territory is None:
        territory = Territory.objects.create(campaign=campaign, **values)
        diff = {field: [None, value] for field, value in values.items()}
        summary = f"Territory {name} added to the map of {campaign.name}"
    else:
        territory = Territory.objects.select_for_update().get(pk=territory.pk)
        diff = common.apply_changes(territory, list(values), values)
        if diff:
            territory.save(update_fields=list(diff))
        summary = f"Territory {name} of {campaign.name} changed"
    before = sorted(territory.neighbours.values_list("key", flat=True))
    territory.neighbours.set(neighbours)
    after = sorted(n.key for n in neighbours)
    if before != after:
        diff["neighbours"] = [before, after]
    if diff:
        common.record(
            actor, HistoryAction.TERRITORY_CHANGED, summary, campaign=campaign, changed=diff
        )
    return territory


@transaction.atomic
def set_territory_holder(
    *, actor, territory: Territory, alliance: Alliance | None, reason: str
) -> Territory:
    """An organiser hands a territory to an alliance (or to nobody), saying why."""
    reason = common.require_reason(reason, "Say why the territory changes hands.")
    territory = (
        Territory.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .get(pk=territory.pk)
    )
    campaign = territory.campaign
    if alliance is not None and alliance.campaign_id != campaign.pk:
        common.refuse("That alliance is not one of this campaign's.", field="alliance")
    after = alliance.pk if alliance is not None else None
    if territory.held_by_id == after:
        common.refuse(f"{territory.name} is already held by that side.", field="alliance")
    names = _names([territory.held_by_id, after])
    _change(actor, territory, campaign, reason=reason, held_after=after, points_after={})
    summary = f"{territory.name} passes from {names[territory.held_by_id]} to {names[after]}"
    territory.held_by_id, territory.control_points = after, {}
    territory.save(update_fields=["held_by", "control_points"])
    common.record(
        actor, HistoryAction.TERRITORY_CONTROL_CHANGED, summary, campaign=campaign, reason=reason
    )
    return territory


@transaction.atomic
def set_map_rules(*, actor, campaign: Campaign, reason: str = "", **values: Any) -> Campaign:
    """Change how battles change the map (`Campaign.MAP_RULE_FIELDS`)."""
    common.only(values, Campaign.MAP_RULE_FIELDS, "map rules")
    if "territory_rule" in values and values["territory_rule"] not in Campaign.TerritoryRule.values:
        common.refuse("Pick one of the rules.", field="territory_rule")
    campaign = _lock_campaign(campaign)
    diff = common.apply_changes(campaign, Campaign.MAP_RULE_FIELDS, values)
    if diff:
        campaign.save(update_fields=list(diff))
        common.record(
            actor,
            HistoryAction.TERRITORY_CHANGED,
            f"Map rules of {campaign.name} changed",
            campaign=campaign,
            changed=diff,
            reason=reason,
        )
    return campaign
