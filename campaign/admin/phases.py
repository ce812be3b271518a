"""A campaign's phases and its scoring, in the campaign's admin: phases defined in an
inline (through `services.define_phase`), the next phase started by an action
(`services.advance_phase`), Campaign Points set through `services.set_scoring`."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from campaign import services
from campaign.models import Campaign, Phase
from campaign.models.phases import MOST_PHASES

from .base import ReasonStep, RefusalForm, ServiceInline, reason_action
from .scope import ScopedInline

SCORING_FIELDS = list(Campaign.SCORING_FIELDS)
SCORING_FIELDSET = (
    "Campaign Points",
    {
        "fields": [*SCORING_FIELDS, "scoring_reason"],
        "description": "What each side of a completed battle scores for its force and its "
        "alliance. A change counts for battles completed from now on: battles already "
        "completed keep the points they scored.",
    },
)


class PhaseForm(RefusalForm, forms.ModelForm):
    """A phase to add (after the others) or to edit, through `services.define_phase`."""

    class Meta:
        model = Phase
        fields = ["name", "narrative", "battle_size", "points_limit"]
        widgets = {"narrative": forms.Textarea(attrs={"rows": 2, "cols": 40})}

    def apply(self, campaign: Campaign) -> Phase:
        data = self.cleaned_data
        return services.define_phase(
            actor=self.actor,
            campaign=campaign,
            name=data["name"],
            narrative=data.get("narrative") or "",
            battle_size=data.get("battle_size") or "",
            points_limit=data.get("points_limit"),
            phase=self.instance if self.instance.pk is not None else None,
        )


class PhaseInline(ServiceInline, ScopedInline, admin.TabularInline):
    model = Phase
    form = PhaseForm
    fields = [
        "position",
        "name",
        "narrative",
        "battle_size",
        "points_limit",
        "started_at",
        "ended_at",
    ]
    readonly_fields = ["position", "started_at", "ended_at"]
    extra = 1
    can_delete = False
    verbose_name = "phase"
    verbose_name_plural = (
        "phases (played in order; start the first, and each next one, with the action "
        "“Start the next phase” on the list of campaigns or the button on the campaign's page)"
    )

    max_num = MOST_PHASES


ADVANCE = ReasonStep(
    title="Start the next phase",
    button="Start the next phase",
    done="The next phase began in {count} campaign(s).",
    initial_reason="The story moves on",
).of(services.advance_phase, "campaign")

advance_phase_action = reason_action(ADVANCE, "advance_phase")


def scoring_reason_field() -> forms.CharField:
    return forms.CharField(
        label="Reason for the scoring change",
        required=False,
        max_length=500,
        help_text="Optional; kept in the history. Battles already completed keep their points.",
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
    )
