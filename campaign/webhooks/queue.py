"""Told by `services._common` of every change's history rows (`campaign.apps` asks it to,
at start-up), this queues the news among them for the worker, once the change's
transaction commits.

Cost: a change none of whose rows is news (most are: a unit edited, a Requisition
bought) costs nothing, not even a query. A change with news costs one query, on an
index: which of its campaigns' active webhooks want it. Only then is a task queued, when
the transaction commits (a change rolled back queues nothing); the task reads the rows
again and writes the message (`campaign.webhooks.tasks`). Queueing that fails is logged,
never shown to the player whose click made the news: an announcement changes nothing."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from django.db import transaction

from campaign.models import HistoryEntry, Webhook

from .events import announcements


def wanted(campaign_ids: set[int]) -> dict[int, set[str]]:
    """The boxes ticked on each campaign's active webhooks (one query)."""
    found: dict[int, set[str]] = {}
    rows = (
        Webhook.objects.filter(campaign_id__in=campaign_ids, paused_at=None)
        .order_by()
        .values_list("campaign_id", *Webhook.EVENT_FIELDS)
    )
    for campaign_id, *boxes in rows:
        ticked = {name for name, on in zip(Webhook.EVENT_FIELDS, boxes, strict=True) if on}
        found.setdefault(campaign_id, set()).update(ticked)
    return found


def rows_written(rows: Iterable[HistoryEntry]) -> int:
    """Queue the news in ``rows`` for the webhooks that want it; how many were queued."""
    news = announcements(rows)
    if not news:
        return 0
    boxes = wanted({one.campaign_id for one in news})
    queued = 0
    for one in news:
        if one.box in boxes.get(one.campaign_id, ()):
            transaction.on_commit(
                partial(_enqueue, one.campaign_id, one.action, one.rows), robust=True
            )
            queued += 1
    return queued


def _enqueue(campaign_id: int, action: str, rows: tuple[int, ...]) -> None:
    from . import tasks

    tasks.announce.enqueue(campaign_id, action, list(rows))
