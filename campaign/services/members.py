"""Membership by consent: an organiser invites a user to a campaign, as a player or an
organiser (or a member to organise it), and only the invited user's own answer makes them
one. The organiser may withdraw an invitation nobody has answered. Each step leaves a
history row on the campaign; accepting writes the row of the join or the role change."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign.models import Campaign, CampaignInvitation, HistoryAction, Membership

from . import _common as common
from . import staff
from .campaigns import add_member, set_role

Status = CampaignInvitation.Status
ORGANISER = Membership.Role.ORGANISER
ONLY_THE_INVITED = "Only the invited player can answer this invitation."


def _lock_campaign(campaign: Campaign | int) -> Campaign:
    pk = campaign.pk if isinstance(campaign, Campaign) else campaign
    return Campaign.objects.select_for_update().get(pk=pk)


def _require_organiser(actor, campaign: Campaign) -> None:
    if not staff.organises(actor, campaign.pk):
        common.refuse(f"Only an organiser of {campaign.name} can invite to it or withdraw.")


def _open(invitation: CampaignInvitation) -> tuple[Campaign, CampaignInvitation]:
    """Lock the campaign, then read the invitation again: refused once it is answered."""
    campaign = _lock_campaign(invitation.campaign_id)
    invitation = CampaignInvitation.objects.select_related("user", "invited_by").get(
        pk=invitation.pk
    )
    if not invitation.is_pending:
        status = invitation.get_status_display().lower()
        common.refuse(f"That invitation to {campaign.name} is already {status}.")
    return campaign, invitation


def _close(invitation: CampaignInvitation, status: str) -> None:
    invitation.status, invitation.answered_at = status, timezone.now()
    invitation.save(update_fields=["status", "answered_at"])


@transaction.atomic
def invite_to_campaign(
    *, actor, user, campaign: Campaign, role: str = Membership.Role.PLAYER
) -> CampaignInvitation:
    """Invite ``user`` to join ``campaign`` with ``role``, or a member to organise it.
    Naming an organiser is a superuser's alone while campaigns are not self-service."""
    if role not in Membership.Role.values:
        common.refuse("Pick a role.", field="role")
    campaign = _lock_campaign(campaign)
    _require_organiser(actor, campaign)
    if role == ORGANISER:
        staff.require_may_name_organisers(actor)
    current = (
        Membership.objects.filter(campaign=campaign, user=user)
        .values_list("role", flat=True)
        .first()
    )
    if current == ORGANISER or (current is not None and role != ORGANISER):
        common.refuse(
            f"{user.username} is already {'an organiser' if current == ORGANISER else 'a member'}"
            f" of {campaign.name}.",
            field="user",
        )
    if CampaignInvitation.objects.filter(
        campaign=campaign, user=user, status=Status.PENDING
    ).exists():
        common.refuse(
            f"{user.username} already has an invitation to {campaign.name} waiting for an "
            "answer; withdraw it first to invite them with another role.",
            field="user",
        )
    invitation = CampaignInvitation.objects.create(
        campaign=campaign, user=user, role=role, invited_by=common.real_user(actor)
    )
    what = "to organise" if current is not None else f"as {invitation.get_role_display()} to"
    common.record(
        actor,
        HistoryAction.MEMBER_INVITED,
        f"{user.username} invited {what} {campaign.name}; they join once they accept",
        campaign=campaign,
        changed={"role": [current, role]},
    )
    return invitation


@transaction.atomic
def accept_campaign_invitation(*, actor, invitation: CampaignInvitation) -> Membership:
    """The invited user says yes: they join with the invited role, or a member becomes an
    organiser (and staff). An invitation to organise is accepted only while its sender may
    still name organisers and still organises the campaign."""
    campaign, invitation = _open(invitation)
    user = invitation.user
    if common.real_user(actor) is None or actor.pk != user.pk:
        common.refuse(ONLY_THE_INVITED)
    if invitation.role == ORGANISER:
        sender = invitation.invited_by
        if not (sender and staff.may_name_organisers(sender)):
            common.refuse(
                "This invitation to organise can no longer be accepted: on this site only a "
                "superuser can make someone an organiser. Ask one to invite you again."
            )
        if not staff.organises(sender, campaign.pk):
            common.refuse(
                f"This invitation to organise can no longer be accepted: {sender.username} "
                f"no longer organises {campaign.name}. Ask one of its organisers to invite "
                "you again."
            )
    _close(invitation, Status.ACCEPTED)
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None:
        return add_member(actor=actor, user=user, campaign=campaign, role=invitation.role)
    if invitation.role == ORGANISER:
        return set_role(actor=actor, membership=membership, role=ORGANISER)
    common.record(  # joined with the link meanwhile: only the answer to record
        actor,
        HistoryAction.MEMBER_JOINED,
        f"{user.username} accepted the invitation to {campaign.name}, already a member",
        campaign=campaign,
    )
    return membership


@transaction.atomic
def decline_campaign_invitation(*, actor, invitation: CampaignInvitation) -> CampaignInvitation:
    """The invited user says no: nothing else changes."""
    campaign, invitation = _open(invitation)
    if common.real_user(actor) is None or actor.pk != invitation.user_id:
        common.refuse(ONLY_THE_INVITED)
    _close(invitation, Status.DECLINED)
    common.record(
        actor,
        HistoryAction.MEMBER_INVITATION_DECLINED,
        f"{invitation.user.username} declined the invitation to {campaign.name}",
        campaign=campaign,
    )
    return invitation


@transaction.atomic
def withdraw_campaign_invitation(*, actor, invitation: CampaignInvitation) -> CampaignInvitation:
    """An organiser takes back an invitation nobody has answered."""
    campaign, invitation = _open(invitation)
    _require_organiser(actor, campaign)
    _close(invitation, Status.WITHDRAWN)
    common.record(
        actor,
        HistoryAction.MEMBER_INVITATION_WITHDRAWN,
        f"The invitation of {invitation.user.username} to {campaign.name} was withdrawn",
        campaign=campaign,
    )
    return invitation
