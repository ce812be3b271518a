"""Access helpers: every view fetches domain objects through these.

The owner / organiser / member / outsider matrix is decided here and only here.
An object a user may not see is a 404 (its existence is not revealed); an object
a user may see but not change is a 403.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from campaign.models import (
    Battle,
    BattleParticipant,
    Campaign,
    CrusadeForce,
    Membership,
    OutOfActionTest,
    Promotion,
    Unit,
)


def campaigns_for_user(user) -> QuerySet[Campaign]:
    if not user.is_authenticated:
        return Campaign.objects.none()
    if user.is_superuser:
        return Campaign.objects.all()
    return Campaign.objects.filter(memberships__user=user).distinct()


def is_organiser(user, campaign: Campaign | None) -> bool:
    if campaign is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(
        campaign=campaign, user=user, role=Membership.Role.ORGANISER
    ).exists()


def get_campaign_for_user(user, pk: int, *, organiser: bool = False) -> Campaign:
    """Members (and superusers) see a campaign; `organiser=True` needs its organiser."""
    try:
        campaign = campaigns_for_user(user).get(pk=pk)
    except Campaign.DoesNotExist:
        raise Http404("No such campaign.") from None
    if organiser and not is_organiser(user, campaign):
        raise PermissionDenied("Only the campaign's organisers can do that.")
    return campaign


def forces_visible_to(user) -> QuerySet[CrusadeForce]:
    """Own forces, plus forces in campaigns the user belongs to."""
    if not user.is_authenticated:
        return CrusadeForce.objects.none()
    if user.is_superuser:
        return CrusadeForce.objects.all()
    return CrusadeForce.objects.filter(
        Q(player=user) | Q(campaign__in=Campaign.objects.filter(memberships__user=user))
    ).distinct()


def _check_write(user, force: CrusadeForce) -> None:
    if force.player_id != user.pk:
        raise PermissionDenied("Only the force's player can change it.")


def get_force_for_user(user, pk: int, *, write: bool = False, queryset=None) -> CrusadeForce:
    """Anyone who can see the force may read it; only its player may change it."""
    visible = forces_visible_to(user)
    base = queryset if queryset is not None else CrusadeForce.objects.all()
    try:
        force = base.select_related("player", "campaign").get(pk=pk, pk__in=visible.values("pk"))
    except CrusadeForce.DoesNotExist:
        raise Http404("No such force.") from None
    if write:
        _check_write(user, force)
    return force


def get_unit_for_user(user, pk: int, *, write: bool = False, queryset=None) -> Unit:
    base = queryset if queryset is not None else Unit.objects.all()
    try:
        unit = base.select_related("force", "force__player", "force__campaign").get(
            pk=pk, force__in=forces_visible_to(user).values("pk")
        )
    except Unit.DoesNotExist:
        raise Http404("No such unit.") from None
    if write:
        _check_write(user, unit.force)
    return unit


def battles_visible_to(user) -> QuerySet[Battle]:
    if not user.is_authenticated:
        return Battle.objects.none()
    if user.is_superuser:
        return Battle.objects.all()
    return Battle.objects.filter(
        Q(campaign__memberships__user=user) | Q(participants__force__player=user)
    ).distinct()


def get_battle_for_user(user, pk: int, *, write: bool = False) -> Battle:
    """Members of the battle's campaign see it; only players with a force in it change it."""
    try:
        battle = Battle.objects.select_related("campaign").get(
            pk=pk, pk__in=battles_visible_to(user).values("pk")
        )
    except Battle.DoesNotExist:
        raise Http404("No such battle.") from None
    if write and not battle.participants.filter(force__player=user).exists():
        raise PermissionDenied("Only players with a force in this battle can record it.")
    return battle


def get_participant_for_user(user, pk: int, *, write: bool = False) -> BattleParticipant:
    try:
        participant = BattleParticipant.objects.select_related(
            "battle", "force", "force__player"
        ).get(pk=pk, battle__in=battles_visible_to(user).values("pk"))
    except BattleParticipant.DoesNotExist:
        raise Http404("No such army.") from None
    if write:
        _check_write(user, participant.force)
    return participant


def get_out_of_action_test_for_user(user, pk: int, *, write: bool = False) -> OutOfActionTest:
    try:
        test = OutOfActionTest.objects.select_related(
            "unit", "unit__force", "battle_unit__participant__battle"
        ).get(pk=pk, unit__force__in=forces_visible_to(user).values("pk"))
    except OutOfActionTest.DoesNotExist:
        raise Http404("No such Out of Action test.") from None
    if write:
        _check_write(user, test.unit.force)
    return test


def get_promotion_for_user(user, pk: int, *, write: bool = False) -> Promotion:
    try:
        promotion = Promotion.objects.select_related("unit", "unit__force").get(
            pk=pk, unit__force__in=forces_visible_to(user).values("pk")
        )
    except Promotion.DoesNotExist:
        raise Http404("No such promotion.") from None
    if write:
        _check_write(user, promotion.unit.force)
    return promotion
