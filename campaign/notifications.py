"""Email to players about their battles and their invitations to campaigns, queued for the
background worker (`manage.py db_worker`, `campaign.tasks`) so that no request waits on a
mail server. Nothing is queued without email settings (`EMAIL_ENABLED`).

Views and the admin call these after a service has made the change. The task is queued
once the transaction commits: a change rolled back queues nothing, and a task never runs
before the rows it reads are there. Queueing that fails is logged, never shown as an error
to the player (or organiser) whose click asked for the email: an email never changes
anything. Each returns whether an email was queued (it is sent when the worker runs)."""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse

from campaign import tasks
from campaign.models import Battle, BattleParticipant, CampaignInvitation

logger = logging.getLogger(__name__)


def _queue(task, *args) -> bool:
    """Enqueue ``task(*args)`` once the current transaction commits (at once outside
    one); a failure to enqueue is logged by Django (robust), not raised."""
    if not settings.EMAIL_ENABLED:
        return False
    transaction.on_commit(partial(task.enqueue, *args), robust=True)
    return True


def invitations_sent(request: HttpRequest, battle: Battle) -> bool:
    """Queue the email to each invited player about the battle they may accept or decline."""
    link = request.build_absolute_uri(battle.get_absolute_url())
    return _queue(tasks.send_battle_invitations, battle.pk, link)


def side_recorded(request: HttpRequest, battle: Battle, participant: BattleParticipant) -> bool:
    """After a side records: a dispute goes to every fighting player; otherwise the players
    still to record are told it is their turn. A completed battle queues nothing."""
    if battle.status not in (Battle.Status.DISPUTED, Battle.Status.IN_PROGRESS):
        return False
    link = request.build_absolute_uri(battle.get_absolute_url())
    return _queue(tasks.send_side_recorded, battle.pk, participant.pk, str(battle.status), link)


def campaign_invitation_sent(request: HttpRequest, invitation: CampaignInvitation) -> bool:
    """Queue the email telling a user they are invited to a campaign, with a link to their
    dashboard, where they accept or decline it."""
    link = request.build_absolute_uri(reverse("dashboard"))
    return _queue(tasks.send_campaign_invitation, invitation.pk, link)
