"""Factories that build test data through the services, as players would."""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth import get_user_model

from campaign import services
from campaign.models import Campaign, CrusadeForce, Membership, Unit

_seq = itertools.count(1)


def make_user(username: str | None = None, **extra: Any):
    username = username or f"player{next(_seq)}"
    return get_user_model().objects.create_user(
        username=username, password="test-pass-123", **extra
    )


def make_campaign(*, organiser=None, name: str | None = None, **house_rules: int) -> Campaign:
    organiser = organiser or make_user(f"organiser{next(_seq)}", is_staff=True)
    return services.create_campaign(
        actor=organiser, name=name or f"Campaign {next(_seq)}", **house_rules
    )


def make_force(
    *, player=None, campaign: Campaign | None = None, name: str | None = None, **extra: Any
) -> CrusadeForce:
    player = player or make_user()
    if campaign is not None:
        services.join_campaign(
            actor=player, user=player, campaign=campaign, role=Membership.Role.PLAYER
        )
    return services.create_force(
        actor=player,
        player=player,
        campaign=campaign,
        name=name or f"Force {next(_seq)}",
        faction=extra.pop("faction", "Adeptus Astartes"),
        **extra,
    )


def make_unit(
    force: CrusadeForce,
    *,
    name: str | None = None,
    datasheet: str = "Intercessor Squad",
    points: int = 80,
    faction_keywords: str = "Adeptus Astartes",
    **extra: Any,
) -> Unit:
    # Like the Intercessors it defaults to, a unit is INFANTRY unless it says otherwise.
    bodies = ("is_infantry", "is_mounted", "is_vehicle", "is_monster")
    extra.setdefault("is_infantry", not any(extra.get(body) for body in bodies))
    return services.add_unit(
        actor=force.player,
        force=force,
        unit=services.NewUnit(
            name=name or f"Unit {next(_seq)}",
            datasheet=datasheet,
            points=points,
            faction_keywords=faction_keywords,
            **extra,
        ),
    )


def make_character(force: CrusadeForce, **extra: Any) -> Unit:
    extra.setdefault("datasheet", "Captain")
    extra.setdefault("points", 80)
    return make_unit(force, is_character=True, **extra)


def reload(obj):
    """A fresh copy from the database (no cached prefetches)."""
    return type(obj).objects.get(pk=obj.pk)


def make_battle(force: CrusadeForce, *opponents: CrusadeForce, actor=None, **details: Any):
    """A battle ``force``'s player starts (or ``actor``), every opponent's player accepting
    the invitation: each side then fights. Incursion unless ``details`` say otherwise."""
    details.setdefault("battle_size", "Incursion")
    battle = services.start_battle(
        actor=actor or force.player, force=force, opponents=list(opponents), **details
    )
    for side in battle.participants.exclude(force=force).select_related("force__player"):
        services.accept_invitation(actor=actor or side.force.player, participant=side)
    return battle


AGAINST = {"win": "loss", "loss": "win", "draw": "draw"}
"""The result the other side of a two-player battle records (R9: the two must agree)."""


def make_recorded_battle(
    force: CrusadeForce, opponent: CrusadeForce, *, result: str = "win", **details: Any
):
    """A battle ``force`` plays against ``opponent`` to its end, ``result`` being ``force``'s
    (a win unless said). Each side fields just its first CHARACTER, as Warlord, and records
    its own end: a finished battle for pages that count them, with no Out of Action test."""
    return fight_to_the_end(make_battle(force, opponent, **details), force, result=result)


def fight_to_the_end(battle, force: CrusadeForce, *, result: str = "win"):
    """A battle already started, fought to its end as `make_recorded_battle` fights one,
    ``result`` being ``force``'s (a win unless said)."""
    results = {}
    for side in battle.participants.select_related("force__player"):
        warlord = side.force.units.filter(is_character=True).first()
        services.muster_army(
            actor=side.force.player,
            participant=side,
            units=[warlord],
            warlord=warlord,
            faction="Adeptus Astartes",
            detachment="Gladius",
        )
        results[side.pk] = result if side.force == force else AGAINST[result]
    services.record_battle_end(battle=battle, results=results, outcomes={})
    return battle


def make_house_content(*, campaign: Campaign, kind: str, name: str, **details: str):
    """An item of the campaign's house rules pack, added by one of its organisers."""
    organiser = campaign.memberships.filter(role="organiser").first().user
    return services.add_custom_content(
        actor=organiser, campaign=campaign, kind=kind, name=name, **details
    )
