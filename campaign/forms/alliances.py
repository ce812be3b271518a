"""The alliance a player's force fights for."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from campaign.bounds import fits_column
from campaign.models import Alliance


class AllianceChoiceField(forms.ModelChoiceField):
    """One of the campaign's alliances, by id: an id no row could have is a choice that
    isn't offered (never a database error)."""

    def to_python(self, value):
        if value not in self.empty_values and not fits_column(Alliance._meta.pk, value):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)

    def label_from_instance(self, obj: Alliance) -> str:
        return obj.name


class ChooseAllianceForm(forms.Form):
    """Fight for one of the campaign's alliances (those not retired)."""

    alliance = AllianceChoiceField(
        queryset=Alliance.objects.none(),
        label="Alliance",
        empty_label=None,
        widget=forms.RadioSelect,
        help_text="Once chosen, only an organiser can change it.",
        error_messages={
            "invalid_choice": "Pick one of this campaign's alliances.",
            "required": "Pick one of this campaign's alliances.",
        },
    )

    def __init__(self, *args, alliances, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["alliance"].queryset = alliances
