"""Helpers for the view tests: a battle at the table, messages, query counts."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import services
from campaign.models import Battle, BattleParticipant, Membership, Unit
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user


def texts(response) -> list[str]:
    """The messages a response left for the next page."""
    return [str(m) for m in get_messages(response.wsgi_request)]


def count_queries(client, url: str, **params) -> int:
    """How many queries a GET of ``url`` makes (it must succeed)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params)
    assert response.status_code == 200, url
    return len(queries)


def muster(participant: BattleParticipant, units: list[Unit]) -> None:
    """Muster ``units`` for one side, the first of them as Warlord."""
    services.muster_army(
        actor=participant.force.player,
        participant=participant,
        faction="Adeptus Astartes",
        detachment="Gladius",
        units=units,
        warlord=units[0],
    )


@dataclass
class Table:
    """A campaign with two players in a battle, a member watching and an outsider."""

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

    def muster_both(self, *extra: Unit) -> None:
        muster(self.mine, [self.captain, self.squad, *extra])
        muster(self.theirs, [self.enemy_captain, self.enemy_squad])


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
    table = Table(
        campaign=campaign,
        owner=owner,
        opponent=opponent,
        member=member,
        outsider=outsider,
        force=force,
        other_force=other_force,
        captain=captain,
        squad=squad,
        enemy_captain=enemy_captain,
        enemy_squad=enemy_squad,
        battle=battle,
        mine=battle.participants.get(force=force),
        theirs=battle.participants.get(force=other_force),
    )
    if muster:
        table.muster_both()
    return table


def record(table: Table, *, destroyed=(), results=None) -> None:
    """Record the battle through the service: the unit(s) named in `destroyed` fell."""
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
