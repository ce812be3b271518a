"""Mustering an army for one side of a battle: the proposed army, the rules' check of it,
and the muster itself (a side's army, Warlord, attachments, transports and Agendas)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from campaign import rules
from campaign.models import (
    BattleParticipant,
    BattleUnit,
    HistoryAction,
    OutOfActionTest,
    Unit,
)
from campaign.models.forces import card_prefetches

from . import _common as common
from . import agendas as agenda_service
from .approval import FIGHT, require_approved
from .battles import (
    ARMIES_FIXED,
    units_with_pending_choices,
)
from .bulk import update_rows


@dataclass(frozen=True)
class Army:
    """A proposed army for one side of a battle: the keyword arguments of `check_army` and
    `muster_army` (units and Warlord are cards; the mappings are by unit primary key)."""

    faction: str
    units: list[Unit]
    warlord: Unit | None
    attachments: dict[int, int] = field(default_factory=dict)
    """Leader -> the Bodyguard unit it joins."""
    embarked: dict[int, int] = field(default_factory=dict)
    """Passenger -> the transport it starts in."""
    second_leader_rules: dict[int, str] = field(default_factory=dict)
    """Bodyguard -> the datasheet rule that lets it take a second Leader."""

    def as_the_rules_see_it(self) -> list[rules.MusterUnit]:
        pending = _pending(self.units)
        carried_by = {transport: unit for unit, transport in self.embarked.items()}
        return [
            u.facts(
                rules.MusterUnit,
                key=u.pk,
                removed=not u.is_active,
                pending=u.pk in pending,
                embarked_unit_key=carried_by.get(u.pk),
                leads_key=self.attachments.get(u.pk),
                second_leader_rule=self.second_leader_rules.get(u.pk, "").strip(),
            )
            for u in self.units
        ]


def _pending(units: list[Unit]) -> set[int]:
    """`units_with_pending_choices` of ``units``: read from their cards' prefetched pending
    promotions when they have them (`Unit.objects.with_card_details`), so only the Out of
    Action tests are asked for."""
    if not all(hasattr(u, "pending_promotion_list") for u in units):
        return units_with_pending_choices([u.pk for u in units])
    tested = OutOfActionTest.objects.open().filter(unit__in=[u.pk for u in units])
    promoted = {u.pk for u in units if u.pending_promotion_list}
    return promoted | set(tested.values_list("unit_id", flat=True))


def check_army(*, participant: BattleParticipant, **army) -> rules.MusterReport:
    """The rules' checks of a proposed army (the fields of `Army`), without saving anything:
    the live muster check."""
    army = Army(**army)
    foreign = [u.name for u in army.units if u.force_id != participant.force_id]
    chosen = {u.pk for u in army.units}
    missing = {
        pk
        for mapping in (army.attachments, army.embarked)
        for pair in mapping.items()
        for pk in pair
        if pk not in chosen
    }
    names = dict(Unit.objects.filter(pk__in=missing).values_list("pk", "name"))
    strays = [
        f"{names.get(pk, 'A unit')} is named as a Leader, Bodyguard, passenger or transport "
        "but is not in the army."
        for pk in sorted(missing)
    ]
    report = rules.check_muster(
        battle_size=participant.battle.battle_size,
        faction=army.faction,
        units=army.as_the_rules_see_it(),
        warlord_key=army.warlord.pk if army.warlord is not None else None,
    )
    extra = [f"Not in this Order of Battle: {', '.join(foreign)}."] if foreign else []
    if extra or strays:
        return rules.MusterReport(
            report.points, report.limit, (*report.errors, *extra, *strays), report.warnings
        )
    return report


def _clear_army(participant: BattleParticipant) -> None:
    """The earlier muster's rows, gone in one query whatever the army's size (Django's
    cascade would read the rows, then clear the Leaders' and passengers' links and look
    for Out of Action tests and Agenda achievements, one relation at a time). Those are
    written only once a side records, which refuses a muster: should one be there, its
    foreign key refuses the delete rather than lose it. Leaders and passengers point only
    at rows of their own army, all going at once. The history rows name the battle and
    the force, not these rows: they stay."""
    rows = BattleUnit.objects.filter(participant=participant)
    rows._raw_delete(rows.db)


def muster_refusal(participant: BattleParticipant) -> str | None:
    """Why this side can't choose its army now (None: it can)."""
    if not participant.battle.is_open:
        return ARMIES_FIXED
    if not participant.is_accepted:
        return f"{participant.force.name} has not accepted this battle."
    if participant.has_recorded:
        return "This side has recorded the battle; its army can no longer change."
    return None


@transaction.atomic
def muster_army(
    *, actor, participant: BattleParticipant, detachment: str, agendas=(), **army
) -> rules.MusterReport:
    """Choose the army (the fields of `Army`) and the Agendas it plays for, for a
    battle. Mustering again replaces the earlier choice."""
    require_approved(common.lock_force(participant.force_id), FIGHT)
    participant = BattleParticipant.objects.select_related("battle", "force").get(pk=participant.pk)
    refusal = muster_refusal(participant)
    if refusal:
        common.refuse(refusal)
    # What the rules' check reads of each card (its honours, scars and pending
    # promotions; not its upgrades, which only count towards Crusade points).
    army["units"] = list(
        Unit.objects.prefetch_related(*card_prefetches()[:3]).filter(
            pk__in=[u.pk for u in army["units"]]
        )
    )
    army = Army(**army)
    report = check_army(participant=participant, **army.__dict__)
    if not report.ok:
        common.refuse(" ".join(report.errors), field="units")
    if participant.mustered:  # only a muster writes an army: none to replace before
        _clear_army(participant)
    bodyguards = set(army.attachments.values())
    entries = {
        u.pk: BattleUnit(
            participant=participant,
            unit=u,
            second_leader_rule=(
                army.second_leader_rules.get(u.pk, "").strip() if u.pk in bodyguards else ""
            ),
        )
        for u in army.units
    }
    # One insert for the army, then one update for who leads and who rides with whom.
    BattleUnit.objects.bulk_create(entries.values())
    linked = {}
    for leader, bodyguard in army.attachments.items():
        entries[leader].attached_to = linked[leader] = entries[bodyguard]
    for passenger, transport in army.embarked.items():
        entries[passenger].embarked_in = entries[transport]
        linked[passenger] = entries[transport]
    if linked:
        update_rows([entries[pk] for pk in linked], ["attached_to", "embarked_in"])
    participant.faction = army.faction.strip()
    participant.detachment = detachment.strip()
    participant.warlord = army.warlord
    participant.mustered = True
    participant.save(update_fields=["faction", "detachment", "warlord", "mustered"])
    picked = agenda_service.save_picks(participant=participant, agendas=agendas)
    common.record(
        actor,
        HistoryAction.ARMY_MUSTERED,
        f"{participant.force.name} musters {len(army.units)} units "
        f"({report.points}/{report.limit} points)",
        force=participant.force,
        battle=participant.battle,
        changed={"army": [None, sorted(u.name for u in army.units)]}
        | ({"agendas": [None, picked]} if picked else {}),
    )
    return report
