"""Forms for the unit Requisitions; each knows the service arguments it collects.

`RenownedHeroesForm` is the one form for an Enhancement, whether it is bought from
the card or taken for a promotion.
"""

from __future__ import annotations

from django import forms

from campaign import rules
from campaign.bounds import number_field
from campaign.models import MOST_ENHANCEMENT_POINTS, MOST_MODELS, Unit

MAX_ENHANCEMENT_POINTS = MOST_ENHANCEMENT_POINTS


class UnitRequisitionForm(forms.Form):
    """What a Requisition for one unit needs from the player."""

    @classmethod
    def for_unit(cls, data, unit: Unit, **kwargs) -> UnitRequisitionForm:
        return cls(data, **kwargs)

    def service_kwargs(self) -> dict:
        return dict(self.cleaned_data)


class RenownedHeroesForm(UnitRequisitionForm):
    enhancement = forms.CharField(max_length=120, label="Enhancement")
    enhancement_points = number_field(
        Unit,
        "enhancement_points",
        initial=0,
        label="Enhancement points",
        help_text="Added to the unit's points, within the Supply Limit.",
    )
    weapon = forms.CharField(
        max_length=120,
        required=False,
        label="Weapon it is or replaces",
        help_text="If the Enhancement is a weapon, or replaces one: any relic or Weapon "
        "Modifications on that weapon are lost.",
    )


class LegendaryVeteransForm(UnitRequisitionForm):
    confirm = forms.BooleanField(
        label=f"Yes, make this unit {rules.Requisition.LEGENDARY_VETERANS.label}"
    )

    def service_kwargs(self) -> dict:
        return {}


class RearmAndResupplyForm(UnitRequisitionForm):
    wargear = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), label="New wargear")
    points = number_field(Unit, "points", label="New points")
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

    @classmethod
    def for_unit(cls, data, unit: Unit, **kwargs) -> RearmAndResupplyForm:
        weapons = list(dict.fromkeys(h.weapon for h in unit.active_honours() if h.weapon))
        initial = {"wargear": unit.wargear, "points": unit.points}
        return cls(data, initial=initial, honoured_weapons=weapons, **kwargs)

    def __init__(self, *args, honoured_weapons: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        if honoured_weapons:
            self.fields["replaced_weapons"].choices = [(w, w) for w in honoured_weapons]
        else:
            del self.fields["replaced_weapons"]

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        chosen = list(data.get("replaced_weapons") or [])
        other = [w.strip() for w in (data.get("other_replaced") or "").split(",") if w.strip()]
        return {
            "wargear": data["wargear"],
            "points": data["points"],
            "replaced_weapons": chosen + other,
        }


class RepairAndRecuperateForm(UnitRequisitionForm):
    scar = forms.TypedChoiceField(coerce=int, label="Battle Scar to remove")

    @classmethod
    def for_unit(cls, data, unit: Unit, **kwargs) -> RepairAndRecuperateForm:
        form = cls(data, **kwargs)
        form.fields["scar"].choices = [(s.pk, s.name) for s in unit.active_scars()]
        return form


class FreshRecruitsForm(UnitRequisitionForm):
    models_added = forms.IntegerField(
        min_value=1, max_value=MOST_MODELS, initial=1, label="Models added"
    )
    points = number_field(Unit, "points", label="New points", help_text="With the new models.")
    max_model_count = number_field(
        Unit,
        "max_model_count",
        required=True,
        label="Datasheet maximum models",
        help_text="The card doesn't say yet how many models the datasheet allows.",
    )
    models_description = forms.CharField(
        max_length=255, required=False, label="Models", help_text="Which models, after adding."
    )

    @classmethod
    def for_unit(cls, data, unit: Unit, **kwargs) -> FreshRecruitsForm:
        initial = {"points": unit.points, "models_description": unit.models_description}
        form = cls(data, initial=initial, **kwargs)
        if unit.max_model_count is not None:
            del form.fields["max_model_count"]
        return form


UNIT_REQUISITION_FORMS: dict[rules.Requisition, type[UnitRequisitionForm]] = {
    rules.Requisition.RENOWNED_HEROES: RenownedHeroesForm,
    rules.Requisition.LEGENDARY_VETERANS: LegendaryVeteransForm,
    rules.Requisition.REARM_AND_RESUPPLY: RearmAndResupplyForm,
    rules.Requisition.REPAIR_AND_RECUPERATE: RepairAndRecuperateForm,
    rules.Requisition.FRESH_RECRUITS: FreshRecruitsForm,
}
"""Every Requisition bought for one unit, with the form that collects its input."""
