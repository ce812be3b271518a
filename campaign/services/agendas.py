"""Agendas in play: the Agendas a side picks at muster, its units' marks when it
records, and their XP and tallies when the battle is applied or voided.

Called from `battles` (muster, record, complete, void) inside their transactions; the
rules are `rules.agendas`. Each mark names a picked Agenda by its `CustomContent` key."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from campaign import rules
from campaign.models import (
    MOST_TALLY,
    AgendaAchievement,
    AgendaPick,
    Battle,
    BattleParticipant,
    BattleUnit,
    CustomContent,
    Unit,
)
from campaign.prepared import Prepared

from . import _common as common
from .bulk import update_rows

Marks = tuple[tuple[int, int], ...]
"""One unit's marks: (Agenda key, times) for each picked Agenda it achieved."""

PICKS_FIELD = "agendas"


class UnitOutcome(Protocol):
    agendas: Marks


def agenda_field(agenda_pk: int, entry_pk: int) -> str:
    """The record form's box for one unit's achievement of one picked Agenda."""
    return f"agenda_{agenda_pk}_{entry_pk}"


def campaign_of(participant: BattleParticipant) -> int | None:
    return participant.battle.campaign_id or participant.force.campaign_id


def offered(campaign_id: int | None) -> QuerySet[CustomContent]:
    """The Agendas a campaign offers: those of its enabled packs, not retired."""
    return (
        CustomContent.objects.available()
        .enabled_in(campaign_id)
        .filter(kind=CustomContent.Kind.AGENDA)
        .select_related("pack")
        .order_by("pack__name", "position", "pk")
    )


def allowed(campaign_id: int | None) -> int:
    """How many Agendas a side of this campaign picks for a battle."""
    return allowed_among(list(offered(campaign_id)))


def allowed_among(agendas: Sequence[CustomContent]) -> int:
    """How many Agendas a side picks, from the Agendas its campaign offers (`offered`,
    with their packs): the packs that hold none allow none."""
    held = Counter(agenda.pack_id for agenda in agendas)
    packs = {agenda.pack_id: agenda.pack for agenda in agendas}
    return rules.agendas_per_battle(
        rules.PackAgendas(n, packs[pk].agendas_per_battle) for pk, n in held.items()
    )


def terms(agenda: CustomContent):
    """The Agenda's numbers as the rules read them (the pack format's dataclass)."""
    return agenda.as_pack_item()


def save_picks(*, participant: BattleParticipant, agendas: Iterable[CustomContent]) -> list[str]:
    """Replace the side's picked Agendas (inside `muster_army`'s transaction, the force
    locked): only Agendas its campaign offers, at most as many as its packs allow. Returns
    their names."""
    chosen = list(dict.fromkeys(agendas))
    campaign_id = campaign_of(participant)
    if chosen:
        on_offer = set(offered(campaign_id).filter(pk__in=[a.pk for a in chosen]))
        stray = [a.name for a in chosen if a not in on_offer]
        if stray:
            common.refuse(
                f"Not an Agenda this campaign offers: {', '.join(stray)}.", field=PICKS_FIELD
            )
    refusal = rules.agenda_pick_refusal(len(chosen), allowed(campaign_id) if chosen else 0)
    if refusal:
        common.refuse(refusal, field=PICKS_FIELD)
    participant.agenda_picks.all().delete()
    AgendaPick.objects.bulk_create(AgendaPick(participant=participant, agenda=a) for a in chosen)
    return [a.name for a in chosen]


def side_picks(participant: BattleParticipant | int) -> dict[int, CustomContent]:
    """The Agendas a side picked, by key, in the order picked."""
    pk = participant if isinstance(participant, int) else participant.pk
    return picks_by_key(SIDE_PICKS.fetch(side=pk))


def picks_by_key(picks: Iterable[AgendaPick]) -> dict[int, CustomContent]:
    """`side_picks` from the rows `SIDE_PICKS` read."""
    return {pick.agenda_id: pick.agenda for pick in picks}


SIDE_PICKS = Prepared(
    lambda side: (
        AgendaPick.objects.filter(participant_id=side).select_related("agenda").order_by("pk")
    ),
    side=int,
)
"""`side_picks`, compiled once (`campaign.prepared`): asked by every record and muster."""


def battle_picks(sides: Iterable[int]) -> dict[int, dict[int, CustomContent]]:
    """`side_picks` of several sides (by `BattleParticipant` key) in one query."""
    found: dict[int, dict[int, CustomContent]] = {pk: {} for pk in sides}
    picks = AgendaPick.objects.filter(participant__in=list(found)).select_related("agenda")
    for pick in picks.order_by("pk"):
        found[pick.participant_id][pick.agenda_id] = pick.agenda
    return found


def achievements(battle: Battle) -> list[AgendaAchievement]:
    """Every achievement the sides of a battle recorded, in the order recorded."""
    rows = AgendaAchievement.objects.filter(battle_unit__participant__battle=battle)
    return list(rows.order_by("pk"))


def stored_marks(battle: Battle, rows: list[AgendaAchievement] | None = None) -> dict[int, Marks]:
    """What each side recorded of its Agendas, by `BattleUnit` key (from ``rows``, the
    battle's `achievements`, when read already)."""
    rows = achievements(battle) if rows is None else rows
    marks: dict[int, list[tuple[int, int]]] = {}
    for row in rows:
        marks.setdefault(row.battle_unit_id, []).append((row.agenda_id, row.times))
    return {entry: tuple(pairs) for entry, pairs in marks.items()}


def mark_errors(
    army: Sequence[BattleUnit],
    picks: Mapping[int, CustomContent],
    outcomes: Mapping[int, UnitOutcome],
) -> dict[str, list[str]]:
    """Why one side's Agenda marks can't stand, by the record form's field (empty: they
    can): only Agendas the side picked, by units of its army, within each Agenda's
    limits, and each Agenda of an Attached unit credited to one of its units only."""
    entries = {entry.pk: entry for entry in army}
    errors: dict[str, list[str]] = {}
    by_agenda: dict[int, list[tuple[BattleUnit, int]]] = {}
    for pk, outcome in outcomes.items():
        for agenda_pk, times in outcome.agendas:
            if pk not in entries:
                continue
            if agenda_pk not in picks:
                errors.setdefault(PICKS_FIELD, []).append(
                    "Mark only the Agendas this side picked at muster."
                )
                continue
            by_agenda.setdefault(agenda_pk, []).append((entries[pk], times))
    for agenda_pk, marked in by_agenda.items():
        agenda = picks[agenda_pk]
        for message in rules.agenda_mark_refusals(
            terms(agenda), [(entry.unit.name, times) for entry, times in marked]
        ):
            field = agenda_field(agenda_pk, marked[-1][0].pk)
            errors.setdefault(field, []).append(message)
    groups = rules.attached_units(
        {e.pk: e.attached_to_id if e.attached_to_id in entries else None for e in army}
    )
    for group in groups:
        credits = [
            rules.Credit(
                key=pk,
                name=entries[pk].unit.name,
                awards=tuple(picks[a].name for a, _ in outcomes[pk].agendas if a in picks),
            )
            for pk in group
            if pk in outcomes
        ]
        by_name = {agenda.name: key for key, agenda in picks.items()}
        for refusal in rules.attached_credit_refusals(credits):
            agenda_pk = next(
                (
                    k
                    for name, k in by_name.items()
                    if name.casefold() == refusal.occurrence.casefold()
                ),
                None,
            )
            field = agenda_field(agenda_pk, refusal.key) if agenda_pk else PICKS_FIELD
            errors.setdefault(field, []).append(refusal.message)
    return errors


def check_marks(army, picks, outcomes) -> None:
    errors = mark_errors(army, picks, outcomes)
    if errors:
        raise ValidationError(errors)


@dataclass(frozen=True)
class AgendaGain:
    """What one achievement gives its unit: XP within the caps, and tally."""

    agenda: CustomContent
    times: int
    xp: int
    tally: int


def gains(unit: Unit, other_xp: int, marks: Marks, picks: Mapping[int, CustomContent]):
    """Each achievement's XP (after the battle's other XP, within the caps; none
    for a no-XP unit) and tally, and the raw XP they add to the battle's."""
    achieved = [(picks[a], times) for a, times in marks if a in picks]
    raw = [rules.agenda_xp(terms(agenda), times) for agenda, times in achieved]
    shares = rules.agenda_xp_shares(
        unit.xp,
        other_xp,
        raw,
        is_character=unit.is_character,
        legendary_veteran=unit.legendary_veteran,
        no_xp=unit.no_xp,
    )
    found = [
        AgendaGain(
            agenda=agenda,
            times=times,
            xp=xp,
            tally=rules.agenda_tally_gained(terms(agenda), times),
        )
        for (agenda, times), xp in zip(achieved, shares, strict=True)
    ]
    return found, sum(raw)


def store_marks(
    *, participant: BattleParticipant, marks: Mapping[int, Marks], replacing: bool = True
) -> None:
    """Keep what a side recorded of its Agendas (``replacing`` an earlier record: a side
    that has not recorded yet has none), by `BattleUnit` key; applied only when the
    battle completes."""
    if replacing:
        AgendaAchievement.objects.filter(battle_unit__participant=participant).delete()
    AgendaAchievement.objects.bulk_create(
        AgendaAchievement(battle_unit_id=entry, agenda_id=agenda, times=times)
        for entry, pairs in marks.items()
        for agenda, times in pairs
    )


def apply(
    battle: Battle,
    achieved: Mapping[int, list[AgendaGain]],
    rows: list[AgendaAchievement] | None = None,
) -> None:
    """Keep on each achievement row (``rows``: the battle's `achievements`, when read
    already) the XP and tally it gave (the battle completes; the units' XP and tallies
    are written with the rest of the battle)."""
    rows = achievements(battle) if rows is None else rows
    given = {(entry, gain.agenda.pk): gain for entry, found in achieved.items() for gain in found}
    for row in rows:
        gain = given.get((row.battle_unit_id, row.agenda_id))
        row.xp_gained, row.tally_gained = (gain.xp, gain.tally) if gain else (0, 0)
    update_rows(rows, ["xp_gained", "tally_gained"])


def added(tallies: Mapping[str, int], found: Sequence[AgendaGain]) -> dict[str, int]:
    """A card's Agenda tallies, by Agenda name, after a battle's achievements."""
    after = dict(tallies)
    for gain in found:
        if gain.tally:
            after[gain.agenda.name] = after.get(gain.agenda.name, 0) + gain.tally
    return after


def taken_back(tallies: Mapping[str, int], entry: BattleUnit) -> dict[str, int]:
    """A card's Agenda tallies without what one voided battle added (never below 0; an
    Agenda whose tally comes back to 0 leaves the card)."""
    after = dict(tallies)
    for row in entry.agenda_achievements.all():
        if row.tally_gained:
            name = row.agenda.name
            after[name] = max(0, after.get(name, 0) - row.tally_gained)
            if not after[name]:
                del after[name]
    return after


def summary(found: Sequence[AgendaGain]) -> str:
    """The Agendas in a unit's history row, its name, times and XP gained."""
    if not found:
        return ""
    parts = [f"{g.agenda.name}{f' x{g.times}' if g.times > 1 else ''} +{g.xp}XP" for g in found]
    return "Agendas: " + ", ".join(parts)


MOST_TALLIED_AGENDAS = 100
"""The most Agendas one card of an export may hold a tally for."""


def restored_tallies_error(tallies: dict, where: str) -> str | None:
    """What is wrong with the Agenda tallies of a card in an export (None: nothing): names
    of campaign content, each with a whole number from 1 to the most a tally holds."""
    at = f"{where}.agenda_tallies"
    if len(tallies) > MOST_TALLIED_AGENDAS:
        return f"{at} holds more than {MOST_TALLIED_AGENDAS} Agendas."
    for name, tally in tallies.items():
        if not isinstance(name, str) or not 0 < len(name.strip()) <= 120:
            return f"{at}: each key is the name of an Agenda (1 to 120 characters)."
        if not isinstance(tally, int) or isinstance(tally, bool) or not 0 < tally <= MOST_TALLY:
            return f"{at}['{name}'] must be a whole number from 1 to {MOST_TALLY}."
    return None
