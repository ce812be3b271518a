"""The worker's side (`manage.py db_worker`): messages written and sent, tried again
with a growing wait, given up after `WEBHOOK_MOST_TRIES`, and a webhook that keeps failing
paused.

`announce` reads the history rows again, writes the message once, and keeps one
`WebhookDelivery` for each active webhook of the campaign that wants it; `deliver` makes
one try of one delivery. A try that failed for a passing reason (the address answered
5xx, did not answer in time, could not be reached, or asked us to slow down with a 429)
is tried again later: after Discord's or the header's Retry-After, else after
`WEBHOOK_RETRY_SECONDS` doubled at each try. The retry is a task queued to run then
(`run_after`, which the database backend honours); a backend that cannot defer (the
tests' immediate one) leaves the delivery waiting with its next try's time, for the
worker's next `deliver` of it. An answer that will not change (another 4xx, a redirect,
an address now refused) is not tried again. Every `WEBHOOK_PAUSE_AFTER` messages in a row
that could not be delivered pause the webhook, with the reason on it in the admin.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from campaign.models import Campaign, Webhook, WebhookDelivery
from campaign.services import webhooks as service

from . import messages, sending
from .events import BOXES

Status = WebhookDelivery.Status


@task()
def announce(campaign_id: int, action: str, row_ids: list[int]) -> int:
    """Write the message for the rows once, and queue it for each webhook that wants it;
    how many deliveries were queued."""
    box = BOXES.get(action)
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if box is None or campaign is None:
        return 0
    hooks = list(Webhook.objects.filter(campaign=campaign, paused_at=None, **{box: True}))
    if not hooks:
        return 0
    message = messages.build(action, row_ids)
    if message is None:
        return 0
    now = timezone.now()
    deliveries = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(
            webhook=hook,
            event=message.event,
            title=message.title[:300],
            body=messages.body(hook, campaign, message, now),
            created_at=now,
            next_try_at=now,
        )
        for hook in hooks
    )
    for delivery in deliveries:
        deliver.enqueue(delivery.pk)
    return len(deliveries)


def _backoff(tries: int) -> float:
    return settings.WEBHOOK_RETRY_SECONDS * 2 ** max(tries - 1, 0)


@task()
def deliver(delivery_id: int) -> str:
    """One try of one delivery; returns its status after the try."""
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or not delivery.is_open:
        return delivery.status if delivery else ""
    hook = delivery.webhook
    if hook.is_paused:
        delivery.status, delivery.next_try_at = Status.SKIPPED, None
        delivery.save(update_fields=["status", "next_try_at"])
        return delivery.status
    raw = delivery.body.encode()
    headers = {"X-Crusade-Event": delivery.event, "X-Crusade-Delivery": str(delivery.pk)}
    if hook.signs:
        headers[sending.SIGNATURE_HEADER] = sending.signature(hook.secret, raw)
    outcome = sending.post(hook.url, raw, headers)
    now = timezone.now()
    delivery.tries += 1
    delivery.last_tried_at = now
    delivery.response_code = outcome.code
    delivery.error = outcome.error[:500]
    if outcome.delivered:
        delivery.status, delivery.delivered_at, delivery.next_try_at = Status.DELIVERED, now, None
    elif outcome.retry and delivery.tries < settings.WEBHOOK_MOST_TRIES:
        wait = outcome.wait if outcome.wait is not None else _backoff(delivery.tries)
        delivery.status, delivery.next_try_at = Status.RETRYING, now + timedelta(seconds=wait)
    else:
        delivery.status = Status.GAVE_UP if outcome.retry else Status.FAILED
        delivery.next_try_at = None
    delivery.save()
    if delivery.status == Status.RETRYING:
        _retry_later(delivery)
    elif delivery.status != Status.DELIVERED or hook.failures_in_row:
        _count(hook, delivery)
    return delivery.status


def _retry_later(delivery: WebhookDelivery) -> None:
    if deliver.get_backend().supports_defer:
        deliver.using(run_after=delivery.next_try_at).enqueue(delivery.pk)


@transaction.atomic
def _count(hook: Webhook, delivery: WebhookDelivery) -> None:
    """A delivered message ends a run of failures; a failed one adds to it, and pauses
    the webhook once the run is `WEBHOOK_PAUSE_AFTER` long."""
    hook = Webhook.objects.select_for_update().get(pk=hook.pk)
    if delivery.status == Status.DELIVERED:
        hook.failures_in_row = 0
        hook.save(update_fields=["failures_in_row"])
        return
    hook.failures_in_row = min(hook.failures_in_row + 1, 10_000)
    hook.save(update_fields=["failures_in_row"])
    if not hook.is_paused and hook.failures_in_row >= settings.WEBHOOK_PAUSE_AFTER:
        service.pause_webhook(
            actor=None,
            webhook=hook,
            reason=f"{hook.failures_in_row} messages in a row could not be delivered; the "
            f"last: {delivery.error or 'no answer'}",
        )
