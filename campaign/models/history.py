"""Requisitions bought, the history of every change, provenance, used form tokens."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from campaign import rules
from campaign.bounds import (
    count,
)

from ._common import MOST_RP, rules_choices
from .battles import Battle
from .campaigns import Campaign
from .forces import CrusadeForce, Unit


class RequisitionPurchase(models.Model):
    force = models.ForeignKey(CrusadeForce, on_delete=models.PROTECT, related_name="requisitions")
    unit = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.PROTECT, related_name="requisitions"
    )
    requisition = models.CharField(max_length=32, choices=rules_choices(rules.Requisition))
    cost = count(MOST_RP)
    details = models.JSONField(default=dict, blank=True)
    bought_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_requisition_display()} ({self.cost}RP)"


def _requisition_actions() -> list[tuple[str, str]]:
    return [(f"requisition_{r.value}", f"Requisition: {r.label}") for r in rules.Requisition]


class HistoryAction(models.TextChoices):
    """Every kind of change a history row records (labelled after the member's name)."""

    CAMPAIGN_CREATED = "campaign_created"
    CAMPAIGN_EDITED = "campaign_edited"
    HOUSE_RULES_CHANGED = "house_rules_changed"
    MEMBER_JOINED = "member_joined"
    MEMBER_ROLE_CHANGED = "member_role_changed"
    MEMBER_INVITED = "member_invited"
    MEMBER_INVITATION_DECLINED = "member_invitation_declined"
    MEMBER_INVITATION_WITHDRAWN = "member_invitation_withdrawn"
    CUSTOM_CONTENT_ADDED = "custom_content_added"
    CUSTOM_CONTENT_CHANGED = "custom_content_changed"
    CUSTOM_CONTENT_RETIRED = "custom_content_retired"
    CUSTOM_CONTENT_DELETED = "custom_content_deleted"
    PACK_IMPORTED = "pack_imported"
    PACK_ENABLED = "pack_enabled"
    PACK_DISABLED = "pack_disabled"
    FORCE_CREATED = "force_created"
    FORCE_EDITED = "force_edited"
    FORCE_BANNER = "force_banner_changed"
    FORCE_CORRECTED = "force_corrected"
    FORCE_JOINED_CAMPAIGN = "force_joined_campaign"
    RP_CAP_CHANGED = "rp_cap_changed"
    UNIT_ADDED = "unit_added"
    UNIT_EDITED = "unit_edited"
    UNIT_PICTURE = "unit_picture_changed"
    UNIT_CORRECTED = "unit_corrected"
    UNIT_REMOVED = "unit_removed"
    ROSTER_IMPORTED = "roster_imported"
    FORCE_RESTORED = "force_restored"
    RESTORE_APPROVED = "restore_approved"
    RESTORE_REFUSED = "restore_refused"
    UNIT_RESTORED = "unit_restored"
    BATTLE_STARTED = "battle_started"
    ARMY_MUSTERED = "army_mustered"
    BATTLE_RECORDED = "battle_recorded"
    UNIT_BATTLE_RECORDED = "unit_battle_recorded"
    BATTLE_VOIDED = "battle_voided"
    UNIT_BATTLE_VOIDED = "unit_battle_voided"
    OUT_OF_ACTION_ROLLED = "out_of_action_rolled"
    OUT_OF_ACTION_RESOLVED = "out_of_action_resolved"
    HONOUR_GAINED = "honour_gained"
    SCAR_INFLICTED = "scar_inflicted"
    BATTLE_INVITED = "battle_invited"
    INVITATION_ACCEPTED = "invitation_accepted"
    INVITATION_DECLINED = "invitation_declined"
    INVITATION_WITHDRAWN = "invitation_withdrawn"
    BATTLE_CANCELLED = "battle_cancelled"
    SIDE_RECORDED = "side_recorded"
    BATTLE_DISPUTED = "battle_disputed"
    BATTLE_SETTLED = "battle_settled"
    # Underdog and Crusade Blessings
    BLESSINGS_PICKED = "blessings_picked"
    # Pack counters and pack Requisitions
    PACK_REQUISITION_BOUGHT = "pack_requisition_bought"
    COUNTER_CORRECTED = "counter_corrected"
    # A narrative campaign: phases, alliances, Campaign Points, the map, the log
    PHASE_CHANGED = "phase_changed"
    PHASE_ADVANCED = "phase_advanced"
    ALLIANCE_CHANGED = "alliance_changed"
    FORCE_ALLIANCE_CHANGED = "force_alliance_changed"
    SCORING_CHANGED = "scoring_changed"
    MAP_IMPORTED = "map_imported"
    TERRITORY_CHANGED = "territory_changed"
    TERRITORY_CONTROL_CHANGED = "territory_control_changed"
    LOG_ENTRY_WRITTEN = "log_entry_written"
    LOG_ENTRY_EDITED = "log_entry_edited"
    LOG_ENTRY_HIDDEN = "log_entry_hidden"
    LOG_ENTRY_SHOWN = "log_entry_shown"
    # Announcements to the group's chat (webhooks): never their address or secret
    WEBHOOK_ADDED = "webhook_added"
    WEBHOOK_CHANGED = "webhook_changed"
    WEBHOOK_PAUSED = "webhook_paused"
    WEBHOOK_RESUMED = "webhook_resumed"

    @classmethod
    def for_requisition(cls, requisition: rules.Requisition) -> str:
        return f"requisition_{rules.Requisition(requisition).value}"


def history_action_choices() -> list[tuple[str, str]]:
    """Every action, the requisitions' own included (named by the rules)."""
    return [*HistoryAction.choices, *_requisition_actions()]


class HistoryEntry(models.Model):
    """One change to the Crusade: who, when, what, and the numbers before and after."""

    Action = HistoryAction

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=40, db_index=True, choices=history_action_choices)
    summary = models.CharField(max_length=500)
    reason = models.CharField(max_length=500, blank=True)
    changes = models.JSONField(default=dict, blank=True)
    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.PROTECT, related_name="history"
    )
    force = models.ForeignKey(
        CrusadeForce, null=True, blank=True, on_delete=models.PROTECT, related_name="history"
    )
    unit = models.ForeignKey(
        Unit, null=True, blank=True, on_delete=models.PROTECT, related_name="history"
    )
    battle = models.ForeignKey(
        Battle, null=True, blank=True, on_delete=models.PROTECT, related_name="history"
    )
    imported_from = models.JSONField(
        default=dict,
        blank=True,
        help_text="For a row copied from a restored export: the original row as the file "
        "gave it (its date, who it named, its text). Empty for the server's own rows.",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "history"
        indexes = [
            models.Index(fields=["force", "-created_at"]),
            models.Index(fields=["unit", "-created_at"]),
            models.Index(fields=["-created_at", "-id"], name="history_newest_first"),
            models.Index(fields=["campaign", "-created_at", "-id"], name="history_campaign_newest"),
            # The dashboard's news counts a campaign's rows of the kinds it tells of since a
            # date, leaving out the player's own (`selectors.since`): read from here alone.
            models.Index(
                fields=["campaign", "action", "created_at", "actor", "force"], name="history_news"
            ),
        ]

    def __str__(self) -> str:
        return self.summary

    @property
    def is_imported(self) -> bool:
        return bool(self.imported_from)


class Provenance(models.Model):
    """Where a restored force came from, and whether it may play yet.

    Written once by `services.restore_force`; only an organiser's decision
    (`services.decide_restored_force`) changes ``approval``. Never restored from a file.
    """

    class Approval(models.TextChoices):
        NOT_NEEDED = "not_needed", "Joined at once"
        AWAITING = "awaiting", "Awaiting the organiser's approval"
        APPROVED = "approved", "Approved by an organiser"
        REFUSED = "refused", "Refused by an organiser"

    BLOCKING = (Approval.AWAITING, Approval.REFUSED)
    """While the approval is one of these, the force can't play (`services.require_approved`)."""

    force = models.OneToOneField(CrusadeForce, on_delete=models.PROTECT, related_name="provenance")
    original_name = models.CharField("original force", max_length=120)
    original_owner = models.CharField(
        "original player", max_length=150, blank=True, help_text="As the export names them."
    )
    original_campaign = models.CharField(max_length=120, blank=True)
    exported_at = models.DateTimeField(null=True, blank=True)
    verified = models.BooleanField(
        help_text="The file was an untouched export signed by this server."
    )
    own_force = models.BooleanField(
        help_text="A verified export of a force of the player who restored it."
    )
    restored_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    restored_at = models.DateTimeField(default=timezone.now)
    approval = models.CharField(max_length=16, choices=Approval.choices)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        verbose_name = "restored force's provenance"

    def __str__(self) -> str:
        return f"{self.force} restored from {self.original_name}"

    @property
    def blocks_play(self) -> bool:
        return self.approval in self.BLOCKING

    @property
    def source(self) -> str:
        """Where the force came from, in a sentence for its pages."""
        owner = f" of {self.original_owner}" if self.original_owner else ""
        made = f" made {self.exported_at:%d %b %Y}" if self.exported_at else ""
        checked = (
            "a verified export of this server"
            if self.verified
            else "a file this server can't vouch for (edited, from another server, or unsigned)"
        )
        return f"Restored from {self.original_name}{owner}: {checked}{made}."


class UsedFormToken(models.Model):
    """A form token a change used up (`campaign.once`): the same form sent again is told
    it was already done. Not Crusade state: rows older than `once.LIFETIME` are forgotten
    by `manage.py clean_form_tokens`."""

    token = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    path = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            # One use per user and token; signing up (no user yet) has a constraint of its own,
            # since NULLs never collide in a unique index.
            models.UniqueConstraint(fields=["user", "token"], name="form_token_once_per_user"),
            models.UniqueConstraint(
                fields=["token"], condition=Q(user=None), name="form_token_once_signed_out"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.path} ({self.created_at:%d %b %Y %H:%M})"
