"""Forms of the organisers' admin. Every save goes through `campaign.services`.

A form checks its input by running the services it will call inside a savepoint
that is then rolled back: a refusal from the rules shows next to its field, and
nothing half-written is left behind. Tracked numbers (FORCE_CORRECTABLE,
UNIT_CORRECTABLE, the house rules) are plain form fields, never model-form fields,
so the admin cannot write them to the row directly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import transaction

from campaign import services
from campaign.models import Campaign, CrusadeForce, CustomContent, Membership, Unit
from campaign.services._common import record
from campaign.services.corrections import FORCE_CORRECTABLE, UNIT_CORRECTABLE
from campaign.services.forces import FORCE_NARRATIVE_FIELDS, HOUSE_RULE_FIELDS, UNIT_FREE_FIELDS

NEW_UNIT_FIELDS = [f.name for f in dataclasses.fields(services.NewUnit) if f.name != "extra"]
CAMPAIGN_DETAIL_FIELDS = ["name", "description"]
FORCE_STORY_FIELDS = [f for f in FORCE_NARRATIVE_FIELDS if f not in ("name", "faction")]


class _RolledBack(Exception):
    """Raised inside a savepoint so the writes of a service that succeeded are undone."""


def rehearse(call: Callable[[], Any]) -> None:
    """Run `call` in a savepoint and roll it back: it refuses exactly as the real call would."""
    try:
        with transaction.atomic():
            call()
            raise _RolledBack
    except _RolledBack:
        pass


class ServiceForm(forms.ModelForm):
    """A model form that saves through services (`apply`), never through `save()`.

    `tracked_fields` are model fields shown as plain form fields, never as model-form
    fields (the admin excludes them), so only a service can change them. The admin sets
    `actor` on the class it builds for each request.
    """

    actor = None
    tracked_fields: tuple[str, ...] | list[str] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tracked = forms.fields_for_model(
            self._meta.model,
            fields=self.tracked_fields,
            formfield_callback=getattr(self._meta, "formfield_callback", None),
        )
        for name, field in tracked.items():
            self.fields[name] = field
            self.initial.setdefault(name, getattr(self.instance, name))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not self._errors:
            try:
                self.check_with_services()
            except ValidationError as error:
                self._show_refusal(error)
        return cleaned

    def check_with_services(self) -> None:
        rehearse(self.apply)

    def apply(self) -> Any:
        """Make the change through the services; returns the saved object."""
        raise NotImplementedError

    def changed(self, names: list[str]) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in names if name in self.changed_data}

    def _show_refusal(self, error: ValidationError) -> None:
        if hasattr(error, "error_dict"):
            for field, errors in error.error_dict.items():
                self.add_error(field if field in self.fields else None, errors)
        else:
            self.add_error(None, error)


def _reason_field(label: str, help_text: str, *, max_length: int = 500) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=max_length,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
    )


CORRECTION_HELP = (
    "Required when you change any tracked number: it is kept in the history "
    "with the numbers before and after."
)


class CampaignAddForm(ServiceForm):
    """A new campaign, created by `services.create_campaign` with the actor as organiser."""

    class Meta:
        model = Campaign
        fields = [*CAMPAIGN_DETAIL_FIELDS, *HOUSE_RULE_FIELDS]

    def house_rules(self) -> dict[str, int]:
        return {name: self.cleaned_data[name] for name in HOUSE_RULE_FIELDS}

    def check_with_services(self) -> None:
        # create_campaign does not check house rules itself; set_house_rules does.
        def create_then_set_rules() -> None:
            campaign = services.create_campaign(
                actor=self.actor,
                name=self.cleaned_data["name"],
                description=self.cleaned_data["description"],
            )
            services.set_house_rules(actor=self.actor, campaign=campaign, **self.house_rules())

        rehearse(create_then_set_rules)

    def apply(self) -> Campaign:
        return services.create_campaign(
            actor=self.actor,
            name=self.cleaned_data["name"],
            description=self.cleaned_data["description"],
            **self.house_rules(),
        )


class CampaignChangeForm(ServiceForm):
    """Name and description saved with a history row; house rules via `set_house_rules`."""

    tracked_fields = HOUSE_RULE_FIELDS
    reason = _reason_field(
        "Reason for the house rule change",
        "Optional; kept in the history. A lower RP cap trims every force's RP to it.",
    )

    class Meta:
        model = Campaign
        fields = CAMPAIGN_DETAIL_FIELDS

    def apply(self) -> Campaign:
        campaign = self.instance
        house_rules = self.changed(HOUSE_RULE_FIELDS)
        if house_rules:
            campaign = services.set_house_rules(
                actor=self.actor,
                campaign=campaign,
                reason=self.cleaned_data.get("reason", "").strip(),
                **house_rules,
            )
        details = self.changed(CAMPAIGN_DETAIL_FIELDS)
        if details:
            Campaign.objects.filter(pk=campaign.pk).update(**details)
            record(
                actor=self.actor,
                action="campaign_edited",
                summary=f"{details.get('name', campaign.name)}: campaign details edited",
                campaign=campaign,
                changed={name: [self.initial.get(name), value] for name, value in details.items()},
            )
        return campaign


class ForceAddForm(ServiceForm):
    """A new Order of Battle via `services.create_force`, with the campaign's starting numbers."""

    class Meta:
        model = CrusadeForce
        fields = ["player", "campaign", "name", "faction", *FORCE_STORY_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "campaign" in self.fields and not getattr(self.actor, "is_superuser", False):
            self.fields["campaign"].required = True

    def apply(self) -> CrusadeForce:
        data = self.cleaned_data
        return services.create_force(
            actor=self.actor,
            player=data["player"],
            campaign=data.get("campaign"),
            name=data["name"],
            faction=data["faction"],
            **{name: data.get(name, "") for name in FORCE_STORY_FIELDS},
        )


class ForceChangeForm(ServiceForm):
    """Tracked numbers via `correct_force` (with a reason), narrative via `update_force_details`."""

    tracked_fields = FORCE_CORRECTABLE
    reason = _reason_field("Reason for correction", CORRECTION_HELP)

    class Meta:
        model = CrusadeForce
        fields = FORCE_NARRATIVE_FIELDS

    def apply(self) -> CrusadeForce:
        force = self.instance
        corrections = self.changed(FORCE_CORRECTABLE)
        if corrections:
            force = services.correct_force(
                actor=self.actor,
                force=force,
                reason=self.cleaned_data.get("reason", ""),
                **corrections,
            )
        details = self.changed(FORCE_NARRATIVE_FIELDS)
        if details:
            force = services.update_force_details(actor=self.actor, force=force, **details)
        return force


def _at_least_one_model(form: forms.BaseForm) -> None:
    # The database refuses a card with no models (unit_has_models); say so in the form.
    if "model_count" in form.fields:
        form.fields["model_count"].validators.append(MinValueValidator(1))


class UnitAddForm(ServiceForm):
    """A new Crusade card through `services.add_unit` (within the Supply Limit, at 0XP)."""

    class Meta:
        model = Unit
        fields = ["force", *NEW_UNIT_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _at_least_one_model(self)

    def apply(self) -> Unit:
        data = self.cleaned_data
        return services.add_unit(
            actor=self.actor,
            force=data["force"],
            unit=services.NewUnit(**{name: data[name] for name in NEW_UNIT_FIELDS if name in data}),
        )


class UnitChangeForm(ServiceForm):
    """Tracked numbers via `correct_unit` (with a reason), free fields via `update_unit_details`."""

    tracked_fields = UNIT_CORRECTABLE
    reason = _reason_field("Reason for correction", CORRECTION_HELP)

    class Meta:
        model = Unit
        fields = UNIT_FREE_FIELDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _at_least_one_model(self)

    def apply(self) -> Unit:
        unit = self.instance
        corrections = self.changed(UNIT_CORRECTABLE)
        if corrections:
            unit = services.correct_unit(
                actor=self.actor,
                unit=unit,
                reason=self.cleaned_data.get("reason", ""),
                **corrections,
            )
        details = self.changed(UNIT_FREE_FIELDS)
        if details:
            unit = services.update_unit_details(actor=self.actor, unit=unit, **details)
        return unit


class UserByUsernameField(forms.ModelChoiceField):
    """Type a username rather than pick from every account on the site."""

    widget = forms.TextInput
    default_error_messages = {"invalid_choice": "There is no active user with that username."}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            queryset=get_user_model().objects.filter(is_active=True),
            to_field_name="username",
            **kwargs,
        )


def _only_organiser_demoted(membership: Membership, new_role: str) -> bool:
    if membership.pk is None or membership.role != Membership.Role.ORGANISER:
        return False
    if new_role == Membership.Role.ORGANISER:
        return False
    others = Membership.objects.filter(
        campaign_id=membership.campaign_id, role=Membership.Role.ORGANISER
    ).exclude(pk=membership.pk)
    return not others.exists()


NEEDS_AN_ORGANISER = "A campaign needs at least one organiser."


class MembershipForm(forms.ModelForm):
    """A member by username; an existing membership keeps its user and may change role."""

    user = UserByUsernameField(label="Username")

    class Meta:
        model = Membership
        fields = ["campaign", "user", "role"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["user"] = self.instance.user.username
            self.fields["user"].disabled = True
        elif "user" in self.fields:
            self.fields["user"].help_text = "The player's username; they join with this role."

    def clean_role(self) -> str:
        role = self.cleaned_data["role"]
        if _only_organiser_demoted(self.instance, role):
            raise ValidationError(NEEDS_AN_ORGANISER)
        return role


class MembershipInlineFormSet(forms.BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        if self.instance.pk is None:
            return  # the organiser who creates the campaign becomes its organiser
        if any(self.errors):
            return
        roles = [
            form.cleaned_data.get("role")
            for form in self.forms
            if (form.instance.pk or form.has_changed()) and not self._should_delete_form(form)
        ]
        if Membership.Role.ORGANISER not in roles:
            raise ValidationError(NEEDS_AN_ORGANISER)


class CustomContentForm(forms.ModelForm):
    """Campaign Battle Traits, Battle Scars and Crusade Relics; a relic needs its category."""

    class Meta:
        model = CustomContent
        fields = ["campaign", "kind", "name", "effect", "relic_category", "trait_table"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        kind = cleaned.get("kind")
        category = cleaned.get("relic_category")
        if kind == CustomContent.Kind.CRUSADE_RELIC and not category:
            self.add_error(
                "relic_category",
                "A Crusade Relic needs its category (Artificer, Antiquity or Legendary).",
            )
        elif kind and kind != CustomContent.Kind.CRUSADE_RELIC and category:
            self.add_error("relic_category", "Only Crusade Relics have a relic category.")
        return cleaned


class ReasonForm(forms.Form):
    """The reason asked for on the intermediate page of an action (void, remove)."""

    reason = forms.CharField(
        label="Reason",
        max_length=255,
        help_text="Kept in the history of every force and card it touches.",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
    )
