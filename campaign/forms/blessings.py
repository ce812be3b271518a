"""The underdog's pick of Crusade Blessings on the battle page."""

from __future__ import annotations

from django import forms

from campaign.models import CustomContent

from . import IdsField


class BlessingChoice(IdsField):
    widget = forms.CheckboxSelectMultiple

    def label_from_instance(self, obj: CustomContent) -> str:
        return f"{obj.name}: {obj.effect}" if obj.effect else obj.name


class BlessingPickForm(forms.Form):
    """Which of the campaign's Blessings the underdog takes: no more than ``allowed``
    (the service checks again, with the armies as they are then)."""

    blessings = BlessingChoice(
        queryset=CustomContent.objects.none(),
        label="Crusade Blessings",
        error_messages={"required": "Pick at least one Blessing."},
    )

    def __init__(self, *args, offered, allowed: int | None, picked=(), **kwargs) -> None:
        kwargs.setdefault("initial", {"blessings": [p.blessing_id for p in picked]})
        super().__init__(*args, **kwargs)
        self.allowed = allowed
        field = self.fields["blessings"]
        field.queryset = offered
        if allowed is not None:
            field.help_text = (
                f"Pick up to {allowed}. Picking again before you record replaces your picks."
            )

    def clean_blessings(self):
        chosen = self.cleaned_data["blessings"]
        if self.allowed is not None and len(chosen) > self.allowed:
            raise forms.ValidationError(
                f"Pick no more than {self.allowed} Blessing{'s' if self.allowed != 1 else ''}: "
                f"{len(chosen)} were ticked."
            )
        return chosen
