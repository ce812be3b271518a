"""Forms for forces, Crusade cards, requisitions and pictures.

Forms own input validation; rule refusals come from the services as ValidationError
and are put next to the field they concern with `add_service_errors`.
"""

from __future__ import annotations

from django import forms

from campaign import pictures, rules

TEXTAREA = forms.Textarea(attrs={"rows": 3})


class ForceDetailsForm(forms.Form):
    name = forms.CharField(max_length=120)
    faction = forms.CharField(max_length=120, help_text="e.g. Adeptus Astartes.")
    goals = forms.CharField(required=False, widget=TEXTAREA, label="Goals")
    victories_notes = forms.CharField(required=False, widget=TEXTAREA, label="Notable victories")
    vendettas = forms.CharField(required=False, widget=TEXTAREA)
    background = forms.CharField(required=False, widget=TEXTAREA)


class ForceCreateForm(ForceDetailsForm):
    campaign = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label="No campaign (yet)",
        help_text="A campaign you are a member of.",
    )
    field_order = ["name", "faction", "campaign"]

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = campaigns


class PictureForm(forms.Form):
    """One picture upload; a FileField (not ImageField) so our own messages are shown."""

    picture = forms.FileField(
        label="Picture",
        help_text="JPEG, PNG or WebP, up to 10 MB.",
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )

    def clean_picture(self):
        upload = self.cleaned_data["picture"]
        self.processed = pictures.process_upload(upload)
        return upload


class BannerForm(PictureForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["picture"].label = "Banner picture"


KEYWORD_FLAGS = [
    "is_character",
    "is_epic_hero",
    "is_titanic",
    "is_fortification",
    "is_swarm",
    "is_battleline",
    "is_dedicated_transport",
]


class UnitCreateForm(forms.Form):
    name = forms.CharField(max_length=120)
    datasheet = forms.CharField(max_length=120, help_text="e.g. Intercessor Squad.")
    points = forms.IntegerField(min_value=0, max_value=100_000, label="Points")
    faction_keywords = forms.CharField(
        max_length=255, help_text="Comma-separated, e.g. Adeptus Astartes, Ultramarines."
    )
    models_description = forms.CharField(
        max_length=255, required=False, label="Models", help_text="e.g. 1 Sergeant, 4 Intercessors."
    )
    model_count = forms.IntegerField(min_value=1, initial=1, label="Number of models")
    max_model_count = forms.IntegerField(
        min_value=1, required=False, label="Datasheet maximum models"
    )
    wargear = forms.CharField(required=False, widget=TEXTAREA)
    enhancement = forms.CharField(max_length=120, required=False)
    enhancement_points = forms.IntegerField(min_value=0, initial=0, label="Enhancement points")
    selectable_keywords = forms.CharField(
        max_length=255, required=False, help_text="e.g. the <CHAPTER> keyword you chose."
    )
    crusade_rules = forms.CharField(required=False, widget=TEXTAREA, label="Rules chosen")
    trait_table = forms.ChoiceField(
        choices=[("", "Other"), *rules.choices(rules.TraitTable)],
        required=False,
        label="Battle Traits table",
        help_text="Which Battle Traits table fits this unit.",
    )
    is_character = forms.BooleanField(required=False, label="CHARACTER")
    is_epic_hero = forms.BooleanField(required=False, label="EPIC HERO")
    is_titanic = forms.BooleanField(required=False, label="TITANIC")
    is_fortification = forms.BooleanField(required=False, label="FORTIFICATION")
    is_swarm = forms.BooleanField(required=False, label="SWARM")
    is_battleline = forms.BooleanField(required=False, label="BATTLELINE")
    is_dedicated_transport = forms.BooleanField(required=False, label="DEDICATED TRANSPORT")
    does_not_count = forms.BooleanField(
        required=False,
        label="Does not count towards supply",
        help_text="Only for units a faction rule leaves out of Supply Used.",
    )
    notes = forms.CharField(required=False, widget=TEXTAREA)

    def __init__(self, *args, supply_check_url: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if supply_check_url:
            self.fields["points"].widget.attrs.update(
                {
                    "hx-get": supply_check_url,
                    "hx-trigger": "input changed delay:300ms",
                    "hx-target": "#supply-status",
                    "hx-swap": "outerHTML",
                    "hx-include": "#id_does_not_count",
                    "aria-describedby": "supply-status",
                }
            )

    def clean(self):
        data = super().clean()
        count, most = data.get("model_count"), data.get("max_model_count")
        if count and most and count > most:
            self.add_error("model_count", "That is more models than the datasheet maximum.")
        return data

    def new_unit_values(self) -> dict:
        data = dict(self.cleaned_data)
        data["counts_towards_supply"] = not data.pop("does_not_count")
        data["trait_table"] = data.get("trait_table") or ""
        if data.get("enhancement_points") is None:
            data["enhancement_points"] = 0
        return data

    @property
    def keyword_fields(self):
        return [self[name] for name in KEYWORD_FLAGS]


class UnitEditForm(forms.Form):
    name = forms.CharField(max_length=120)
    selectable_keywords = forms.CharField(
        max_length=255, required=False, help_text="e.g. the <CHAPTER> keyword you chose."
    )
    crusade_rules = forms.CharField(required=False, widget=TEXTAREA, label="Rules chosen")
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 5}))


class RemoveUnitForm(forms.Form):
    reason = forms.CharField(
        max_length=255,
        required=False,
        label="Why is it leaving?",
        help_text="Optional, e.g. 'Retired to make room'.",
    )


class RenownedHeroesForm(forms.Form):
    enhancement = forms.CharField(max_length=120, label="Enhancement")
    enhancement_points = forms.IntegerField(min_value=0, label="Enhancement points")


class LegendaryVeteransForm(forms.Form):
    confirm = forms.BooleanField(
        label="Yes, make this unit Legendary Veterans",
    )


class RearmAndResupplyForm(forms.Form):
    wargear = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), label="New wargear")
    points = forms.IntegerField(min_value=0, label="New points")
    replaced_weapons = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Weapons with honours being replaced",
        help_text="Their Weapon Modifications or Crusade Relics are lost.",
    )
    other_replaced = forms.CharField(
        required=False,
        max_length=255,
        label="Other weapons replaced",
        help_text="Comma-separated.",
    )

    def __init__(self, *args, honoured_weapons: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        if honoured_weapons:
            self.fields["replaced_weapons"].choices = [(w, w) for w in honoured_weapons]
        else:
            del self.fields["replaced_weapons"]

    def weapons(self) -> list[str]:
        chosen = list(self.cleaned_data.get("replaced_weapons") or [])
        other = self.cleaned_data.get("other_replaced") or ""
        return chosen + [w.strip() for w in other.split(",") if w.strip()]


class RepairAndRecuperateForm(forms.Form):
    scar = forms.TypedChoiceField(coerce=int, label="Battle Scar to remove")

    def __init__(self, *args, scars, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scar"].choices = [(s.pk, s.name) for s in scars]


class FreshRecruitsForm(forms.Form):
    models_added = forms.IntegerField(min_value=1, initial=1, label="Models added")
    points = forms.IntegerField(min_value=0, label="New points")
    models_description = forms.CharField(
        max_length=255, required=False, label="Models", help_text="Which models, after adding."
    )
