"""The messages, in our own words, from the rows as they are when the worker runs.

Each names forces, units and players as the campaign's pages show them, and links back
to the page the news is on. Nothing else goes out: no email address, no reason typed for
the history, no hidden log entry, nothing a member of the campaign could not see.
A message whose news is no longer true when the worker reads it (a battle voided since,
a log entry hidden) is not sent at all.

Links are absolute: the worker has no request, so they start with the `SITE_URL`
setting, or else with the address the admin was used at when the webhook was saved
(`Webhook.site_url`). With neither, the message goes without a link.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings

from campaign import rules
from campaign.models import (
    Battle,
    BattleParticipant,
    BattleUnit,
    Campaign,
    HistoryAction,
    HistoryEntry,
    LogEntry,
    Membership,
    Unit,
    Webhook,
)

A = HistoryAction
EXCERPT = 300
"""Characters of a log entry's story or a phase's narrative quoted in a message."""

EVENT_NAMES: dict[str, str] = {
    A.BATTLE_RECORDED: "battle_completed",
    A.BATTLE_DISPUTED: "battle_disputed",
    A.BATTLE_SETTLED: "battle_settled",
    A.UNIT_BATTLE_RECORDED: "promotion",
    A.MEMBER_JOINED: "member_joined",
    A.FORCE_CREATED: "force_created",
    A.FORCE_JOINED_CAMPAIGN: "force_joined",
    A.LOG_ENTRY_WRITTEN: "log_entry",
    A.PHASE_ADVANCED: "phase_advanced",
}
"""The ``event`` a JSON message names, by the action of its rows."""


@dataclass
class Message:
    event: str
    title: str
    lines: list[str]
    path: str
    details: dict = field(default_factory=dict)


def _excerpt(text: str) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1].rstrip() + "…"


def _battle_name(battle: Battle) -> str:
    return f"{battle.battle_size} battle" + (f", {battle.mission}" if battle.mission else "")


def _sides(battle: Battle) -> list[BattleParticipant]:
    return list(
        battle.participants.filter(invitation=BattleParticipant.Invitation.ACCEPTED)
        .select_related("force")
        .order_by("pk")
    )


def _battle(rows: list[HistoryEntry]) -> Battle | None:
    return (
        Battle.objects.select_related("campaign", "territory", "phase")
        .filter(pk=rows[0].battle_id)
        .first()
    )


def _side_headline(side: BattleParticipant, army: list[BattleUnit]) -> tuple[str, dict]:
    xp = sum(max(entry.xp_gained or 0, 0) for entry in army)
    promoted = [
        (entry.unit.name, rules.rank_for_xp(entry.xp_after).label)
        for entry in army
        if entry.promotions_earned and entry.xp_after is not None
    ]
    out = [entry.unit.name for entry in army if entry.destroyed]
    line = f"{side.force.name}: {side.get_result_display()}, +{xp}XP"
    if promoted:
        line += "; promoted: " + ", ".join(f"{name} ({rank})" for name, rank in promoted)
    if out:
        line += "; out of action: " + ", ".join(out)
    details = {
        "force": side.force.name,
        "result": side.result,
        "xp_gained": xp,
        "promotions": [{"unit": name, "rank": rank} for name, rank in promoted],
        "out_of_action": out,
    }
    return line, details


def battle_completed(rows: list[HistoryEntry]) -> Message | None:
    battle = _battle(rows)
    if battle is None or battle.status != Battle.Status.COMPLETED:
        return None
    sides = _sides(battle)
    entries = BattleUnit.objects.filter(participant__in=sides).select_related("unit").order_by("pk")
    armies: dict[int, list[BattleUnit]] = {}
    for entry in entries:
        armies.setdefault(entry.participant_id, []).append(entry)
    lines, details = [], []
    for side in sides:
        line, detail = _side_headline(side, armies.get(side.pk, []))
        lines.append(line)
        details.append(detail)
    if battle.territory_id:
        lines.append(f"Fought over {battle.territory.name}.")
    return Message(
        "battle_completed",
        f"Battle completed: {_battle_name(battle)}",
        lines,
        battle.get_absolute_url(),
        {"battle": battle.pk, "date": battle.date.isoformat(), "sides": details},
    )


def battle_disputed(rows: list[HistoryEntry]) -> Message | None:
    battle = _battle(rows)
    if battle is None:
        return None
    sides = _sides(battle)
    lines = [f"{side.force.name} records {side.get_claimed_result_display()}" for side in sides]
    lines.append("Either player can change their side, or an organiser settles it.")
    return Message(
        "battle_disputed",
        f"Results disagree: {_battle_name(battle)}",
        lines,
        battle.get_absolute_url(),
        {
            "battle": battle.pk,
            "claims": [{"force": s.force.name, "result": s.claimed_result} for s in sides],
        },
    )


def battle_settled(rows: list[HistoryEntry]) -> Message | None:
    battle = _battle(rows)
    if battle is None or battle.status in (Battle.Status.VOIDED, Battle.Status.CANCELLED):
        return None
    sides = _sides(battle)
    lines = [f"{side.force.name}: {side.get_result_display()}" for side in sides if side.result]
    return Message(
        "battle_settled",
        f"An organiser settled the {_battle_name(battle)}",
        lines,
        battle.get_absolute_url(),
        {
            "battle": battle.pk,
            "results": [{"force": s.force.name, "result": s.result} for s in sides],
        },
    )


def promotion(rows: list[HistoryEntry]) -> Message | None:
    battle = _battle(rows)
    if battle is None or battle.status != Battle.Status.COMPLETED:
        return None
    units = Unit.objects.select_related("force").in_bulk([row.unit_id for row in rows])
    promoted = []
    for row in rows:
        unit = units.get(row.unit_id)
        if unit is not None:
            promoted.append((unit, rules.rank_for_xp(row.changes["xp"][1]).label))
    if not promoted:
        return None
    lines = [f"{unit.name} of {unit.force.name} is now {rank}." for unit, rank in promoted]
    if len(promoted) == 1:
        unit, rank = promoted[0]
        title, path = f"{unit.name} is now {rank}", unit.get_absolute_url()
    else:
        title, path = f"Promotions after the {_battle_name(battle)}", battle.get_absolute_url()
    return Message(
        "promotion",
        title,
        lines,
        path,
        {
            "battle": battle.pk,
            "units": [{"unit": u.name, "force": u.force.name, "rank": r} for u, r in promoted],
        },
    )


def member_joined(rows: list[HistoryEntry]) -> Message | None:
    """A new member; not one who accepted an invitation after joining with the link."""
    row = rows[0]
    joined_before = HistoryEntry.objects.filter(
        action=row.action, campaign_id=row.campaign_id, actor_id=row.actor_id, pk__lt=row.pk
    )
    if row.actor_id is None or joined_before.exists():
        return None
    membership = (
        Membership.objects.select_related("user", "campaign")
        .filter(campaign_id=row.campaign_id, user_id=row.actor_id)
        .first()
    )
    if membership is None:
        return None
    campaign, name = membership.campaign, membership.user.username
    return Message(
        "member_joined",
        f"{name} joined {campaign.name}",
        [f"{name} joins as {membership.get_role_display()}."],
        campaign.get_absolute_url(),
        {"player": name, "role": membership.role},
    )


def force_arrived(rows: list[HistoryEntry]) -> Message | None:
    row = rows[0]
    force = row.force
    if force is None or force.campaign_id != row.campaign_id:
        return None
    return Message(
        EVENT_NAMES[row.action],
        f"{force.name} joins {force.campaign.name}",
        [f"{force.name}, {force.faction}, led by {force.player.username}."],
        force.get_absolute_url(),
        {"force": force.name, "faction": force.faction, "player": force.player.username},
    )


def log_entry(rows: list[HistoryEntry]) -> Message | None:
    row = rows[0]
    title = ((row.changes or {}).get("title") or [None, None])[1]
    entry = (
        LogEntry.objects.select_related("author")
        .filter(campaign_id=row.campaign_id, author_id=row.actor_id, title=title)
        .filter(created_at__lte=row.created_at)
        .order_by("-created_at", "-pk")
        .first()
    )
    if entry is None or entry.is_hidden:
        return None
    by = entry.author.username if entry.author else "A member"
    return Message(
        "log_entry",
        f"Campaign log: {entry.title}",
        [_excerpt(entry.text), f"Written by {by}."],
        entry.get_absolute_url(),
        {"title": entry.title, "author": by},
    )


def phase_advanced(rows: list[HistoryEntry]) -> Message | None:
    row = rows[0]
    campaign = Campaign.objects.select_related("current_phase").filter(pk=row.campaign_id).first()
    phase = campaign.current_phase if campaign is not None else None
    if phase is None:
        return None
    lines = [f"Phase {phase.position}: {phase.name}."]
    if phase.narrative:
        lines.append(_excerpt(phase.narrative))
    return Message(
        "phase_advanced",
        f"{campaign.name}: {phase.name} begins",
        lines,
        campaign.get_absolute_url(),
        {"phase": phase.name, "position": phase.position},
    )


BUILDERS: dict[str, Callable[[list[HistoryEntry]], Message | None]] = {
    A.BATTLE_RECORDED: battle_completed,
    A.BATTLE_DISPUTED: battle_disputed,
    A.BATTLE_SETTLED: battle_settled,
    A.UNIT_BATTLE_RECORDED: promotion,
    A.MEMBER_JOINED: member_joined,
    A.FORCE_CREATED: force_arrived,
    A.FORCE_JOINED_CAMPAIGN: force_arrived,
    A.LOG_ENTRY_WRITTEN: log_entry,
    A.PHASE_ADVANCED: phase_advanced,
}


def build(action: str, row_ids: list[int]) -> Message | None:
    """The message for the rows of one announcement, or None when it is no longer news."""
    rows = list(
        HistoryEntry.objects.select_related("force__campaign", "force__player")
        .filter(pk__in=row_ids, action=action)
        .order_by("pk")
    )
    if not rows or action not in BUILDERS:
        return None
    return BUILDERS[action](rows)


def link(webhook: Webhook, path: str) -> str | None:
    base = (settings.SITE_URL or webhook.site_url or "").rstrip("/")
    return f"{base}{path}" if base and path else None


def body(webhook: Webhook, campaign: Campaign, message: Message, when: datetime) -> str:
    """The JSON sent to ``webhook``: Discord's shape, or ours (signed when sent)."""
    url = link(webhook, message.path)
    if webhook.kind == Webhook.Kind.DISCORD:
        embed = {
            "title": message.title[:256],
            "description": "\n".join(message.lines)[:4096],
            "footer": {"text": campaign.name[:2048]},
            "timestamp": when.isoformat(),
        }
        if url:
            embed["url"] = url
        data = {
            "username": "Crusade Tracker",
            "allowed_mentions": {"parse": []},  # a name typed as @everyone pings nobody
            "embeds": [embed],
        }
    else:
        data = {
            "event": message.event,
            "campaign": {
                "id": campaign.pk,
                "name": campaign.name,
                "url": link(webhook, campaign.get_absolute_url()),
            },
            "title": message.title,
            "text": "\n".join(message.lines),
            "url": url,
            "details": message.details,
            "occurred_at": when.isoformat(),
        }
    return json.dumps(data, ensure_ascii=False)
