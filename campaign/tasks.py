"""Email to players, sent by the background worker (`manage.py db_worker`), never by the
request whose click asked for it: the request only queues a task (a row in the database,
`campaign.notifications`), and the worker builds and sends the message.

Each task takes plain values (ids, the link the request made absolute) and reads the rows
again when it runs, so it tells what is still true: a battle invitation already answered,
a campaign invitation withdrawn, or a battle whose state moved on since the click sends
nothing (the later change queued its own email). A mail server that fails is logged,
never raised: the task is done, and nothing is undone.

Each player chooses which kinds of email they get (`campaign.players`); the choice is read
when the task runs, so a kind turned off after the click is not sent. Every email carries
the link that stops its kind, in its text and in the headers mail clients read for their
own unsubscribe button (`campaign.email_links`)."""

from __future__ import annotations

import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django_tasks import task

from campaign import email_links
from campaign.models import Battle, BattleParticipant, CampaignInvitation, EmailKind, Membership
from campaign.players import wants_email
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


def _mail(user, kind: EmailKind, subject: str, text: str, link: str) -> EmailMessage | None:
    """The email of ``kind`` to ``user``, with the link it is about and the link that
    stops its kind; None when the user has no address or has turned the kind off."""
    if not user.email or not wants_email(user, kind):
        return None
    stop = email_links.stop_url(link, user.pk, kind)
    body = f"{text}\n\n{link}\n\n-- \nTo stop emails when {kind.label}, open this link: {stop}\n"
    return EmailMessage(_subject(subject), body, to=[user.email], headers=email_links.headers(stop))


def _battle_mails(
    battle: Battle,
    sides: list[BattleParticipant],
    kind: EmailKind,
    subject: str,
    text: str,
    link: str,
) -> int:
    """Email ``text`` and the link to the battle to each side's player who wants ``kind``."""
    mails = [_mail(side.force.player, kind, subject, text, link) for side in sides]
    return _deliver([m for m in mails if m], f"{subject!r} for battle {battle.pk}")


def _battle(battle_id: int) -> tuple[Battle | None, list[BattleParticipant]]:
    battle = Battle.objects.filter(pk=battle_id).first()
    if battle is None:
        return None, []
    sides = list(
        battle.participants.select_related("force__player__player_settings").order_by("pk")
    )
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
        EmailKind.BATTLE_INVITATION,
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
            EmailKind.DISPUTE,
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
        EmailKind.TURN_TO_RECORD,
        f"Your turn to record: {_named(battle)}",
        f"{name} has recorded its side of the battle. Record yours to complete it:",
        link,
    )


@task()
def send_campaign_invitation(invitation_id: int, link: str) -> int:
    """Tell a user they are invited to a campaign, with the link to their dashboard, where
    they accept or decline it; nothing once it is answered or withdrawn, without an
    address, or to a user who turned these emails off."""
    invitation = (
        CampaignInvitation.objects.select_related("user__player_settings", "campaign", "invited_by")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None or not invitation.is_pending:
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
    mail = _mail(
        invitation.user,
        EmailKind.CAMPAIGN_INVITATION,
        f"Invitation to {campaign.name}",
        f"{by} {offer}. Nothing changes until you answer: accept or decline it on your dashboard:",
        link,
    )
    if mail is None:
        return 0
    return _deliver([mail], f"the invitation {invitation.pk} to {campaign.name}")
