"""Email to players about their battles and their invitations to campaigns, sent only when
the site has email settings (`EMAIL_ENABLED`; the SMTP connection waits `EMAIL_TIMEOUT`
seconds at most). Views and the admin call these after a service has made the change: an
email never changes anything, and a mail server that fails is logged, never shown as an
error to the player (or organiser) whose click sent it."""

from __future__ import annotations

import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.http import HttpRequest
from django.urls import reverse

from campaign.models import Battle, BattleParticipant, CampaignInvitation, Membership
from campaign.services import disagreement

logger = logging.getLogger(__name__)


def _subject(text: str) -> str:
    """A subject line on one line: names typed with line breaks would make the message
    refuse to build (a header can't hold one)."""
    return " ".join(text.split())


def _send(request: HttpRequest, battle: Battle, sides, subject: str, text: str) -> int:
    """Email ``text`` and a link to the battle to each side's player with an address."""
    if not settings.EMAIL_ENABLED:
        return 0
    link = request.build_absolute_uri(battle.get_absolute_url())
    mails = [
        EmailMessage(_subject(subject), f"{text}\n\n{link}\n", to=[side.force.player.email])
        for side in sides
        if side.force.player.email
    ]
    if not mails:
        return 0
    try:
        return get_connection().send_messages(mails) or 0
    except (smtplib.SMTPException, OSError):
        logger.exception("Could not send %r for battle %s", subject, battle.pk)
        return 0


def _sides(battle: Battle) -> list[BattleParticipant]:
    return list(battle.participants.select_related("force__player").order_by("pk"))


def _named(battle: Battle) -> str:
    return f"{battle.battle_size} battle" + (f" ({battle.mission})" if battle.mission else "")


def invitations_sent(request: HttpRequest, battle: Battle) -> int:
    """Tell each invited player about the battle they may accept or decline."""
    sides = _sides(battle)
    starter = next((s.force.name for s in sides if s.is_accepted), "A force")
    invited = [s for s in sides if s.is_invited]
    return _send(
        request,
        battle,
        invited,
        f"Invitation to a {_named(battle)}",
        f"{starter} invites you to a {_named(battle)} on {battle.date:%d %b %Y}. Your "
        "force joins it only if you accept; you can also decline, on the battle's page:",
    )


def side_recorded(request: HttpRequest, battle: Battle, participant: BattleParticipant) -> int:
    """After a side records: a dispute goes to every fighting player; otherwise the players
    still to record are told it is their turn."""
    sides = _sides(battle)
    fighting = [s for s in sides if s.is_accepted]
    if battle.status == Battle.Status.DISPUTED:
        return _send(
            request,
            battle,
            fighting,
            f"Results disagree: {_named(battle)}",
            f"The results recorded for this battle disagree: {disagreement(sides)} Either "
            "player can change their side, or an organiser settles it:",
        )
    if battle.status != Battle.Status.IN_PROGRESS:
        return 0
    name = next(s.force.name for s in sides if s.pk == participant.pk)
    return _send(
        request,
        battle,
        [s for s in fighting if not s.has_recorded],
        f"Your turn to record: {_named(battle)}",
        f"{name} has recorded its side of the battle. Record yours to complete it:",
    )


def campaign_invitation_sent(request: HttpRequest, invitation: CampaignInvitation) -> int:
    """Tell a user they are invited to a campaign, with a link to their dashboard, where
    they accept or decline it. Nothing is sent without an address or email settings."""
    user = invitation.user
    if not settings.EMAIL_ENABLED or not user.email:
        return 0
    campaign = invitation.campaign
    if invitation.role == Membership.Role.ORGANISER:
        offer = f"to organise {campaign.name}"
    else:
        offer = f"to join {campaign.name} as a player"
    by = (
        f"{invitation.invited_by.username} invites you"
        if invitation.invited_by
        else "You are invited"
    )
    link = request.build_absolute_uri(reverse("dashboard"))
    mail = EmailMessage(
        _subject(f"Invitation to {campaign.name}"),
        f"{by} {offer}. Nothing changes until you answer: accept or decline it on your "
        f"dashboard:\n\n{link}\n",
        to=[user.email],
    )
    try:
        return get_connection().send_messages([mail]) or 0
    except (smtplib.SMTPException, OSError):
        logger.exception("Could not send the invitation %s to %s", invitation.pk, campaign.name)
        return 0
