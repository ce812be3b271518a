"""Email to players, sent by the background worker (`manage.py db_worker`), never by the
request whose click asked for it: the request only queues a task (a row in the database,
`campaign.notifications`), and the worker builds and sends the message.

Each task takes plain values (ids, the link the request made absolute) and reads the rows
again when it runs, so it tells what is still true: a battle invitation already answered,
a campaign invitation withdrawn, or a battle whose state moved on since the click sends
nothing (the later change queued its own email). A mail server that fails is logged,
never raised: the task is done, and nothing is undone."""

from __future__ import annotations

import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django_tasks import task

from campaign.models import Battle, BattleParticipant, CampaignInvitation, Membership
from campaign.services import disagreement

logger = logging.getLogger(__name__)


def _subject(text: str) -> str:
    """A subject line on one line: names typed with line breaks would make the message
    refuse to build (a header can't hold one)."""
    return " ".join(text.split())


def _deliver(mails: list[EmailMessage], what: str) -> int:
    """Send ``mails`` on one connection; how many went. A failure is logged, not raised."""
    if not mails or not settings.EMAIL_ENABLED:
        return 0
    try:
        return get_connection().send_messages(mails) or 0
    except (smtplib.SMTPException, OSError):
        logger.exception("Could not send %s", what)
        return 0


def _battle_mails(
    battle: Battle, sides: list[BattleParticipant], subject: str, text: str, link: str
) -> int:
    """Email ``text`` and the link to the battle to each side's player with an address."""
    mails = [
        EmailMessage(_subject(subject), f"{text}\n\n{link}\n", to=[side.force.player.email])
        for side in sides
        if side.force.player.email
    ]
    return _deliver(mails, f"{subject!r} for battle {battle.pk}")


def _battle(battle_id: int) -> tuple[Battle | None, list[BattleParticipant]]:
    battle = Battle.objects.filter(pk=battle_id).first()
    if battle is None:
        return None, []
    sides = list(battle.participants.select_related("force__player").order_by("pk"))
    return battle, sides


def _named(battle: Battle) -> str:
    return f"{battle.battle_size} battle" + (f" ({battle.mission})" if battle.mission else "")


@task()
def send_battle_invitations(battle_id: int, link: str) -> int:
    """Tell each player still invited to the battle that they may accept or decline."""
    battle, sides = _battle(battle_id)
    if battle is None or battle.status != Battle.Status.IN_PROGRESS:
        return 0
    starter = next((s.force.name for s in sides if s.is_accepted), "A force")
    return _battle_mails(
        battle,
        [s for s in sides if s.is_invited],
        f"Invitation to a {_named(battle)}",
        f"{starter} invites you to a {_named(battle)} on {battle.date:%d %b %Y}. Your "
        "force joins it only if you accept; you can also decline, on the battle's page:",
        link,
    )


@task()
def send_side_recorded(battle_id: int, participant_id: int, status: str, link: str) -> int:
    """After a side records, with the battle then in ``status``: a dispute goes to every
    fighting player; a battle still in progress tells the players yet to record that it is
    their turn. A battle no longer in that state sends nothing: what changed it queued its
    own email (a second side recording into a dispute must not send the dispute twice)."""
    battle, sides = _battle(battle_id)
    if battle is None or battle.status != status:
        return 0
    fighting = [s for s in sides if s.is_accepted]
    if status == Battle.Status.DISPUTED:
        return _battle_mails(
            battle,
            fighting,
            f"Results disagree: {_named(battle)}",
            f"The results recorded for this battle disagree: {disagreement(sides)} Either "
            "player can change their side, or an organiser settles it:",
            link,
        )
    if status != Battle.Status.IN_PROGRESS:
        return 0
    name = next((s.force.name for s in sides if s.pk == participant_id), None)
    if name is None:
        return 0
    return _battle_mails(
        battle,
        [s for s in fighting if not s.has_recorded],
        f"Your turn to record: {_named(battle)}",
        f"{name} has recorded its side of the battle. Record yours to complete it:",
        link,
    )


@task()
def send_campaign_invitation(invitation_id: int, link: str) -> int:
    """Tell a user they are invited to a campaign, with the link to their dashboard, where
    they accept or decline it; nothing once it is answered or withdrawn, or without an
    address."""
    invitation = (
        CampaignInvitation.objects.select_related("user", "campaign", "invited_by")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None or not invitation.is_pending or not invitation.user.email:
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
    mail = EmailMessage(
        _subject(f"Invitation to {campaign.name}"),
        f"{by} {offer}. Nothing changes until you answer: accept or decline it on your "
        f"dashboard:\n\n{link}\n",
        to=[invitation.user.email],
    )
    return _deliver([mail], f"the invitation {invitation.pk} to {campaign.name}")
