"""Forms for forces, Crusade cards and pictures.

The field lists come from the models (`CrusadeForce.NARRATIVE_FIELDS`,
`CARD_FIELDS`), and so do labels and help texts. These forms only check input:
they are given initial values rather than an instance and never save, because every
change goes through a service, whose refusals `add_service_errors` puts next to the
field they concern.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Model

from campaign import pictures, rules
from campaign.bounds import number_field
from campaign.models import CARD_FIELDS, Campaign, CrusadeForce, Unit
from campaign.selectors.versions import digest

from . import short_textareas


class ForceDetailsForm(forms.ModelForm):
    class Meta:
        model = CrusadeForce
        fields = CrusadeForce.NARRATIVE_FIELDS
        widgets = short_textareas(CrusadeForce, fields)
        help_texts = {"faction": "e.g. Adeptus Astartes."}


class OfferedCampaignField(forms.ModelChoiceField):
    """One of the campaigns the view read for the form (`access.offered_campaigns`): its
    options are written from that list and a choice is checked against it, so showing
    and checking the form ask the database nothing (`offer_campaigns`)."""

    offered: dict[str, Campaign] = {}

    def to_python(self, value):
        if value in self.empty_values:
            return None
        found = self.offered.get(str(value.pk if isinstance(value, Model) else value))
        if found is None:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return found


class ForceCreateForm(ForceDetailsForm):
    class Meta(ForceDetailsForm.Meta):
        fields = ("name", "faction", "campaign", *CrusadeForce.STORY_FIELDS)
        field_classes = {"campaign": OfferedCampaignField}

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        offer_campaigns(self.fields["campaign"], campaigns)


class ForceCampaignForm(forms.Form):
    """The campaign a force raised outside any campaign joins."""

    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.none(),
        label="Campaign",
        empty_label="Choose a campaign…",
        help_text="One you are a member of. Its house rules apply to the force from now on.",
    )

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = campaigns


def offer_campaigns(field: OfferedCampaignField, campaigns: list[Campaign]) -> None:
    """A force's campaign: one the player is a member of (``campaigns``), or none yet."""
    field.queryset = Campaign.objects.none()  # never asked: the options are the list
    field.offered = {str(campaign.pk): campaign for campaign in campaigns}
    field.empty_label = "No campaign (yet)"
    field.help_text = "A campaign you are a member of."
    field.widget.choices = [("", field.empty_label), *((c.pk, str(c)) for c in campaigns)]


class PictureForm(forms.Form):
    """One picture upload; a FileField (not ImageField) so our own messages are shown.

    A picture is optional for a card or a force, so the field is not marked required; the
    upload button without a file still says what is missing.
    """

    picture = forms.FileField(
        label="Picture",
        required=False,
        help_text="Optional. JPEG, PNG or WebP, up to 10 MB.",
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )

    @property
    def fields_key(self) -> str:
        """What the form's fields show before anything is sent (its class, its fields and
        their labels and help): the upload forms keep that part of the page in the cache
        under it, and write it afresh once the form is bound (its errors, its file)."""
        fields = [(name, str(f.label), str(f.help_text)) for name, f in self.fields.items()]
        return digest(type(self).__module__, type(self).__qualname__, fields)

    def clean_picture(self):
        upload = self.cleaned_data["picture"]
        if not upload:
            raise forms.ValidationError("Choose a picture to upload first.", code="required")
        self.processed = pictures.process_upload(upload)
        return upload


class BannerForm(PictureForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["picture"].label = "Banner picture"


class UnitCreateForm(forms.ModelForm):
    """A new Crusade card: exactly the fields of `CARD_FIELDS.new`, as `NewUnit` takes them."""

    class Meta:
        model = Unit
        fields = CARD_FIELDS.new
        widgets = short_textareas(Unit, fields)

    def __init__(self, *args, supply_check_url: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["points"].help_text = "The datasheet's points, without any Enhancement."
        self.fields["enhancement"].help_text = (
            "Only while your force is first being raised: it is bought with "
            f"{rules.Requisition.RENOWNED_HEROES.label}, and its points are added to the unit's."
        )
        if supply_check_url:
            self.fields["points"].widget.attrs.update(
                {
                    "hx-get": supply_check_url,
                    "hx-trigger": "input changed delay:300ms",
                    "hx-target": "#supply-status",
                    "hx-swap": "outerHTML",
                    "hx-include": "#id_counts_towards_supply",
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
        """The arguments of `services.NewUnit`."""
        return {name: self.cleaned_data[name] for name in CARD_FIELDS.new}

    @property
    def keyword_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in CARD_FIELDS.keywords]


class UnitEditForm(forms.ModelForm):
    """What the player may still change on a card (`CARD_FIELDS.player`)."""

    class Meta:
        model = Unit
        fields = CARD_FIELDS.player
        widgets = short_textareas(Unit, fields)


class RemoveUnitForm(forms.Form):
    reason = forms.CharField(
        max_length=255,
        required=False,
        label="Why is it leaving?",
        help_text="Optional, e.g. 'Retired to make room'.",
    )


class SupplyCheckForm(forms.Form):
    """The live supply check's query: the points typed so far, and whether they count."""

    points = number_field(Unit, "points")
    counts_towards_supply = forms.BooleanField(required=False)

    def status_args(self) -> tuple[int | None, bool]:
        if not self.is_valid():
            return None, True
        return self.cleaned_data["points"], self.cleaned_data["counts_towards_supply"]
