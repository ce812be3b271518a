"""Shared setup for the battle view tests: a campaign, two players in a battle, a bystander."""

from __future__ import annotations

from dataclasses import dataclass

from campaign import services
from campaign.models import Battle, BattleParticipant, Membership
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user


@dataclass
class Table:
    campaign: object
    owner: object
    opponent: object
    member: object
    outsider: object
    force: object
    other_force: object
    captain: object
    squad: object
    enemy_captain: object
    enemy_squad: object
    battle: Battle
    mine: BattleParticipant
    theirs: BattleParticipant


def set_table(*, muster: bool = True) -> Table:
    campaign = make_campaign()
    owner, opponent, member, outsider = (make_user() for _ in range(4))
    force = make_force(player=owner, campaign=campaign, name="Iron Wolves")
    other_force = make_force(player=opponent, campaign=campaign, name="Red Talons")
    services.join_campaign(
        actor=member, user=member, campaign=campaign, role=Membership.Role.PLAYER
    )
    captain = make_character(force, name="Captain Vorn")
    squad = make_unit(force, name="Squad Helix")
    enemy_captain = make_character(other_force, name="Captain Rhal")
    enemy_squad = make_unit(other_force, name="Squad Kade")
    battle = services.start_battle(
        actor=owner,
        forces=[force, other_force],
        battle_size="Incursion",
        mission="Take and Hold",
        campaign=campaign,
    )
    mine = battle.participants.get(force=force)
    theirs = battle.participants.get(force=other_force)
    if muster:
        for participant, units in (
            (mine, [captain, squad]),
            (theirs, [enemy_captain, enemy_squad]),
        ):
            services.muster_army(
                actor=participant.force.player,
                participant=participant,
                faction="Adeptus Astartes",
                detachment="Gladius",
                units=units,
                warlord=units[0],
            )
    return Table(
        campaign,
        owner,
        opponent,
        member,
        outsider,
        force,
        other_force,
        captain,
        squad,
        enemy_captain,
        enemy_squad,
        battle,
        mine,
        theirs,
    )


def record(table: Table, *, destroyed=(), results=None) -> None:
    """Record the battle through the service: the squad(s) named in `destroyed` fell."""
    outcomes = {}
    for participant in (table.mine, table.theirs):
        for entry in participant.army.all():
            outcomes[entry.pk] = services.UnitOutcome(destroyed=entry.unit in destroyed)
    services.record_battle_end(
        actor=table.owner,
        battle=table.battle,
        results=results or {table.mine.pk: "win", table.theirs.pk: "loss"},
        outcomes=outcomes,
    )
