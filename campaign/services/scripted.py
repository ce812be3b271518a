"""Several players' moves in a row, for code that plays battles on the players' behalf:
the demo campaign and the benchmark's league.

Not a service of its own (it is not in `campaign.services.__all__`): there is no one
actor, and it leaves no history row of its own. Each step is the service the player
whose turn it is would call, so each step is locked, checked and recorded as usual.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence

from campaign.models import Battle, Campaign, CrusadeForce, CustomContent, Territory, Unit

from .battles import start_battle
from .invitations import accept_invitation
from .muster import muster_army


def start_and_muster(
    *,
    armies: Sequence[tuple[CrusadeForce, Sequence[Unit]]],
    battle_size: str,
    mission: str = "",
    campaign: Campaign | None = None,
    date: datetime.date | None = None,
    agendas: Mapping[int, Sequence[CustomContent]] | None = None,
    territory: Territory | None = None,
) -> Battle:
    """The first force's player opens a battle against the others; then side by side,
    in the order given, each invited player accepts and each side musters its units
    with its first CHARACTER as Warlord, picking the Agendas ``agendas`` gives its force
    (by the force's pk). The battle may be fought over a ``territory`` of the map."""
    forces = [force for force, _ in armies]
    battle = start_battle(
        actor=forces[0].player,
        force=forces[0],
        opponents=forces[1:],
        battle_size=battle_size,
        mission=mission,
        campaign=campaign,
        date=date,
        territory=territory,
    )
    participants = {p.force_id: p for p in battle.participants.all()}
    for force, units in armies:
        participant = participants[force.pk]
        if participant.is_invited:
            participant = accept_invitation(actor=force.player, participant=participant)
        muster_army(
            actor=force.player,
            participant=participant,
            faction=force.faction,
            detachment="Crusade detachment",
            units=list(units),
            warlord=next(u for u in units if u.is_character),
            agendas=list((agendas or {}).get(force.pk, ())),
        )
    return battle
