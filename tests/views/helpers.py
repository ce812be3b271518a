"""Helpers for the view tests: a battle at the table, messages, query counts."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import services
from campaign.models import Battle, BattleParticipant, CrusadeForce, Unit
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user


def texts(response) -> list[str]:
    """The messages a response left for the next page."""
    return [str(m) for m in get_messages(response.wsgi_request)]


def get_with_sql(client, url: str):
    """A GET of ``url`` and the SQL of the queries it made."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return response, [query["sql"] for query in queries.captured_queries]


def count_queries(client, url: str, **params) -> int:
    """How many queries a GET of ``url`` makes (it must succeed)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params)
    assert response.status_code == 200, url
    return len(queries)


ARMY = {"faction": "Adeptus Astartes", "detachment": "Gladius"}


def muster(participant: BattleParticipant, units: list[Unit]) -> None:
    """Muster ``units`` for one side, the first of them as Warlord."""
    player = participant.force.player
    services.muster_army(
        actor=player, participant=participant, units=units, warlord=units[0], **ARMY
    )


def fight_alone(force: CrusadeForce, units: list[Unit], *, destroyed=()) -> BattleParticipant:
    """A battle ``force`` fights on its own, recorded as a win; ``destroyed`` units fell."""
    battle = services.start_battle(
        actor=force.player, force=force, battle_size="Incursion", campaign=force.campaign
    )
    side = battle.participants.get()
    muster(side, units)
    fallen = {
        e.pk: services.UnitOutcome(destroyed=True) for e in side.army.filter(unit__in=destroyed)
    }
    services.record_battle_end(
        actor=force.player, battle=battle, results={side.pk: "win"}, outcomes=fallen
    )
    return side


def past_battles(force: CrusadeForce, count: int) -> None:
    """``count`` battles started and voided: a campaign with a long past."""
    for _ in range(count):
        battle = services.start_battle(
            actor=force.player, force=force, battle_size="Incursion", campaign=force.campaign
        )
        services.void_battle(actor=force.player, battle=battle, reason="practice")


@dataclass
class Table:
    """A campaign with two players in a battle, a member watching, an outsider, and the
    campaign's organiser."""

    campaign: object
    organiser: object
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


SIDES = (
    # player, force, its name, (its captain, name), (its squad, name): attributes of Table
    ("owner", "force", "Iron Wolves", ("captain", "Captain Vorn"), ("squad", "Squad Helix")),
    (
        "opponent",
        "other_force",
        "Red Talons",
        ("enemy_captain", "Captain Rhal"),
        ("enemy_squad", "Squad Kade"),
    ),
)


def set_table(*, accept: bool = True, muster: bool = True) -> Table:
    """The owner starts a battle against the opponent, who accepts (unless ``accept`` is
    False: the invitation then waits); both muster (unless ``muster`` is False)."""
    organiser = make_user(is_staff=True)
    parts: dict = {"campaign": make_campaign(organiser=organiser), "organiser": organiser}
    parts |= {role: make_user() for role in ("owner", "opponent", "member", "outsider")}
    services.join_campaign(actor=parts["member"], user=parts["member"], campaign=parts["campaign"])
    for player, side, name, (captain, captain_name), (squad, squad_name) in SIDES:
        force = parts[side] = make_force(
            player=parts[player], campaign=parts["campaign"], name=name
        )
        parts[captain] = make_character(force, name=captain_name)
        parts[squad] = make_unit(force, name=squad_name)
    battle = services.start_battle(
        actor=parts["owner"],
        force=parts["force"],
        opponents=[parts["other_force"]],
        battle_size="Incursion",
        mission="Take and Hold",
        campaign=parts["campaign"],
    )
    table = Table(
        **parts,
        battle=battle,
        mine=battle.participants.get(force=parts["force"]),
        theirs=battle.participants.get(force=parts["other_force"]),
    )
    if accept:
        services.accept_invitation(actor=table.opponent, participant=table.theirs)
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
        battle=table.battle,
        results=results or {table.mine.pk: "win", table.theirs.pk: "loss"},
        outcomes=outcomes,
    )
