"""The form a player starts a campaign with."""

from __future__ import annotations

from django import forms

from campaign.models import Campaign

from . import short_textareas

START_FIELDS = (*Campaign.DETAIL_FIELDS, *Campaign.HOUSE_RULE_FIELDS)
HOUSE_RULE_LABELS = {
    "starting_supply_limit": "Starting Supply Limit",
    "starting_rp": "Starting Requisition points",
    "rp_cap": "Requisition points cap",
    "supply_limit_increase": "Supply Limit increase",
}


class CampaignStartForm(forms.Form):
    """Name, description and house rules, with the model's labels, bounds
    (`campaign.bounds`) and the rulebook's numbers as defaults. It only checks input:
    `services.start_campaign` decides, and its refusals go next to the field they concern.
    A plain form, not a ModelForm, so the database's constraints never show as the form's
    own errors."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(
            forms.fields_for_model(
                Campaign,
                fields=START_FIELDS,
                widgets=short_textareas(Campaign, START_FIELDS),
            )
        )
        for name, label in HOUSE_RULE_LABELS.items():
            self.fields[name].label = label
        self.fields["name"].help_text = "Players see it when they join."
        self.fields["description"].help_text = "Optional: the setting, the schedule, the stakes."
