"""Set-up for the service tests: realistic cards, battles, and "nothing changed" checks.

Cards and battles are built through `campaign.services`, as players would build them.
Where a test needs a unit to *already* carry something earned long ago (a rank, a
pending promotion, old Battle Scars), the helper says so in its docstring and uses the
shortest honest route: an organiser correction, or a row written directly.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db.models.fields.files import FieldFile

from campaign import rules, services
from campaign.models import (
    Battle,
    BattleHonour,
    BattleParticipant,
    BattleScar,
    BattleUnit,
    CrusadeForce,
    HistoryEntry,
    OutOfActionTest,
    Promotion,
    Unit,
)
from campaign.services import UnitOutcome
from campaign.services._common import refresh_totals
from tests.factories import make_character, make_force, make_unit, make_user

_names = itertools.count(1)

ASTRA = "Astra Militarum"
DEATH_GUARD = "Death Guard"

# --------------------------------------------------------------------------- forces


def krieg_force(**extra) -> CrusadeForce:
    """A Death Korps of Krieg Order of Battle (rosters/app-text/astra-militarum-13th.txt)."""
    extra.setdefault("name", "13th Siege Regiment")
    return make_force(faction=ASTRA, **extra)


def plague_force(**extra) -> CrusadeForce:
    """A Death Guard Order of Battle (rosters/app-text/death-guard-plague-wall-annotated.txt)."""
    extra.setdefault("name", "Plague Wall")
    return make_force(faction=DEATH_GUARD, **extra)


# --------------------------------------------------------------------------- Krieg cards


def commissar(force: CrusadeForce, name: str = "Lord Commissar Vell", **extra) -> Unit:
    """Krieg Command Squad: a CHARACTER unit of three models, 65 points."""
    extra.setdefault("points", 65)
    return make_character(
        force,
        name=name,
        datasheet="Krieg Command Squad",
        faction_keywords="Imperium, Astra Militarum",
        models_description="1 Lord Commissar, 2 Veteran Guardsmen",
        model_count=3,
        max_model_count=3,
        wargear="Laspistol, plasma pistol, power fist; chainsword; servo-scribes",
        **extra,
    )


def dreir(force: CrusadeForce, name: str = "Lord Marshal Dreir", **extra) -> Unit:
    """Lord Marshal Dreir: an EPIC HERO (a no-XP unit, R2.6), 100 points."""
    return make_character(
        force,
        name=name,
        datasheet="Lord Marshal Dreir",
        points=100,
        faction_keywords="Imperium, Astra Militarum",
        is_epic_hero=True,
        wargear="Laspistol, Sabre of Sacrifice, savage claws",
        **extra,
    )


def krieg_squad(force: CrusadeForce, name: str = "1st Line Company", **extra) -> Unit:
    """Death Korps of Krieg: BATTLELINE infantry, 10 of at most 20 models, 70 points."""
    extra.setdefault("points", 70)
    extra.setdefault("model_count", 10)
    extra.setdefault("faction_keywords", "Imperium, Astra Militarum")
    return make_unit(
        force,
        name=name,
        datasheet="Death Korps of Krieg",
        models_description="1 Watchmaster, 9 Troopers",
        max_model_count=20,
        wargear="Lasguns, long-las, chainsword, laspistol",
        is_infantry=True,
        is_battleline=True,
        **extra,
    )


def leman_russ(force: CrusadeForce, name: str, **extra) -> Unit:
    """Leman Russ Battle Tank: a VEHICLE, at most 3 per army (R8.3), 180 points."""
    extra.setdefault("points", 180)
    return make_unit(
        force,
        name=name,
        datasheet="Leman Russ Battle Tank",
        faction_keywords="Imperium, Astra Militarum",
        wargear="Battle cannon, heavy bolter, lascannon",
        is_vehicle=True,
        **extra,
    )


def chimera(force: CrusadeForce, name: str = "Chimera", **extra) -> Unit:
    """Chimera: a DEDICATED TRANSPORT, 70 points."""
    return make_unit(
        force,
        name=name,
        datasheet="Chimera",
        points=70,
        faction_keywords="Imperium, Astra Militarum",
        wargear="Multi-laser, heavy bolter, lasgun arrays",
        is_vehicle=True,
        is_dedicated_transport=True,
        **extra,
    )


def baneblade(force: CrusadeForce, name: str = "Mars Alpha Pattern Baneblade", **extra) -> Unit:
    """Baneblade: a TITANIC vehicle (+2 Crusade points per honour, R4.2), 480 points."""
    return make_unit(
        force,
        name=name,
        datasheet="Baneblade",
        points=480,
        faction_keywords="Imperium, Astra Militarum",
        is_vehicle=True,
        is_titanic=True,
        **extra,
    )


# --------------------------------------------------------------------------- Death Guard cards


def lord_of_contagion(force: CrusadeForce, name: str = "Lord of Contagion", **extra) -> Unit:
    return make_character(
        force,
        name=name,
        datasheet="Lord of Contagion",
        points=120,
        faction_keywords="Chaos, Death Guard",
        wargear="Manreaper",
        **extra,
    )


def plague_marines(force: CrusadeForce, name: str = "Plague Marines", **extra) -> Unit:
    return make_unit(
        force,
        name=name,
        datasheet="Plague Marines",
        points=130,
        faction_keywords="Chaos, Death Guard",
        models_description="1 Plague Champion, 6 Plague Marines",
        model_count=7,
        max_model_count=10,
        wargear="Plasma pistol, power fist, blight launcher, boltguns, plague spewer",
        is_infantry=True,
        is_battleline=True,
        **extra,
    )


def no_xp_unit(force: CrusadeForce, keyword: str) -> Unit:
    """R2.6: a Death Guard EPIC HERO, FORTIFICATION or SWARM unit."""
    kinds = {
        "EPIC HERO": dict(name="Typhus", datasheet="Typhus", points=80, is_character=True),
        "FORTIFICATION": dict(
            name="Miasmic Malignifier", datasheet="Miasmic Malignifier", points=65
        ),
        "SWARM": dict(name="Nurglings", datasheet="Nurglings", points=40, model_count=3),
    }
    flag = {"EPIC HERO": "is_epic_hero", "FORTIFICATION": "is_fortification", "SWARM": "is_swarm"}
    return make_unit(
        force, faction_keywords="Chaos, Death Guard", **kinds[keyword], **{flag[keyword]: True}
    )


# --------------------------------------------------------------------------- earned long ago


def organiser():
    """An organiser account for corrections made while setting a test up."""
    return make_user()


def set_xp(unit: Unit, xp: int) -> Unit:
    """Give a unit XP it earned before the test, as an organiser correction (no promotion)."""
    return services.correct_unit(
        actor=organiser(), unit=unit, reason="Carried over from the paper roster", xp=xp
    )


def set_rp(force: CrusadeForce, rp: int) -> CrusadeForce:
    return services.correct_force(
        actor=organiser(), force=force, reason="Carried over from the paper roster", rp=rp
    )


def pending_promotion(unit: Unit, rank: rules.Rank | None = None) -> Promotion:
    """A promotion waiting to be settled, written directly (as if a past battle queued it):
    by default for the rank the unit holds now (Blooded for a unit still Battle-ready)."""
    if rank is None:
        rank = max(rules.rank_for_xp(reload_xp(unit)), rules.Rank.BLOODED)
    return Promotion.objects.create(unit=unit, rank=rank)


def reload_xp(unit: Unit) -> int:
    return Unit.objects.values_list("xp", flat=True).get(pk=unit.pk)


def first_table(unit: Unit) -> rules.TraitTable:
    """The first Battle Traits table that fits the unit (R4.4)."""
    return rules.fitting_trait_tables(unit.keywords)[0]


def grant_trait(unit: Unit, trait: str, *, table: str | None = None) -> BattleHonour:
    """Give a unit a Battle Trait through the service, settling a promotion made for it."""
    return services.settle_with_battle_trait(
        actor=unit.force.player,
        promotion=pending_promotion(unit),
        table=table or first_table(unit),
        trait=trait,
    )


def grant_traits(unit: Unit, count: int) -> list[BattleHonour]:
    names = [name for name, _ in rules.BATTLE_TRAIT_TABLES[first_table(unit)].values()]
    return [grant_trait(unit, name) for name in names[:count]]


def grant_relic(unit: Unit, relic: str, *, weapon: str = "") -> BattleHonour:
    return services.settle_with_crusade_relic(
        actor=unit.force.player, promotion=pending_promotion(unit), relic=relic, weapon=weapon
    )


def grant_weapon_mods(unit: Unit, weapon: str, mods=("Brutal", "Precise")) -> BattleHonour:
    return services.settle_with_weapon_modification(
        actor=unit.force.player,
        promotion=pending_promotion(unit),
        model_name="Watchmaster",
        weapon=weapon,
        modifications=mods,
    )


def old_scars(unit: Unit, *names: str) -> list[BattleScar]:
    """Battle Scars from earlier failed Out of Action tests, written directly (with the
    force's stored totals brought up to date, as the services would)."""
    scars = [
        BattleScar.objects.create(unit=unit, name=n, effect=rules.BATTLE_SCAR_EFFECTS[n])
        for n in names
    ]
    refresh_totals(unit.force)
    return scars


class Dice:
    """A loaded die for the services' `rng`: returns the given results in order."""

    def __init__(self, *results: int) -> None:
        self.results = list(results)

    def randint(self, a: int, b: int) -> int:
        result = self.results.pop(0)
        assert a <= result <= b
        return result


# --------------------------------------------------------------------------- battles


@dataclass
class Fight:
    """A started, mustered battle, and what each side will report at its end."""

    battle: Battle
    participants: dict[int, BattleParticipant]
    results: dict[int, str]
    outcomes: dict[int, UnitOutcome] = field(default_factory=dict)

    def entry(self, unit: Unit) -> BattleUnit:
        return BattleUnit.objects.get(participant__battle=self.battle, unit=unit)

    def participant(self, force: CrusadeForce) -> BattleParticipant:
        return self.participants[force.pk]

    def report(self, unit: Unit, outcome: UnitOutcome) -> None:
        self.outcomes[self.entry(unit).pk] = outcome

    def record(self, actor=None):
        actor = actor or next(iter(self.participants.values())).force.player
        return services.record_battle_end(
            actor=actor, battle=self.battle, results=self.results, outcomes=self.outcomes
        )

    def test_for(self, unit: Unit) -> OutOfActionTest:
        return OutOfActionTest.objects.get(battle_unit__participant__battle=self.battle, unit=unit)


def go_to_battle(
    *armies: Sequence[Unit],
    size: str = "Incursion",
    results: Sequence[str] | None = None,
    outcomes: dict[Unit, UnitOutcome] | None = None,
    attachments: dict[Unit, Unit] | None = None,
) -> Fight:
    """Start a battle between the armies' forces and muster each army.

    The first CHARACTER of each army is its Warlord; by default the first army wins.
    """
    forces = [army[0].force for army in armies]
    battle = services.start_battle(actor=forces[0].player, forces=forces, battle_size=size)
    participants = {p.force_id: p for p in battle.participants.all()}
    attachments = attachments or {}
    for force, army in zip(forces, armies, strict=True):
        services.muster_army(
            actor=force.player,
            participant=participants[force.pk],
            faction=force.faction,
            detachment="Crusade detachment",
            units=list(army),
            warlord=next(u for u in army if u.is_character),
            attachments={
                leader.pk: bodyguard.pk
                for leader, bodyguard in attachments.items()
                if leader.force_id == force.pk
            },
        )
    results = results or ["win"] + ["loss"] * (len(forces) - 1)
    fight = Fight(
        battle=battle,
        participants={pk: BattleParticipant.objects.get(pk=p.pk) for pk, p in participants.items()},
        results={participants[f.pk].pk: r for f, r in zip(forces, results, strict=True)},
    )
    for unit, outcome in (outcomes or {}).items():
        fight.report(unit, outcome)
    return fight


def fight(*armies: Sequence[Unit], **kwargs) -> Fight:
    """A whole battle: started, mustered and recorded (R8, R9)."""
    battle = go_to_battle(*armies, **kwargs)
    battle.record()
    return battle


def destroyed_in_battle(unit: Unit, *, leader: Unit | None = None) -> OutOfActionTest:
    """Fight a battle in which `unit` is destroyed; return its Out of Action test (R5.1).

    A non-CHARACTER unit fights alongside `leader` (a CHARACTER of its force), since an
    army needs one (R8.4).
    """
    if leader is None and not unit.is_character:
        leader = commissar(unit.force, f"Commissar {next(_names)}")
    army = [unit] if unit.is_character else [leader, unit]
    done = fight(army, outcomes={unit: UnitOutcome(destroyed=True)})
    return done.test_for(unit)


# --------------------------------------------------------------------------- state


def _value(obj, f):
    value = f.value_from_object(obj)
    return value.name if isinstance(value, FieldFile) else value


def row(obj) -> dict:
    """Every stored field of one row."""
    return {f.attname: _value(obj, f) for f in obj._meta.concrete_fields}


def database_state() -> dict[str, list[dict]]:
    """Every row of every Crusade table: equal before and after means nothing changed."""
    return {
        model.__name__: [row(obj) for obj in model.objects.order_by("pk")]
        for model in apps.get_app_config("campaign").get_models()
    }


def card_snapshot(*forces: CrusadeForce) -> dict:
    """Every force field, every unit field, and the (name, status) of each card's honours
    and scars. Voided rows are left out: a void keeps them as history (style rule 4), so
    they are not part of what the card holds."""
    snap: dict = {}
    for force in CrusadeForce.objects.filter(pk__in=[f.pk for f in forces]):
        snap[f"force {force.pk}"] = row(force)
        for unit in Unit.objects.filter(force=force):
            snap[f"unit {unit.pk}"] = row(unit)
            snap[f"honours of {unit.pk}"] = {
                (h.name, h.status) for h in unit.honours.exclude(status=BattleHonour.Status.VOIDED)
            }
            snap[f"scars of {unit.pk}"] = {
                (s.name, s.status) for s in unit.scars.exclude(status=BattleScar.Status.VOIDED)
            }
    return snap


@contextlib.contextmanager
def refused(message: str | None = None, *, containing: Sequence[str] = ()) -> Iterator:
    """Expect a ValidationError, check what the player reads, and that nothing changed.

    "Nothing changed" means every row of every Crusade table reads the same afterwards,
    and in particular no HistoryEntry was written.
    """
    before = database_state()
    history = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as info:
        yield info
    seen = " ".join(info.value.messages)
    if message is not None:
        assert seen == message
    for part in containing:
        assert part in seen
    assert HistoryEntry.objects.count() == history
    assert database_state() == before


def latest_history(action: str, **filters) -> HistoryEntry:
    return HistoryEntry.objects.filter(action=action, **filters).order_by("-pk").first()
