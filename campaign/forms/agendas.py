"""The Agenda fields of the muster and record forms: the side's picks, and each
unit's achievements. Validation is the rules' (`services.agendas`), shown by the field."""

from __future__ import annotations

from django import forms

from campaign import rules
from campaign.models import (
    AgendaAchievement,
    AgendaPick,
    BattleParticipant,
    BattleUnit,
    CustomContent,
)
from campaign.prepared import Prepared
from campaign.services import agendas as agenda_service

from . import IdsField
from .prototypes import TALLY, TICK, like


class AgendaChoiceField(IdsField):
    widget = forms.CheckboxSelectMultiple

    def label_from_instance(self, obj: CustomContent) -> str:
        return agenda_label(obj)


def agenda_label(agenda: CustomContent) -> str:
    terms = agenda_service.terms(agenda)
    notes = [f"{terms.xp}XP each time"]
    if terms.keeps_tally:
        notes.append("keeps a tally")
    if terms.limit_per_battle:
        notes.append(f"at most {terms.limit_per_battle} per battle")
    return f"{agenda.name} ({', '.join(notes)})"


def add_picks_field(
    form: forms.Form, participant: BattleParticipant, offered: list[CustomContent] | None = None
) -> None:
    """The muster form's Agenda picks: the campaign's Agendas, as many as its packs allow
    (no field when its packs hold none). ``offered``: those Agendas, as the page has them
    already (`selectors.muster_agendas`)."""
    # Read once: the boxes, the effects the page lists and how many may be picked all come
    # from this list (the field's own queryset only checks what is posted, so a page that
    # shows the form with the list in hand builds none).
    queryset = CustomContent.objects.none()
    if offered is None or form.is_bound:
        queryset = agenda_service.offered(agenda_service.campaign_of(participant))
    form.agenda_list = list(queryset) if offered is None else offered
    form.agendas_allowed = agenda_service.allowed_among(form.agenda_list)
    if not form.agendas_allowed:
        return
    n = form.agendas_allowed
    field = form.fields[agenda_service.PICKS_FIELD] = AgendaChoiceField(
        queryset=queryset,
        required=False,
        label="Agendas",
        help_text=f"Pick up to {n} Agenda{'s' if n != 1 else ''} for this battle.",
    )
    field.choices = [(agenda.pk, agenda_label(agenda)) for agenda in form.agenda_list]
    if not form.is_bound:
        form.initial.setdefault(agenda_service.PICKS_FIELD, _PICKED.fetch(side=participant.pk))


_PICKED = Prepared(
    lambda side: (
        AgendaPick.objects.filter(participant_id=side)
        .order_by("pk")
        .values_list("agenda_id", flat=True)
    ),
    side=int,
)
"""The Agendas a side picked, compiled once: the muster form shows them ticked."""


def clean_picks(form: forms.Form, data: dict) -> None:
    picked = data.get(agenda_service.PICKS_FIELD)
    if picked is None:
        return
    refusal = rules.agenda_pick_refusal(len(picked), form.agendas_allowed)
    if refusal:
        form.add_error(agenda_service.PICKS_FIELD, refusal)


def picked(form: forms.Form) -> list[CustomContent]:
    """The Agendas the muster form picked (the `agendas` of `muster_army`)."""
    return list(form.cleaned_data.get(agenda_service.PICKS_FIELD) or [])


def add_mark_fields(
    form: forms.Form,
    participant: BattleParticipant,
    army: list[BattleUnit],
    picks: dict[int, CustomContent] | None = None,
):
    """The record form's Agenda boxes: for each picked Agenda, each unit of the army, a
    tick (or how many times, for a tally Agenda). Amending starts from what was recorded.
    ``picks``: the side's picked Agendas, when the page has read them already."""
    form.agenda_picks = agenda_service.side_picks(participant) if picks is None else picks
    form.agenda_fields = {}
    if not form.agenda_picks:
        return
    recorded = {}
    if participant.claimed_result:  # only a side's own record writes its achievements
        recorded = {
            (row.battle_unit_id, row.agenda_id): row.times
            for row in AgendaAchievement.objects.filter(battle_unit__participant=participant)
        }
    for agenda_pk, agenda in form.agenda_picks.items():
        tally = agenda_service.terms(agenda).keeps_tally
        for entry in army:
            name = agenda_service.agenda_field(agenda_pk, entry.pk)
            times = recorded.get((entry.pk, agenda_pk), 0)
            if tally:
                label = f"Times {entry.unit.name} achieved {agenda.name}"
                field = like(TALLY, label=label, initial=times or None)
            else:
                label = f"{entry.unit.name} achieved {agenda.name}"
                field = like(TICK, label=label, initial=bool(times))
            form.fields[name] = field
            form.agenda_fields[(agenda_pk, entry.pk)] = name


def marks(form: forms.Form, data: dict, entry: BattleUnit) -> agenda_service.Marks:
    """One unit's marks from what was valid: (Agenda key, times) for each it achieved."""
    found = []
    for (agenda_pk, entry_pk), name in form.agenda_fields.items():
        if entry_pk != entry.pk:
            continue
        times = int(data.get(name) or 0)
        if times:
            found.append((agenda_pk, times))
    return tuple(found)


def add_mark_errors(form: forms.Form, outcomes: dict) -> None:
    for field, messages in agenda_service.mark_errors(
        form.army, form.agenda_picks, outcomes
    ).items():
        if field in form.fields and field in form.cleaned_data:
            form.add_error(field, messages)
        else:
            form.add_error(None, messages)


def agenda_rows(form: forms.Form) -> list[dict]:
    """For the template: each picked Agenda with its boxes, one per unit."""
    return [
        {
            "agenda": agenda,
            "label": agenda_label(agenda),
            "fields": [form[form.agenda_fields[(agenda_pk, entry.pk)]] for entry in form.army],
        }
        for agenda_pk, agenda in form.agenda_picks.items()
    ]
