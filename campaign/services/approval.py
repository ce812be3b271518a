"""A restored force that the server can't vouch for waits for its organiser.

`restore_force` marks a force restored from any file other than a verified export of the
player's own force as awaiting approval (`Provenance.Approval.AWAITING`). Until an
organiser of its campaign approves it, with a reason, it can't take part in battles or buy
Requisitions (`require_approved`, asked by those services). Refusing it, also with a
reason, is final for that force: it stays readable with its history, never deleted, and
never plays; the player may restore a better file.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign.models import CrusadeForce, HistoryAction, Provenance

from . import _common as common
from . import staff

FIGHT = "fight battles"
"""What a force awaiting approval can't do: be invited to, start, accept, muster for or
record a battle (the other thing is buying Requisitions)."""

AWAITING = (
    "{name} was restored from a file that needs the organiser's approval: it can't {what} "
    "until an organiser of its campaign approves it."
)
REFUSED = "{name} was restored from a file the organiser refused: it can't {what}."


def play_refusal(force: CrusadeForce, what: str) -> str | None:
    """Why ``force`` can't ``what`` ("buy Requisitions", "fight battles") yet, or None."""
    provenance = force.restored_from
    if provenance is None or not provenance.blocks_play:
        return None
    text = AWAITING if provenance.approval == Provenance.Approval.AWAITING else REFUSED
    return text.format(name=force.name, what=what)


def require_approved(force: CrusadeForce, what: str, *, field: str | None = None) -> None:
    """Refuse, in words the player understands, while ``force`` waits for approval."""
    if refusal := play_refusal(force, what):
        common.refuse(refusal, field=field)


def _require_organiser(actor, force: CrusadeForce) -> None:
    """Only an organiser of the force's own campaign (or a superuser) decides."""
    if not staff.organises(actor, force.campaign_id):
        common.refuse("Only an organiser of the force's campaign can decide on it.")


def _decide(*, actor, force: CrusadeForce, reason: str, approve: bool) -> Provenance:
    reason = common.require_reason(reason, "Say why; the reason is kept in the force's history.")
    force = common.lock_force(force)
    _require_organiser(actor, force)
    provenance = Provenance.objects.filter(force=force).first()
    allowed = (Provenance.Approval.AWAITING,) + ((Provenance.Approval.REFUSED,) if approve else ())
    if provenance is None or provenance.approval not in allowed:
        common.refuse(f"{force.name} isn't waiting for an organiser's approval.")
    before = provenance.approval
    provenance.approval = Provenance.Approval.APPROVED if approve else Provenance.Approval.REFUSED
    provenance.decided_by = common.real_user(actor)
    provenance.decided_at = timezone.now()
    provenance.decision_reason = reason[:500]
    provenance.save(update_fields=["approval", "decided_by", "decided_at", "decision_reason"])
    verb = "approved: it may now play" if approve else "refused: it will not play"
    common.record(
        actor,
        HistoryAction.RESTORE_APPROVED if approve else HistoryAction.RESTORE_REFUSED,
        f"{force.name}, restored from {provenance.original_name}, {verb}",
        force=force,
        reason=reason,
        changed={"approval": [before, provenance.approval]},
    )
    return provenance


@transaction.atomic
def approve_restored_force(*, actor, force: CrusadeForce, reason: str) -> Provenance:
    """An organiser lets a restored force waiting for approval (or refused before) play."""
    return _decide(actor=actor, force=force, reason=reason, approve=True)


@transaction.atomic
def refuse_restored_force(*, actor, force: CrusadeForce, reason: str) -> Provenance:
    """An organiser refuses a restored force waiting for approval: it never plays."""
    return _decide(actor=actor, force=force, reason=reason, approve=False)
