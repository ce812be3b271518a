"""Services for campaigns: details, house rules, members and their roles."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign.models import (
    Campaign,
    CampaignInvitation,
    CrusadeForce,
    HistoryAction,
    Membership,
)

from . import _common as common
from . import staff

HOUSE_RULE_FIELDS = Campaign.HOUSE_RULE_FIELDS
NEEDS_AN_ORGANISER = "A campaign needs at least one organiser."


def _check_house_rules(campaign: Campaign) -> None:
    if campaign.rp_cap < 1:
        common.refuse("The RP cap must be at least 1.", field="rp_cap")
    if campaign.starting_rp > campaign.rp_cap:
        common.refuse("Starting RP cannot be above the RP cap.", field="starting_rp")
    common.refuse_out_of_range(Campaign, common.snapshot(campaign, HOUSE_RULE_FIELDS))


def _lock_campaign(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


@transaction.atomic
def create_campaign(*, actor, name: str, description: str = "", **house_rules: int) -> Campaign:
    """A new campaign with the actor as its first organiser."""
    name = name.strip()
    if not name:
        common.refuse("Give the campaign a name.", field="name")
    campaign = Campaign(name=name, description=description, **house_rules)
    _check_house_rules(campaign)
    campaign.save()
    Membership.objects.create(campaign=campaign, user=actor, role=Membership.Role.ORGANISER)
    common.record(
        actor,
        HistoryAction.CAMPAIGN_CREATED,
        f"{name} created",
        campaign=campaign,
        changed={k: [None, v] for k, v in common.snapshot(campaign, HOUSE_RULE_FIELDS).items()},
    )
    if common.real_user(actor) is not None:
        staff.follow_roles(actor=actor, user=actor, campaign=campaign)
    return campaign


@transaction.atomic
def start_campaign(*, actor, name: str, description: str = "", **house_rules: int) -> Campaign:
    """A player starts a campaign of their own (`create_campaign`) and runs it in the
    organisers' admin, which shows them only the campaigns they organise."""
    return create_campaign(actor=actor, name=name, description=description, **house_rules)


@transaction.atomic
def update_campaign_details(*, actor, campaign: Campaign, **values: str) -> Campaign:
    """Change a campaign's name or description."""
    common.only(values, Campaign.DETAIL_FIELDS, "campaign details")
    campaign = _lock_campaign(campaign)
    if "name" in values:
        values["name"] = values["name"].strip()
        if not values["name"]:
            common.refuse("Give the campaign a name.", field="name")
    diff = common.apply_changes(campaign, Campaign.DETAIL_FIELDS, values)
    summary = f"{campaign.name}: campaign details edited"
    common.save_changes(
        campaign,
        diff,
        actor,
        HistoryAction.CAMPAIGN_EDITED,
        summary,
        campaign=campaign,
    )
    return campaign


@transaction.atomic
def set_house_rules(*, actor, campaign: Campaign, reason: str = "", **values: int) -> Campaign:
    """Change a campaign's house rules. A lower RP cap trims RP above it."""
    common.only(values, HOUSE_RULE_FIELDS, "house rules")
    campaign = _lock_campaign(campaign)
    diff = common.apply_changes(campaign, HOUSE_RULE_FIELDS, values)
    _check_house_rules(campaign)
    if not diff:
        return campaign
    campaign.save(update_fields=list(diff))
    common.record(
        actor,
        HistoryAction.HOUSE_RULES_CHANGED,
        f"House rules of {campaign.name} changed",
        campaign=campaign,
        changed=diff,
        reason=reason,
    )
    if "rp_cap" in diff:
        forces = CrusadeForce.objects.select_for_update().filter(campaign=campaign).order_by("pk")
        for force in forces:
            old = common.snapshot(force, ["rp", "rp_cap"])
            force.rp_cap = campaign.rp_cap
            force.rp = min(force.rp, force.rp_cap)
            force.save(update_fields=["rp", "rp_cap"])
            common.record(
                actor,
                HistoryAction.RP_CAP_CHANGED,
                f"RP cap of {force.name} is now {force.rp_cap}",
                force=force,
                changed=common.changes(old, common.snapshot(force, ["rp", "rp_cap"])),
                reason=reason or "Campaign house rules changed",
            )
    return campaign


ORGANISERS_BY_INVITATION = (
    "An organiser is named by invitation: they organise the campaign once they accept it."
)
OWN_CLICK = "Only the player themselves can join a campaign: send them an invitation instead."


@transaction.atomic
def join_campaign(*, actor, user, campaign: Campaign, role: str = Membership.Role.PLAYER):
    """The user's own click on the campaign's invitation link: they join as a player.
    Joining twice changes nothing. Nobody is added by someone else (`invite_to_campaign`),
    and an organiser is named only by an invitation they accept."""
    if role != Membership.Role.PLAYER:
        common.refuse(ORGANISERS_BY_INVITATION, field="role")
    if common.real_user(actor) is not None and actor.pk != user.pk:
        common.refuse(OWN_CLICK, field="user")
    membership = add_member(actor=actor, user=user, campaign=campaign, role=role)
    # Their click answers an invitation to join that was waiting (not one to organise).
    CampaignInvitation.objects.filter(
        campaign=campaign, user=user, role=role, status=CampaignInvitation.Status.PENDING
    ).update(status=CampaignInvitation.Status.ACCEPTED, answered_at=timezone.now())
    return membership


def add_member(*, actor, user, campaign: Campaign, role: str) -> Membership:
    """Make ``user`` a member with ``role`` (nothing when they are one already), and their
    staff status follow. For `join_campaign` and an accepted invitation only: both are the
    user's own click."""
    membership, created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    if created:
        common.record(
            actor,
            HistoryAction.MEMBER_JOINED,
            f"{user.username} joined {campaign.name} as {membership.get_role_display()}",
            campaign=campaign,
        )
        if role == Membership.Role.ORGANISER:
            staff.follow_roles(actor=actor, user=user, campaign=campaign)
    return membership


@transaction.atomic
def change_member_role(*, actor, membership: Membership, role: str) -> Membership:
    """Make an organiser a player again (a campaign always keeps one organiser); they lose
    staff status unless they organise another campaign. Making a member an organiser takes
    their consent: `invite_to_campaign` with the organiser role."""
    if role not in Membership.Role.values:
        common.refuse("Pick a role.", field="role")
    current = Membership.objects.get(pk=membership.pk).role
    if role == Membership.Role.ORGANISER and current != role:
        common.refuse(ORGANISERS_BY_INVITATION, field="role")
    return set_role(actor=actor, membership=membership, role=role)


def set_role(*, actor, membership: Membership, role: str) -> Membership:
    """Change a member's role, with a history row, and their staff status follow; refused
    when it would leave the campaign without an organiser."""
    campaign = _lock_campaign(membership.campaign)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    before = membership.role
    if before == role:
        return membership
    others = campaign.memberships.filter(role=Membership.Role.ORGANISER).exclude(pk=membership.pk)
    if before == Membership.Role.ORGANISER and not others.exists():
        common.refuse(NEEDS_AN_ORGANISER, field="role")
    membership.role = role
    membership.save(update_fields=["role"])
    summary = f"{membership.user.username} is now {membership.get_role_display()}"
    changed = {"role": [before, role]}
    common.record(
        actor, HistoryAction.MEMBER_ROLE_CHANGED, summary, campaign=campaign, changed=changed
    )
    staff.follow_roles(actor=actor, user=membership.user, campaign=campaign)
    return membership
