"""Admin access follows roles: a user is staff exactly while they organise at least one
campaign, or are a superuser. `should_be_staff` decides; `follow_roles` makes a user's
staff status say so, in the transaction of the role change, and every service that
changes a role calls it. Who may name an organiser is decided here too."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model

from campaign.models import Campaign, HistoryAction, Membership

from . import _common as common

ONLY_A_SUPERUSER_NAMES_ORGANISERS = (
    "On this site only a superuser can make someone an organiser "
    "(campaigns are not self-service here)."
)


ORGANISER_ROLE = Membership.Role.ORGANISER


def should_be_staff(user) -> bool:
    """Staff status opens the organisers' admin: superusers always, anyone else while they
    organise a campaign (`campaign.admin.scope` shows them only theirs)."""
    if user.is_superuser:
        return True
    return Membership.objects.filter(user_id=user.pk, role=Membership.Role.ORGANISER).exists()


def organises(actor, campaign_id: int | None) -> bool:
    """Whether ``actor`` may act for the campaign as its organiser: a superuser, or one of
    its organisers."""
    if getattr(actor, "is_superuser", False):
        return True
    return campaign_id is not None and (
        Membership.objects.filter(
            campaign_id=campaign_id, user_id=getattr(actor, "pk", None), role=ORGANISER_ROLE
        ).exists()
    )


def may_name_organisers(actor) -> bool:
    """A superuser names organisers; other organisers too while campaigns are self-service
    (`CRUSADE_SELF_SERVICE_CAMPAIGNS`)."""
    if getattr(actor, "is_superuser", False):
        return True
    return bool(settings.CRUSADE_SELF_SERVICE_CAMPAIGNS)


def require_may_name_organisers(actor) -> None:
    if not may_name_organisers(actor):
        common.refuse(ONLY_A_SUPERUSER_NAMES_ORGANISERS, field="role")


def follow_roles(*, actor, user, campaign: Campaign) -> bool:
    """Give or take staff status so that it matches `should_be_staff`, with a history row
    on ``campaign`` (the one whose role change moved it); the user row is locked. Returns
    whether it changed. Call inside the transaction of the role change."""
    User = get_user_model()
    row = User.objects.select_for_update().get(pk=user.pk)
    wanted = should_be_staff(row)
    user.is_staff = wanted
    if row.is_staff == wanted:
        return False
    User.objects.filter(pk=user.pk).update(is_staff=wanted)
    if wanted:
        summary = f"{row.username} organises {campaign.name} and can now use the organisers' admin"
    else:
        summary = (
            f"{row.username} no longer organises {campaign.name} or any other campaign: "
            "the organisers' admin is closed to them"
        )
    common.record(
        actor,
        HistoryAction.MEMBER_ROLE_CHANGED,
        summary,
        campaign=campaign,
        changed={"is_staff": [row.is_staff, wanted]},
    )
    return True
