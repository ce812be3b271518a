"""Access helpers: every view fetches domain objects through these.

The owner / organiser / member / outsider matrix is decided here and only here.
Each `get_*_for_user` returns ``(obj, can_write)``, as healthchecks'
`_get_check_for_user` does: the object, and whether this user may change it.

- An object the user may not see is a 404 (its existence is not revealed).
- With ``write=True``, an object the user may see but not change is a 403.
- Players change their own forces (and what hangs off them), including their own side
  of a battle (answer its invitation, muster, record); the player who started a battle
  withdraws its invitations or cancels it. Organisers and superusers see everything in
  their campaigns but change players' data only through the admin.

Each check fetches one row by primary key (with what it needs joined in) and then
decides with small indexed queries, so it costs the same however big a campaign is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db.models import (
    BooleanField,
    CharField,
    Exists,
    Model,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
)
from django.http import Http404

from campaign import email_links
from campaign.bounds import fits_column
from campaign.models import (
    Battle,
    BattleParticipant,
    Campaign,
    CampaignInvitation,
    CrusadeForce,
    LogEntry,
    Membership,
    OutOfActionTest,
    Promotion,
    Unit,
)
from campaign.prepared import Prepared, by_pk, fetch_together

OWNER_ONLY = "Only the force's player can change it."
PLAYERS_ONLY = "Only players with a force in this battle can record it."
STARTER_ONLY = "Only the player who started this battle can do that."
ORGANISERS_ONLY = "Only the campaign's organisers can do that."
AUTHOR_ONLY = "Only the author of this entry can change it."

T = TypeVar("T")


def campaigns_for_user(user) -> QuerySet[Campaign]:
    """The campaigns a user may pick from (e.g. for a new force)."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    if user.is_superuser:
        return Campaign.objects.all()
    return Campaign.objects.filter(memberships__user=user).distinct()


_MEMBER_OF = Prepared(
    lambda user: Campaign.objects.filter(memberships__user_id=user).distinct(), user=int
)


def offered_campaigns(user) -> list[Campaign]:
    """`campaigns_for_user`, read: what a form offers, in one query compiled once."""
    if user.is_authenticated and not user.is_superuser:
        return _MEMBER_OF.fetch(user=user.pk)
    return list(campaigns_for_user(user))


def picked_campaign(user, value: str | None, offered: list[Campaign] | None = None):
    """The campaign a link asks a form to start with (``?campaign=<pk>``), when the user may
    pick it; otherwise the only campaign they are in, if just one. Never an error: it only
    fills in a form, which checks the choice again. ``offered``: the campaigns the form
    offers (`offered_campaigns`), already read."""
    if value and fits_column(Campaign._meta.pk, value):
        if offered is not None:
            return next((c for c in offered if c.pk == int(value)), None)
        return campaigns_for_user(user).filter(pk=int(value)).first()
    only = offered if offered is not None else list(campaigns_for_user(user)[:2])
    return only[0] if len(only) == 1 else None


def is_organiser(user, campaign: Campaign | None) -> bool:
    if campaign is None or not user.is_authenticated:
        return False
    return _role(user, campaign.pk) == Membership.Role.ORGANISER


def _effective_role(user, membership_role: Callable[[], str | None]) -> str | None:
    """The role ``user`` acts with: none signed out, organiser for a superuser, else the
    role of their membership (``membership_role`` is asked only then)."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.Role.ORGANISER
    return membership_role()


_ROLE = Prepared(
    lambda campaign, user: (
        Membership.objects.filter(campaign_id=campaign, user_id=user)
        .order_by()
        .values_list("role", flat=True)[:1]
    ),
    campaign=int,
    user=int,
)
"""A user's membership role in a campaign (one membership at most per user and campaign)."""


def _one_role(campaign: int, user: int) -> str | None:
    return next(iter(_ROLE.fetch(campaign=campaign, user=user)), None)


def _role(user, campaign_id: int | None) -> str | None:
    """The user's role in the campaign (superusers count as organisers), or None."""
    if campaign_id is None:
        return None
    return _effective_role(user, lambda: _one_role(campaign_id, user.pk))


def _with_viewer_role(rows: QuerySet, user, *, campaign: str = "pk") -> QuerySet:
    """Campaigns (or rows whose ``campaign`` column names one) with ``viewer_role``, the
    user's role in each (None for none): the row and the access check in one query."""
    if not user.is_authenticated:
        return rows.annotate(viewer_role=Value(None, output_field=CharField()))
    return _with_role_of(rows, user.pk, campaign=campaign)


def _with_role_of(rows: QuerySet, user: int, *, campaign: str = "pk") -> QuerySet:
    members = Membership.objects.filter(campaign=OuterRef(campaign), user_id=user)
    # One membership at most per user and campaign: nothing to sort (nor to join to sort).
    return rows.annotate(viewer_role=Subquery(members.order_by().values("role")[:1]))


def _sees_campaign(user, campaign_id: int | None) -> bool:
    """Members of a campaign (and superusers) see everything in it."""
    if user.is_authenticated and user.is_superuser:
        return True
    return _role(user, campaign_id) is not None


def _fetch(queryset: QuerySet, pk: int, what: str) -> Model:
    try:
        return queryset.get(pk=pk)
    except ObjectDoesNotExist:
        raise Http404(f"No such {what}.") from None


def _fetch_prepared(rows: Prepared, pk: int, what: str, **values: int) -> Model:
    """`_fetch` through a prepared query (`by_pk`, or one that takes ``values`` too)."""
    found = rows.fetch(pk=pk, **values) if fits_column(rows.model()._meta.pk, pk) else []
    if not found:
        raise Http404(f"No such {what}.")
    return found[0]


_FORCES = by_pk(lambda: CrusadeForce.objects.select_related("player", "campaign"))


def _units(pk: int, user: int) -> QuerySet[Unit]:
    """One card with its force, the viewer's role in its campaign, and whether the force
    is in a battle that is not over (``force_in_battle``: the card's Requisitions ask)."""
    cards = Unit.objects.select_related("force__player", "force__campaign", "force__provenance")
    committed = BattleParticipant.objects.filter(
        BattleParticipant.committed(), force=OuterRef("force_id")
    )
    rows = _with_role_of(cards, user, campaign="force__campaign_id")
    return rows.annotate(force_in_battle=Exists(committed.order_by())).filter(pk=pk)


_UNITS = Prepared(_units, pk=int, user=int)


def _every_participant() -> QuerySet[BattleParticipant]:
    return BattleParticipant.objects.all()


@cache
def _participants_from(participants: Callable[[], QuerySet[BattleParticipant]]) -> Prepared:
    """One side by its id from ``participants()``, with its battle, campaign, force and
    player (compiled once for each)."""
    return by_pk(lambda: participants().select_related("battle__campaign", "force__player"))


def _decide(obj: T, *, can_write: bool, visible: bool, write: bool, refusal: str) -> tuple[T, bool]:
    if not (can_write or visible):
        raise Http404("Not found.")
    if write and not can_write:
        raise PermissionDenied(refusal)
    return obj, can_write


def _force_owner(user, force: CrusadeForce) -> bool:
    return user.is_authenticated and force.player_id == user.pk


def _through_force(user, obj: T, force: CrusadeForce, *, write: bool) -> tuple[T, bool]:
    """Objects that belong to a force: its player changes them, its campaign sees them."""
    owner = _force_owner(user, force)
    visible = owner or _sees_campaign(user, force.campaign_id)
    return _decide(obj, can_write=owner, visible=visible, write=write, refusal=OWNER_ONLY)


def get_campaign_for_user(
    user, pk: int, *, write: bool = False, campaigns: Callable[[], QuerySet[Campaign]] | None = None
) -> tuple[Campaign, bool]:
    """Members (and superusers) see a campaign; its organisers may change it.

    ``campaigns()`` is the queryset to fetch it from when the page needs more than the
    campaign in the same query (compiled once for each ``campaigns``, `campaign.prepared`)."""
    campaign, can_write, _ = read_campaign_for_user(
        user, pk, write=write, campaigns=campaigns, along=()
    )
    return campaign, can_write


def read_campaign_for_user(
    user,
    pk: int,
    *,
    write: bool = False,
    campaigns: Callable[[], QuerySet[Campaign]] | None = None,
    along: Sequence[tuple[Prepared, dict]],
) -> tuple[Campaign, bool, list[list]]:
    """`get_campaign_for_user`, with what the reads ``along`` fetch, read in the same
    round trip (`prepared.fetch_together`) for a signed-in user: reads of the user's own
    rows, which the page shows once the campaign is theirs to see (on a refusal, nothing
    they read leaves here)."""
    campaigns = campaigns or _every_campaign
    if not user.is_authenticated:  # no rows of their own
        campaign = _fetch(_with_viewer_role(campaigns(), user), pk, "campaign")
        alongside: list[list] = [[] for _ in along]
    else:
        seen = (_seen_by(campaigns), {"pk": pk, "user": user.pk})
        found, *alongside = (
            fetch_together(seen, *along) if fits_column(Campaign._meta.pk, pk) else [[]]
        )
        if not found:
            raise Http404("No such campaign.")
        campaign = found[0]
    role = _effective_role(user, lambda: campaign.viewer_role)
    campaign, can_write = _decide(
        campaign,
        can_write=role == Membership.Role.ORGANISER,
        visible=role is not None,
        write=write,
        refusal=ORGANISERS_ONLY,
    )
    return campaign, can_write, alongside


def _every_campaign() -> QuerySet[Campaign]:
    return Campaign.objects.all()


@cache
def _seen_by(campaigns: Callable[[], QuerySet[Campaign]]) -> Prepared:
    """One campaign of ``campaigns()`` by its key, with a user's role in it."""
    return Prepared(
        lambda pk, user: _with_role_of(campaigns(), user).filter(pk=pk), pk=int, user=int
    )


def get_campaign_invitation_for_user(user, pk: int) -> CampaignInvitation:
    """An invitation to a campaign is its invited user's alone to see and answer: anyone
    else (the organiser who sent it included, who withdraws it in the admin) gets a 404."""
    invitation = _fetch(
        CampaignInvitation.objects.select_related("campaign", "user"), pk, "invitation"
    )
    if not user.is_authenticated or invitation.user_id != user.pk:
        raise Http404("Not found.")
    return invitation


def get_email_stop(token: str) -> tuple[Model, email_links.Stop] | None:
    """The user whose emails a link from an email stops, and what it stops: the signed
    token in the link decides (`campaign.email_links`), not who is signed in, since the
    link works without signing in. None for a link that is tampered with, too old, or of
    a user who is no more."""
    stop = email_links.read(token)
    if stop is None:
        return None
    user = get_user_model().objects.filter(pk=stop.user_id).first()
    return (user, stop) if user is not None else None


def get_force_for_user(
    user, pk: int, *, write: bool = False, forces: Prepared | None = None
) -> tuple[CrusadeForce, bool]:
    """Anyone in the force's campaign may read it; only its player may change it.

    ``forces`` is the query (of one force by ``pk``: `by_pk`) to fetch it from when the
    page needs more than the force, its player and its campaign in the same query."""
    force = _fetch_prepared(forces or _FORCES, pk, "force")
    return _through_force(user, force, force, write=write)


def get_unit_for_user(user, pk: int, *, write: bool = False) -> tuple[Unit, bool]:
    """A Crusade card: as its force."""
    # One query: the card, its force and what the check asks (no user has the key 0).
    unit = _fetch_prepared(_UNITS, pk, "unit", user=user.pk or 0)
    owner = _force_owner(user, unit.force)
    visible = owner or _effective_role(user, lambda: unit.viewer_role) is not None
    return _decide(unit, can_write=owner, visible=visible, write=write, refusal=OWNER_ONLY)


def get_out_of_action_test_for_user(
    user, pk: int, *, write: bool = False
) -> tuple[OutOfActionTest, bool]:
    test = _fetch(
        OutOfActionTest.objects.select_related(
            "unit__force__player", "unit__force__campaign", "battle_unit__participant__battle"
        ),
        pk,
        "Out of Action test",
    )
    return _through_force(user, test, test.unit.force, write=write)


def get_promotion_for_user(user, pk: int, *, write: bool = False) -> tuple[Promotion, bool]:
    promotion = _fetch(
        Promotion.objects.select_related("unit__force__player", "unit__force__campaign"),
        pk,
        "promotion",
    )
    return _through_force(user, promotion, promotion.unit.force, write=write)


_BATTLE_PLAYERS = Prepared(
    lambda battle: (
        BattleParticipant.objects.filter(battle_id=battle)
        .order_by()  # a set: the sides' order (by their battle's date) needs no join
        .values_list("force__player_id", flat=True)
    ),
    battle=int,
)


def _battle_players(battle_id: int) -> set[int]:
    """The players with a force in one battle (an indexed lookup on that battle)."""
    return set(_BATTLE_PLAYERS.fetch(battle=battle_id))


def _writer(user, battle: Battle, *, starter: bool, otherwise: tuple[bool, str]):
    """(can_write, refusal): the battle's starter alone with ``starter``, else ``otherwise``."""
    if starter:
        return user.is_authenticated and battle.created_by_id == user.pk, STARTER_ONLY
    return otherwise


def get_battle_for_user(
    user,
    pk: int,
    *,
    write: bool = False,
    starter: bool = False,
    battles: Callable[[], QuerySet[Battle]] | None = None,
) -> tuple[Battle, bool]:
    """Members of the battle's campaign see it; the players with a force in it change it
    (with ``starter``: only the player who started it, to cancel it).

    One query: the battle, whether the user has a side in it and their role in its
    campaign. ``battles()`` is the queryset to fetch it from when the page needs more of
    it in the same query (compiled once for each ``battles``, `campaign.prepared`)."""
    if not user.is_authenticated:
        raise Http404("Not found.")  # the battle pages ask for a login first
    battle = _fetch_prepared(_watched(battles or _battles), pk, "battle", user=user.pk)
    plays = battle.viewer_plays
    visible = plays or _effective_role(user, lambda: battle.viewer_role) is not None
    can_write, refusal = _writer(user, battle, starter=starter, otherwise=(plays, PLAYERS_ONLY))
    return _decide(battle, can_write=can_write, visible=visible, write=write, refusal=refusal)


def _battles() -> QuerySet[Battle]:
    return Battle.objects.select_related("campaign", "phase", "territory")


def get_watched_battle_for_user(
    user, pk: int, *, battles: Callable[[], QuerySet[Battle]]
) -> Battle:
    """A battle from ``battles()`` for a page that asks every few seconds whether it
    changed: whoever sees it as `get_battle_for_user` says gets it, anyone else a 404, with
    the check in the battle's own query (``battles`` annotates what the page asks; the
    query is compiled once for each ``battles``, `campaign.prepared`)."""
    if user.is_authenticated:
        battle = _fetch_prepared(_watched(battles), pk, "battle", user=user.pk)
    else:
        plays = Value(False, output_field=BooleanField())
        battle = _fetch(
            _with_viewer_role(battles(), user, campaign="campaign_id").annotate(viewer_plays=plays),
            pk,
            "battle",
        )
    visible = battle.viewer_plays or _effective_role(user, lambda: battle.viewer_role) is not None
    return _decide(battle, can_write=False, visible=visible, write=False, refusal="")[0]


@cache
def _watched(battles: Callable[[], QuerySet[Battle]]) -> Prepared:
    def build(pk: int, user: int) -> QuerySet[Battle]:
        mine = BattleParticipant.objects.filter(battle=OuterRef("pk"), force__player_id=user)
        rows = _with_role_of(battles(), user, campaign="campaign_id")
        return rows.annotate(viewer_plays=Exists(mine)).filter(pk=pk)

    return Prepared(build, pk=int, user=int)


def get_participant_for_user(
    user,
    pk: int,
    *,
    write: bool = False,
    starter: bool = False,
    participants: Callable[[], QuerySet[BattleParticipant]] | None = None,
) -> tuple[BattleParticipant, bool]:
    """One side of a battle: whoever sees the battle sees it; its force's player changes it
    (with ``starter``: only the player who started the battle, to withdraw its
    invitation). ``participants()``: the queryset to fetch it from when the page needs more
    of it in the same query (compiled once for each)."""
    rows = _participants_from(participants or _every_participant)
    participant = _fetch_prepared(rows, pk, "army")
    owner = _force_owner(user, participant.force)
    battle = participant.battle
    visible = (
        owner
        or _sees_campaign(user, battle.campaign_id)
        or (user.is_authenticated and user.pk in _battle_players(battle.pk))
    )
    can_write, refusal = _writer(user, battle, starter=starter, otherwise=(owner, OWNER_ONLY))
    return _decide(participant, can_write=can_write, visible=visible, write=write, refusal=refusal)


def get_log_entry_for_user(user, pk: int, *, write: bool = False) -> tuple[LogEntry, bool]:
    """An entry of a campaign's log: the campaign's members read it; only its author
    changes it. A hidden entry is seen only by its author and the campaign's organisers
    (anyone else gets a 404, as if it were not there)."""
    entry = _fetch(
        LogEntry.objects.select_related(
            "campaign", "author", "battle", "territory", "phase", "hidden_by"
        ),
        pk,
        "log entry",
    )
    author = user.is_authenticated and entry.author_id == user.pk
    role = _role(user, entry.campaign_id) if user.is_authenticated else None
    visible = role is not None and (
        not entry.is_hidden or author or role == Membership.Role.ORGANISER
    )
    return _decide(
        entry, can_write=author and visible, visible=visible, write=write, refusal=AUTHOR_ONLY
    )
