"""The campaign's log: its members write entries (the story of a battle, of a territory,
of a phase), the author edits theirs, an organiser hides one (with a reason) or shows it
again. Nothing is deleted. Every change writes a history row naming the campaign, so the
campaign page's cache moves on."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign import pictures
from campaign.models import (
    Battle,
    Campaign,
    HistoryAction,
    LogEntry,
    Membership,
    Phase,
    Territory,
)
from campaign.models.chronicle import STORY_LENGTH

from . import _common as common
from .staff import organises

TITLE_LENGTH = LogEntry._meta.get_field("title").max_length
MEMBERS_ONLY = "Only the campaign's players and organisers can write in its log."
AUTHOR_ONLY = "Only the author of this entry can change it."
ORGANISERS_ONLY = "Only an organiser of the campaign can hide or show its log entries."
EDITABLE = ("title", "text", "picture", "battle", "territory", "phase")
LINKS = {"battle": Battle, "territory": Territory, "phase": Phase}
NOT_OURS = {
    "battle": "That battle was not fought in this campaign.",
    "territory": "That territory is not on this campaign's map.",
    "phase": "That phase is not one of this campaign's.",
}


def _may_write(actor, campaign: Campaign) -> bool:
    """Members of the campaign (players and organisers), and superusers."""
    if getattr(actor, "is_superuser", False):
        return True
    return Membership.objects.filter(campaign=campaign, user_id=getattr(actor, "pk", None)).exists()


def _text(value: str, field: str, *, most: int, missing: str) -> str:
    value = (value or "").strip()
    if not value:
        common.refuse(missing, field=field)
    if "\x00" in value:
        common.refuse("Take out the NUL character: it can't be stored.", field=field)
    if len(value) > most:
        common.refuse(f"Keep it to {most:,} characters (this has {len(value):,}).", field=field)
    return value


def _title(value: str) -> str:
    return _text(value, "title", most=TITLE_LENGTH, missing="Give the entry a title.")


def _story(value: str) -> str:
    return _text(value, "text", most=STORY_LENGTH, missing="Write the story first.")


def _check_link(campaign: Campaign, field: str, obj) -> None:
    """A battle, territory or phase must be the campaign's own."""
    if obj is None:
        return
    if not isinstance(obj, LINKS[field]) or obj.campaign_id != campaign.pk:
        common.refuse(NOT_OURS[field], field=field)


def _about(values: dict[str, Any]) -> dict[str, list]:
    """What an entry tells of, for its history row: ids, and the picture's file name."""
    out = {}
    for field, value in values.items():
        if field in LINKS:
            out[field] = getattr(value, "pk", None)
        elif field == "picture":
            out[field] = getattr(value, "name", value) or None
        else:
            out[field] = value
    return out


def write_log_entry(
    *,
    actor,
    campaign: Campaign,
    title: str,
    text: str,
    picture=None,
    battle: Battle | None = None,
    territory: Territory | None = None,
    phase: Phase | None = None,
) -> LogEntry:
    """A new entry in the campaign's log, by one of its members. ``picture`` is a file
    from `pictures.process_upload` (checked and re-encoded), or None."""
    if not _may_write(actor, campaign):
        common.refuse(MEMBERS_ONLY)
    title, text = _title(title), _story(text)
    links = {"battle": battle, "territory": territory, "phase": phase}
    for field, obj in links.items():
        _check_link(campaign, field, obj)
    with pictures.kept_if_committed() as files, transaction.atomic():
        entry = LogEntry(
            campaign=campaign, author=common.real_user(actor), title=title, text=text, **links
        )
        if picture is not None:
            files.replace(entry, "picture", picture)
        entry.save()
        about = {k: [None, v] for k, v in _about({**links, "picture": entry.picture}).items() if v}
        common.record(
            actor,
            HistoryAction.LOG_ENTRY_WRITTEN,
            f"{campaign.name}: {title} written in the log",
            campaign=campaign,
            battle=battle,
            changed={"title": [None, title], **about},
        )
    return entry


def _lock_entry(entry: LogEntry) -> LogEntry:
    return (
        LogEntry.objects.select_for_update(of=("self",))
        .select_related("campaign", "battle")
        .get(pk=entry.pk)
    )


def edit_log_entry(*, actor, entry: LogEntry, **fields: Any) -> LogEntry:
    """The author changes their entry: its title, text, picture (a processed file) or what
    it tells of. The history row keeps each changed field before and after."""
    common.only(fields, EDITABLE)
    if "title" in fields:
        fields["title"] = _title(fields["title"])
    if "text" in fields:
        fields["text"] = _story(fields["text"])
    with pictures.kept_if_committed() as files, transaction.atomic():
        entry = _lock_entry(entry)
        if entry.author_id is None or entry.author_id != getattr(actor, "pk", None):
            common.refuse(AUTHOR_ONLY)
        for field in LINKS:
            if field in fields:
                _check_link(entry.campaign, field, fields[field])
        picture = fields.pop("picture", None)
        before = _about(common.snapshot(entry, [*LINKS, "title", "text"]))
        for field, value in fields.items():
            setattr(entry, field, value)
        diff = common.changes(before, _about(common.snapshot(entry, [*LINKS, "title", "text"])))
        if picture is not None:
            old = files.replace(entry, "picture", picture)
            diff["picture"] = [old or None, entry.picture.name]
        if not diff:
            return entry
        entry.edited_at = timezone.now()
        entry.save()
        common.record(
            actor,
            HistoryAction.LOG_ENTRY_EDITED,
            f"{entry.campaign.name}: {entry.title} edited in the log",
            campaign=entry.campaign,
            battle=entry.battle,
            changed=diff,
        )
    return entry


def _moderate(*, actor, entry: LogEntry, reason: str, hide: bool) -> LogEntry:
    word = "hidden" if hide else "shown"
    reason = common.require_reason(reason, f"Say why the entry is {word}; the reason is kept.")
    with transaction.atomic():
        entry = _lock_entry(entry)
        if not organises(actor, entry.campaign_id):
            common.refuse(ORGANISERS_ONLY)
        if entry.is_hidden == hide:
            common.refuse(f"{entry.title} is already {word}.")
        before = entry.status
        if hide:
            entry.status = LogEntry.Status.HIDDEN
            entry.hidden_reason = reason[:500]
            entry.hidden_by = common.real_user(actor)
            entry.hidden_at = timezone.now()
        else:
            entry.status = LogEntry.Status.SHOWN
            entry.hidden_reason, entry.hidden_by, entry.hidden_at = "", None, None
        entry.save(update_fields=["status", "hidden_reason", "hidden_by", "hidden_at"])
        common.record(
            actor,
            HistoryAction.LOG_ENTRY_HIDDEN if hide else HistoryAction.LOG_ENTRY_SHOWN,
            f"{entry.campaign.name}: {entry.title} {word} in the log",
            campaign=entry.campaign,
            battle=entry.battle,
            changed={"status": [before, entry.status]},
            reason=reason,
        )
    return entry


def hide_log_entry(*, actor, entry: LogEntry, reason: str) -> LogEntry:
    """An organiser hides an entry from the log (a status, with the reason kept)."""
    return _moderate(actor=actor, entry=entry, reason=reason, hide=True)


def show_log_entry(*, actor, entry: LogEntry, reason: str) -> LogEntry:
    """An organiser shows a hidden entry again (with the reason kept)."""
    return _moderate(actor=actor, entry=entry, reason=reason, hide=False)
