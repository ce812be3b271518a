"""A narrative campaign's alliances: the organisers define and retire them, a player picks
one for their force, and only an organiser changes a force's alliance afterwards.

A retired alliance is a status: no force picks it any more, and the forces that fight for
it keep it. Each change writes a history row: one naming the campaign for the alliance
itself (the campaign page shows its alliances), one naming the force for a force's choice.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from campaign.models import (
    Alliance,
    Campaign,
    ContentPack,
    CrusadeForce,
    CustomContent,
    HistoryAction,
)
from campaign.models.phases import COLOUR

from . import _common as common

ALLIANCE_FIELDS = ("name", "colour", "description")
WHY_CHANGE = "Say why this force changes alliance; it is kept in the history."
WHY_RETIRE = "Say why this alliance is retired; it is kept in the history."
NAME_MAX = Alliance._meta.get_field("name").max_length
DESCRIPTION_MAX = Alliance._meta.get_field("description").max_length


def _lock_campaign(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _checked(campaign: Campaign, name: str, colour: str, description: str, *, pk=None) -> dict:
    name = (name or "").strip()
    colour = (colour or "").strip().lower()
    description = (description or "").strip()
    if not name:
        common.refuse("Give the alliance a name.", field="name")
    if len(name) > NAME_MAX:
        common.refuse(f"Keep the name to {NAME_MAX} characters.", field="name")
    if not COLOUR.regex.match(colour):
        common.refuse("A colour like #3366cc: # and six hex digits.", field="colour")
    if len(description) > DESCRIPTION_MAX:
        common.refuse(f"Keep the description to {DESCRIPTION_MAX} characters.", field="description")
    taken = Alliance.objects.filter(campaign=campaign, name__iexact=name).exclude(pk=pk)
    if taken.exists():
        common.refuse(f"{campaign.name} already has an alliance called {name}.", field="name")
    return {"name": name, "colour": colour, "description": description}


def _save(alliance: Alliance, **kwargs) -> None:
    """Save, refusing by field a name a twin request took meanwhile."""
    try:
        with transaction.atomic():
            alliance.save(**kwargs)
    except IntegrityError:
        common.refuse("Another alliance took that name meanwhile.", field="name")


@transaction.atomic
def define_alliance(
    *,
    actor,
    campaign: Campaign,
    name: str,
    colour: str,
    description: str = "",
    alliance: Alliance | None = None,
) -> Alliance:
    """A new alliance of ``campaign``, or ``alliance`` (one of its) edited."""
    campaign = _lock_campaign(campaign)
    if alliance is not None:
        alliance = Alliance.objects.get(pk=alliance.pk)
        if alliance.campaign_id != campaign.pk:
            common.refuse("That alliance belongs to another campaign.", field="campaign")
    values = _checked(campaign, name, colour, description, pk=alliance and alliance.pk)
    if alliance is None:
        alliance = Alliance(campaign=campaign, **values)
        _save(alliance)
        common.record(
            actor,
            HistoryAction.ALLIANCE_CHANGED,
            f"Alliance {alliance.name} formed in {campaign.name}",
            campaign=campaign,
            changed={k: [None, v] for k, v in values.items() if v},
        )
        return alliance
    diff = common.apply_changes(alliance, ALLIANCE_FIELDS, values)
    if diff:
        _save(alliance, update_fields=list(diff))
        common.record(
            actor,
            HistoryAction.ALLIANCE_CHANGED,
            f"Alliance {alliance.name} changed in {campaign.name}",
            campaign=campaign,
            changed=diff,
        )
    return alliance


def alliances_from_pack(actor, campaign: Campaign, pack: ContentPack) -> list[Alliance]:
    """Inside enabling ``pack`` (the campaign locked): each of its alliances becomes one of
    the campaign's, unless the campaign already has an alliance of that name. Turning the
    pack off later keeps them: forces fight for them."""
    items = CustomContent.objects.available().filter(pack=pack, kind=CustomContent.Kind.ALLIANCE)
    taken = {name.casefold() for name in campaign.alliances.values_list("name", flat=True)}
    made = []
    for item in items.order_by("position", "pk"):
        if item.name.casefold() in taken:
            continue
        taken.add(item.name.casefold())
        made.append(
            Alliance(
                campaign=campaign,
                name=item.name,
                colour=str(item.details.get("colour", "#666666")).lower(),
                description=item.details.get("description", ""),
                pack_item=item,
            )
        )
    if made:
        Alliance.objects.bulk_create(made)
        common.write_history(
            [
                common.history_row(
                    actor,
                    HistoryAction.ALLIANCE_CHANGED,
                    f"Alliance {a.name} formed in {campaign.name} from {pack.name}",
                    campaign=campaign,
                    changed={"name": [None, a.name], "colour": [None, a.colour]},
                )
                for a in made
            ]
        )
    return made


@transaction.atomic
def retire_alliance(*, actor, alliance: Alliance, reason: str) -> Alliance:
    """No force picks ``alliance`` any more; the forces that fight for it keep it."""
    reason = common.require_reason(reason, WHY_RETIRE)
    campaign = _lock_campaign(alliance.campaign)
    alliance = Alliance.objects.get(pk=alliance.pk)
    if alliance.retired:
        common.refuse(f"{alliance.name} has already been retired.")
    alliance.retired = True
    alliance.save(update_fields=["retired"])
    common.record(
        actor,
        HistoryAction.ALLIANCE_CHANGED,
        f"Alliance {alliance.name} retired in {campaign.name}",
        campaign=campaign,
        changed={"retired": [False, True]},
        reason=reason,
    )
    return alliance


def _require_campaigns(force: CrusadeForce, alliance: Alliance) -> None:
    if force.campaign_id is None or alliance.campaign_id != force.campaign_id:
        common.refuse("That is not one of this campaign's alliances.", field="alliance")


def _set_alliance(actor, force: CrusadeForce, alliance: Alliance | None, reason: str = ""):
    before = force.alliance.name if force.alliance_id else None
    after = alliance.name if alliance is not None else None
    force.alliance = alliance
    force.save(update_fields=["alliance"])
    summary = (
        f"{force.name} fights for {after}" if after else f"{force.name} left the {before} alliance"
    )
    common.record(
        actor,
        HistoryAction.FORCE_ALLIANCE_CHANGED,
        summary,
        force=force,
        changed={"alliance": [before, after]},
        reason=reason,
    )
    return force


def _locked(force: CrusadeForce) -> CrusadeForce:
    force = common.lock_force(force)
    # The alliance the force fights for now, read after the lock.
    force.alliance = Alliance.objects.filter(pk=force.alliance_id).first()
    return force


@transaction.atomic
def choose_alliance(*, actor, force: CrusadeForce, alliance: Alliance) -> CrusadeForce:
    """The force's player picks one of its campaign's alliances, while it has none."""
    force = _locked(force)
    if common.real_user(actor) is None or force.player_id != actor.pk:
        common.refuse("Only the force's player picks its alliance.", field="alliance")
    if force.alliance_id is not None:
        common.refuse(
            f"{force.name} already fights for {force.alliance.name}; only an organiser can "
            "change that.",
            field="alliance",
        )
    alliance = Alliance.objects.get(pk=alliance.pk)
    _require_campaigns(force, alliance)
    if alliance.retired:
        common.refuse(f"{alliance.name} has been retired: pick another.", field="alliance")
    return _set_alliance(actor, force, alliance)


@transaction.atomic
def change_force_alliance(
    *, actor, force: CrusadeForce, alliance: Alliance | None, reason: str
) -> CrusadeForce:
    """An organiser moves a force to another alliance of its campaign (None: it leaves
    its alliance), with a reason kept in the history."""
    reason = common.require_reason(reason, WHY_CHANGE)
    force = _locked(force)
    if alliance is not None:
        alliance = Alliance.objects.get(pk=alliance.pk)
        _require_campaigns(force, alliance)
        if alliance.retired and alliance.pk != force.alliance_id:
            common.refuse(f"{alliance.name} has been retired: pick another.", field="alliance")
    if force.alliance_id == (alliance.pk if alliance else None):
        common.refuse("The force already fights for that alliance.", field="alliance")
    return _set_alliance(actor, force, alliance, reason)


__all__ = ["change_force_alliance", "choose_alliance", "define_alliance", "retire_alliance"]
