"""Which emails a player gets: one box per kind of email."""

from __future__ import annotations

from django import forms

from campaign.models import EmailKind, PlayerSettings


class EmailChoicesForm(forms.Form):
    """A box for each kind of email (`EmailKind`), ticked for the kinds the player gets."""

    def __init__(self, *args, settings: PlayerSettings, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in EmailKind:
            model_field = PlayerSettings._meta.get_field(kind.field)
            self.fields[kind.value] = forms.BooleanField(
                label=model_field.verbose_name,
                help_text=kind.when + ".",
                required=False,
                initial=settings.wants(kind),
            )

    @property
    def chosen(self) -> dict[EmailKind, bool]:
        return {kind: self.cleaned_data[kind.value] for kind in EmailKind}
