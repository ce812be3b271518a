"""Announcements to a campaign's group chat: its organisers add webhooks, change them,
pause and resume them (`campaign.webhooks` sends the messages).

Every change writes a history row naming the campaign, with the webhook's name and the
news it announces: never its address (a Discord webhook's address is its password) nor
its signing secret. The worker pauses a webhook that keeps failing through
`pause_webhook` too, as the system (no actor).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.models import Campaign, HistoryAction, Webhook

from . import _common as common

EDITABLE = ("name", "kind", "url", *Webhook.EVENT_FIELDS)
HIDDEN = "(not shown)"


def _news(webhook: Webhook) -> str:
    boxes = [
        str(Webhook._meta.get_field(name).verbose_name)
        for name in Webhook.EVENT_FIELDS
        if getattr(webhook, name)
    ]
    return ", ".join(boxes) or "nothing yet"


def _checked(webhook: Webhook) -> None:
    """Every field's own checks (the address's above all), refused by field."""
    try:
        webhook.full_clean(exclude=["campaign", "created_by", "site_url"], validate_unique=False)
    except ValidationError as error:
        raise ValidationError(error.message_dict) from error


def _for_history(diff: dict) -> dict:
    if "url" in diff:
        diff = {**diff, "url": [HIDDEN, "changed"]}
    return diff


def _lock(webhook: Webhook) -> Webhook:
    return Webhook.objects.select_for_update().select_related("campaign").get(pk=webhook.pk)


@transaction.atomic
def add_webhook(
    *,
    actor,
    campaign: Campaign,
    name: str,
    url: str,
    kind: str = Webhook.Kind.DISCORD,
    site_url: str = "",
    **boxes: bool,
) -> Webhook:
    """A new webhook of ``campaign``, with its own signing secret; ``boxes``: the news it
    announces (`Webhook.EVENT_FIELDS`, each on unless given)."""
    common.only(boxes, Webhook.EVENT_FIELDS)
    webhook = Webhook(
        campaign=campaign,
        name=(name or "").strip(),
        url=(url or "").strip(),
        kind=kind,
        site_url=site_url[:200],
        created_by=common.real_user(actor),
        **boxes,
    )
    _checked(webhook)
    webhook.save()
    common.record(
        actor,
        HistoryAction.WEBHOOK_ADDED,
        f"Announcements to {webhook.name} added: {_news(webhook)}",
        campaign=campaign,
        changed={"name": [None, webhook.name], "kind": [None, webhook.kind]},
    )
    return webhook


@transaction.atomic
def change_webhook(*, actor, webhook: Webhook, site_url: str = "", **values) -> Webhook:
    """Change what ``values`` name (`EDITABLE`); the address is checked again."""
    common.only(values, EDITABLE)
    webhook = _lock(webhook)
    if "name" in values or "url" in values:
        values = {k: (v or "").strip() if k in ("name", "url") else v for k, v in values.items()}
    diff = common.apply_changes(webhook, EDITABLE, values)
    if site_url and site_url != webhook.site_url:
        webhook.site_url = site_url[:200]
        webhook.save(update_fields=["site_url"])
    if not diff:
        return webhook
    _checked(webhook)
    webhook.save(update_fields=list(diff))
    common.record(
        actor,
        HistoryAction.WEBHOOK_CHANGED,
        f"Announcements to {webhook.name} changed: {_news(webhook)}",
        campaign=webhook.campaign,
        changed=_for_history(diff),
    )
    return webhook


@transaction.atomic
def pause_webhook(*, actor, webhook: Webhook, reason: str) -> Webhook:
    """Stop sending to ``webhook`` until an organiser resumes it; the reason is shown on it."""
    reason = common.require_reason(reason, "Say why these announcements pause.")
    webhook = _lock(webhook)
    if webhook.is_paused:
        return webhook
    webhook.paused_at, webhook.paused_reason = timezone.now(), reason[:500]
    webhook.save(update_fields=["paused_at", "paused_reason"])
    common.record(
        actor,
        HistoryAction.WEBHOOK_PAUSED,
        f"Announcements to {webhook.name} paused",
        campaign=webhook.campaign,
        reason=reason,
    )
    return webhook


@transaction.atomic
def resume_webhook(*, actor, webhook: Webhook, reason: str = "") -> Webhook:
    """Send to a paused ``webhook`` again, from the next news on (nothing missed is sent)."""
    webhook = _lock(webhook)
    if not webhook.is_paused:
        common.refuse(f"Announcements to {webhook.name} are not paused.")
    webhook.paused_at, webhook.paused_reason, webhook.failures_in_row = None, "", 0
    webhook.save(update_fields=["paused_at", "paused_reason", "failures_in_row"])
    common.record(
        actor,
        HistoryAction.WEBHOOK_RESUMED,
        f"Announcements to {webhook.name} resumed",
        campaign=webhook.campaign,
        reason=(reason or "").strip(),
    )
    return webhook
