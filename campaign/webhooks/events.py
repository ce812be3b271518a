"""Which history rows are news, and which box of a webhook each is announced under.

Every change writes its history rows through `services._common` (`record`,
`write_history`); the rows of one change that are news are gathered here into
announcements, each naming the rows the worker reads again to write the message:

- a battle completed: its sides' ``battle_recorded`` rows (one message a battle);
- a dispute: ``battle_disputed`` rows; an organiser settling it: ``battle_settled`` rows
  (the completion that follows is announced as a battle too);
- a promotion to one of the two highest ranks: the ``unit_battle_recorded`` rows whose XP
  crosses into them (one message a battle): promotions are earned only by battles;
- a newcomer: ``member_joined``, ``force_created`` in a campaign, ``force_joined_campaign``;
- a log entry written; the next phase begun.

Rows copied from a restored force's export (`HistoryEntry.imported_from`) are old news.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from campaign import rules
from campaign.models import HistoryAction, HistoryEntry

A = HistoryAction

BOXES: dict[str, str] = {
    A.BATTLE_RECORDED: "on_battle",
    A.BATTLE_DISPUTED: "on_dispute",
    A.BATTLE_SETTLED: "on_dispute",
    A.UNIT_BATTLE_RECORDED: "on_promotion",
    A.MEMBER_JOINED: "on_newcomer",
    A.FORCE_CREATED: "on_newcomer",
    A.FORCE_JOINED_CAMPAIGN: "on_newcomer",
    A.LOG_ENTRY_WRITTEN: "on_log_entry",
    A.PHASE_ADVANCED: "on_phase",
}
"""The webhook's box (`Webhook.EVENT_FIELDS`) each announced action is sent under."""

BY_BATTLE = {A.BATTLE_RECORDED, A.BATTLE_DISPUTED, A.BATTLE_SETTLED, A.UNIT_BATTLE_RECORDED}
"""Actions whose rows of one battle make one message."""

NOTABLE = rules.Rank.HEROIC


@dataclass(frozen=True)
class Announcement:
    """News of one campaign: the action, and the history rows its message is made from."""

    campaign_id: int
    action: str
    rows: tuple[int, ...]

    @property
    def box(self) -> str:
        return BOXES[self.action]


def reaches_notable_rank(row: HistoryEntry) -> bool:
    """A unit's battle row whose XP takes it into one of the two highest ranks."""
    xp = (row.changes or {}).get("xp")
    if not isinstance(xp, list) or len(xp) != 2 or not all(isinstance(v, int) for v in xp):
        return False
    before, after = rules.rank_for_xp(xp[0]), rules.rank_for_xp(xp[1])
    return before < after and after >= NOTABLE


def _is_news(row: HistoryEntry) -> bool:
    if row.action not in BOXES or row.campaign_id is None or row.pk is None:
        return False
    if row.imported_from:  # a restored force's past, copied from its export: old news
        return False
    if row.action in BY_BATTLE and row.battle_id is None:
        return False
    if row.action == A.UNIT_BATTLE_RECORDED:
        return reaches_notable_rank(row)
    return True


def announcements(rows: Iterable[HistoryEntry]) -> list[Announcement]:
    """The news in ``rows`` (no query): battle rows grouped by battle, others one each."""
    grouped: dict[tuple, list[int]] = {}
    for row in rows:
        if not _is_news(row):
            continue
        one = row.battle_id if row.action in BY_BATTLE else f"row-{row.pk}"
        grouped.setdefault((row.campaign_id, row.action, one), []).append(row.pk)
    return [
        Announcement(campaign_id, action, tuple(pks))
        for (campaign_id, action, _), pks in grouped.items()
    ]
