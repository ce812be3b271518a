"""A player's own settings (`PlayerSettings`): which emails they get, and how far they have
read the news of their campaigns on the dashboard. The row is made the first time it is
needed; until then a player gets every email and has read nothing.

Not Crusade state, so no history row: like a password change (`views.accounts`), nothing
here touches a force, a unit, a battle or a campaign, nor anything an organiser must be
able to trace, and nobody but the player sees it. A form that changes a choice still
applies once: the change claims the form's token itself (`campaign.once`).

How far the news has been read:

- ``seen_up_to`` is the marker: the dashboard shows what happened after it.
- ``looked_at`` is the player's last look at the dashboard, noted on every GET (a reading
  mark, as a mail client marks a message read: no game state, no history, nothing anyone
  else sees). When a look comes after a break of more than `SITTING`, a new sitting has
  begun and the marker moves up to the previous look: what was on the dashboard then has
  been seen. Within one sitting the marker stays, so a reload (or coming back from a
  battle's page) shows the same news, and nothing vanishes before it has been read.
- "Mark all as seen" (a POST) moves the marker to the time the page was shown.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from campaign import once
from campaign.models import EmailKind, PlayerSettings
from campaign.prepared import Prepared

SITTING = timedelta(minutes=30)
"""Looks at the dashboard less than this apart are one sitting: the news stays as it is."""
NOTED_EVERY = timedelta(minutes=1)
"""A look this soon after the last one noted is not written again: reloads cost no write
(the last look may then be noted up to this much early, which only shows more news)."""


def settings_of(user) -> PlayerSettings:
    """The player's settings, or the defaults (unsaved) while they have none."""
    found = PlayerSettings.objects.filter(user_id=user.pk).first()
    return found if found is not None else PlayerSettings(user_id=user.pk)


def wants_email(user, kind: EmailKind | str) -> bool:
    """Whether ``user`` gets emails of ``kind``: read from the user's ``player_settings``
    (joined in by the caller, or one query), every kind for a player without settings."""
    try:
        chosen = user.player_settings
    except PlayerSettings.DoesNotExist:
        return True
    return chosen.wants(kind)


LOOKS = Prepared(
    lambda user: PlayerSettings.objects.filter(user_id=user).values_list("seen_up_to", "looked_at"),
    user=int,
)
"""The player's marks (at most one row: one settings row per player)."""


def note_dashboard_visit(
    user, *, now: datetime | None = None, looks: list | None = None
) -> datetime | None:
    """Note a look at the dashboard; the marker its news starts after (None: nothing read
    yet). One query to read (``looks``: what `LOOKS` read, when read already), and one to
    write unless the last look was just noted."""
    now = now or timezone.now()
    rows = LOOKS.fetch(user=user.pk) if looks is None else looks
    row = rows[0] if rows else None
    if row is None:
        PlayerSettings.objects.bulk_create(
            [PlayerSettings(user_id=user.pk, looked_at=now)], ignore_conflicts=True
        )
        return None
    seen, looked = row
    if looked is not None and now - looked < NOTED_EVERY:
        return seen
    if looked is not None and now - looked > SITTING and (seen is None or looked > seen):
        seen = looked
    PlayerSettings.objects.filter(user_id=user.pk).update(seen_up_to=seen, looked_at=now)
    return seen


def mark_seen(*, user, up_to: datetime) -> None:
    """Everything up to ``up_to`` (never later than now) has been seen."""
    up_to = min(up_to, timezone.now())
    with transaction.atomic():
        once.claim()
        chosen = _locked(user)
        if chosen.seen_up_to is None or chosen.seen_up_to < up_to:
            chosen.seen_up_to = up_to
            chosen.save(update_fields=["seen_up_to"])


def choose_emails(*, user, chosen: dict[EmailKind, bool]) -> list[EmailKind]:
    """Set which kinds of email ``user`` gets; the kinds that changed."""
    with transaction.atomic():
        once.claim()
        settings = _locked(user)
        changed = [kind for kind, wanted in chosen.items() if settings.wants(kind) != wanted]
        for kind in changed:
            setattr(settings, EmailKind(kind).field, chosen[kind])
        if changed:
            settings.save(update_fields=[EmailKind(kind).field for kind in changed])
    return changed


def stop_email(*, user, kind: EmailKind) -> bool:
    """No more emails of ``kind`` for ``user`` (the link in every email); whether it was
    on until now."""
    return bool(choose_emails(user=user, chosen={EmailKind(kind): False}))


def _locked(user) -> PlayerSettings:
    """The player's settings row, made if missing, locked until the transaction ends."""
    PlayerSettings.objects.bulk_create([PlayerSettings(user_id=user.pk)], ignore_conflicts=True)
    return PlayerSettings.objects.select_for_update().get(user_id=user.pk)
