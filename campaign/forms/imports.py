"""Forms for bringing an army list in, and a Crusade export back.

The list itself never travels through the player's browser as parsed data: the preview
carries the file's bytes in a signed hidden field and every step reads them again with
`campaign.rosters`. What the player corrects (which units, names, keywords, which
Enhancements) are ordinary form fields, checked here and again by the services.
"""

from __future__ import annotations

import base64
import binascii
import zlib

from django import forms
from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.forms.widgets import CheckboxInput

from campaign import documents, rules, services
from campaign.bounds import number_field
from campaign.models import Campaign, Unit
from campaign.rosters import MAX_BYTES, ROLE_KEYWORDS, RosterError, RosterUnit, parse_roster

from . import add_service_errors
from .forces import ForceCreateForm, OfferedCampaignField, offer_campaigns

SALT = "campaign.forms.imports.roster"
MAX_AGE = 24 * 60 * 60
"""A preview can be confirmed for a day; after that the list is uploaded again."""

SEAL_LEVEL = 1
"""zlib's fastest level: a roster's XML still shrinks several times over."""
EXPIRED = "This preview has expired or was changed. Upload the list again."
PASTED = "The pasted list"
IS_EXPORT = (
    "This is a Crusade export, not an army list: restore it as a new force instead "
    "(the link below)."
)
BODY_KEYWORDS = tuple(k for k in rules.Keyword if k not in rules.RULE_KEYWORDS)
"""The keywords that say which Battle Traits tables fit a unit."""


def seal(raw: bytes, filename: str) -> str:
    """The file as the preview carries it: compressed, signed and dated. The bytes are
    compressed before they are written as text, and quickly: a roster file of a hundred
    kilobytes, written as text first and then compressed hard, took longer than reading it."""
    packed = base64.b64encode(zlib.compress(raw, SEAL_LEVEL)).decode("ascii")
    return signing.dumps({"packed": packed, "name": filename}, salt=SALT)


def unseal(token: str) -> tuple[bytes, str]:
    """The file a `seal` carries (or a token sealed before the bytes were compressed
    first, while its day lasts); ValidationError when it is old or was changed."""
    try:
        payload = signing.loads(token, salt=SALT, max_age=MAX_AGE)
        name = str(payload["name"])
        if "packed" not in payload:
            return base64.b64decode(payload["data"], validate=True), name
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(base64.b64decode(payload["packed"], validate=True), MAX_BYTES + 1)
        return raw, name
    except (signing.BadSignature, binascii.Error, zlib.error, KeyError, TypeError) as error:
        raise ValidationError(EXPIRED) from error


def read_upload(upload, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of an upload: enough to tell that it is too big."""
    upload.seek(0)
    return upload.read(limit + 1)


class RosterSourceForm(forms.Form):
    """Where the list comes from: a file, pasted text, or the preview's signed copy."""

    file = forms.FileField(
        required=False,
        label="Army list file",
        help_text=f"Up to {MAX_BYTES // 1_000_000} MB. The format is recognised from the file.",
    )
    text = forms.CharField(
        required=False,
        label="Or paste the list",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        help_text="e.g. the official app's “Copy to clipboard” text.",
    )
    roster = forms.CharField(required=False, widget=forms.HiddenInput)

    roster_data: bytes
    filename: str

    def __init__(self, *args, oversized: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.oversized = oversized
        """The field of a POST too big to read (`campaign.oversized`), "" if unknown."""

    def clean(self):
        data = super().clean()
        if self.oversized is not None:
            self._refuse_oversized()
            return data
        token, upload, text = data.get("roster"), data.get("file"), data.get("text") or ""
        if token:
            raw, name = unseal(token)
            field = None
        elif upload and text.strip():
            raise ValidationError("Upload a file or paste a list, not both.")
        elif upload:
            raw, name, field = read_upload(upload, MAX_BYTES), upload.name, "file"
        elif text.strip():
            raw, name, field = text.encode("utf-8"), PASTED, "text"
        else:
            raise ValidationError("Choose a file, or paste the list.")
        if documents.looks_like_document(raw):
            self.add_error(field, IS_EXPORT)
            return data
        try:
            self.roster = parse_roster(raw, filename=name)
        except RosterError as error:
            self.add_error(field, error.message)
            return data
        self.roster_data, self.filename = raw, name
        self.from_preview = bool(token)
        return data

    def _refuse_oversized(self) -> None:
        field = self.oversized if self.oversized in ("file", "text") else None
        subject = "The file" if field == "file" else PASTED if field == "text" else "The list"
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // (1024 * 1024)
        self.add_error(
            field,
            f"{subject} is over {limit} MB, so it wasn't read: an army list is far smaller "
            f"(at most {MAX_BYTES // 1_000_000} MB). Paste only the list's text, or upload "
            "the file your army builder exported.",
        )

    @property
    def token(self) -> str:
        return (
            self.data.get("roster") if self.from_preview else seal(self.roster_data, self.filename)
        )

    @property
    def source(self) -> str:
        """Where the list came from, for the history."""
        return f"a {self.roster.format_label} ({self.filename})"


def current_value(form: forms.BaseForm, name: str):
    """What a field holds now: the player's valid input once the form is bound, else its
    initial value (None for a field the form doesn't have, or input that isn't valid)."""
    if name not in form.fields:
        return None
    if not form.is_bound:
        return form.get_initial_for_field(form.fields[name], name)
    form.is_valid()
    return form.cleaned_data.get(name)


class ImportForceForm(ForceCreateForm):
    """The new force's name, faction and campaign, as the list gives them."""

    class Meta(ForceCreateForm.Meta):
        fields = ("name", "faction", "campaign")


KEYWORD_BOX = CheckboxInput()
"""How a keyword's tick is read from the form's data, as a BooleanField's checkbox is."""


class ImportUnitForm(forms.Form):
    """One unit of the list: keep it or not, its name, keywords and Enhancement.

    A keyword is a tick with no error of its own, a dozen per unit: `keyword_on` reads it
    from the data (or the file, before the preview is sent back), without a form field
    each (see `campaign.templatetags.imports` for how it is shown)."""

    keep = forms.BooleanField(required=False, initial=True)
    name = forms.CharField(required=False, max_length=120, label="Name on its Crusade card")
    keep_enhancement = forms.BooleanField(required=False, initial=True)
    enhancement_points = number_field(
        Unit, "enhancement_points", required=False, initial=None, help_text=""
    )

    def __init__(
        self, *args, unit: RosterUnit, name: str, index: int, enhance: bool = True, **kwargs
    ):
        """``enhance``: whether Enhancements start ticked (not once the force has fought)."""
        super().__init__(*args, prefix=f"unit-{index}", **kwargs)
        self.unit, self.index = unit, index
        self.fields["keep"].label = f"Import {name}"
        self.fields["name"].initial = name
        if not unit.enhancement:
            del self.fields["keep_enhancement"], self.fields["enhancement_points"]
            return
        self.fields["keep_enhancement"].label = f"Keep the Enhancement {unit.enhancement}"
        self.fields["keep_enhancement"].initial = enhance
        if unit.enhancement_points is not None:
            del self.fields["enhancement_points"]
        else:
            points = self.fields["enhancement_points"]
            points.label = f"Points of {unit.enhancement}"
            points.help_text = (
                f"The file doesn't say; they are part of its {unit.points} points "
                "(0 if it isn't an Enhancement after all)."
            )
            most = min(unit.points, points.max_value)
            points.validators.append(MaxValueValidator(most))
            points.widget.attrs["max"] = most

    def clean(self):
        data = super().clean()
        if not data.get("keep"):
            self._errors.clear()  # a unit left out needs nothing more
            return data
        if not (data.get("name") or "").strip():
            self.add_error("name", "Give the unit a name.")
        if "enhancement_points" in self.fields and data.get("enhancement_points") is None:
            self.add_error("enhancement_points", "Give the Enhancement's points.")
        return data

    def value(self, name: str):
        return current_value(self, name)

    def keyword_name(self, keyword: rules.Keyword) -> str:
        """The name of ``keyword``'s checkbox in the form's data."""
        return self.add_prefix(keyword.field)

    def keyword_on(self, keyword: rules.Keyword) -> bool:
        """Whether ``keyword`` is ticked: as sent once the preview is bound, else as the
        file gives it."""
        if self.is_bound:
            name = self.keyword_name(keyword)
            return KEYWORD_BOX.value_from_datadict(self.data, self.files, name)
        return keyword.label in self.unit.keywords

    @property
    def kept(self) -> bool:
        return bool(self.value("keep"))

    @property
    def title(self) -> str:
        return self.value("name") or self.fields["name"].initial

    @property
    def keywords_ticked(self) -> list[str]:
        return [k.label for k in rules.Keyword if self.keyword_on(k)]

    @property
    def unknown(self) -> list[str]:
        """The keywords the file didn't give for this unit (so the initial ticks are guesses)."""
        unit = self.unit
        missing = [label for flag, label in ROLE_KEYWORDS.items() if getattr(unit, flag) is None]
        if not unit.keywords - set(ROLE_KEYWORDS.values()):
            missing += [keyword.label for keyword in BODY_KEYWORDS]
        return missing

    def new_unit(self, faction_keywords: str) -> services.NewUnit:
        """The card as the player has it now (the service checks it all again)."""
        return services.roster_card(
            self.unit,
            faction_keywords=faction_keywords,
            name=self.value("name") or "",
            keywords=[k for k in rules.Keyword if self.keyword_on(k)],
            enhancement=bool(self.value("keep_enhancement")),
            enhancement_points=self.value("enhancement_points"),
        )


class ImportPreview:
    """The whole preview: the list, the new force's details and one form per unit.

    Bound to the player's corrections once the preview has been shown; the plan (Supply
    Used, the RP the Enhancements cost, the rules' refusals) follows what is ticked.
    """

    def __init__(self, source: RosterSourceForm, data, *, force=None, campaigns=None):
        self.source, self.roster, self.force = source, source.roster, force
        bound = data if source.from_preview else None
        self.force_form = None
        taken: set[str] = set()
        if force is None:
            initial = {"name": self.roster.name, "faction": self.roster.faction}
            campaigns = list(campaigns or ())
            if len(campaigns) == 1:
                initial["campaign"] = campaigns[0]
            self.force_form = ImportForceForm(bound, initial=initial, campaigns=campaigns)
        else:
            taken = set(force.units.active().values_list("name", flat=True))
        names = services.unique_names([unit.name for unit in self.roster.units], taken)
        enhance = force is None or not force.battle_tally
        self.unit_forms = [
            ImportUnitForm(bound, unit=unit, name=name, index=index, enhance=enhance)
            for index, (unit, name) in enumerate(zip(self.roster.units, names, strict=True))
        ]
        self.errors: list[str] = []
        """Refusals about the whole import (the Supply Limit, RP), from the service."""

    @property
    def campaign(self):
        return self.force.campaign if self.force else current_value(self.force_form, "campaign")

    @property
    def faction(self) -> str:
        if self.force is not None:
            return self.force.faction
        return current_value(self.force_form, "faction") or ""

    @property
    def kept_forms(self) -> list[ImportUnitForm]:
        return [form for form in self.unit_forms if form.kept]

    def new_units(self) -> list[services.NewUnit]:
        faction = self.faction.strip() or self.roster.faction or "-"
        return [form.new_unit(faction) for form in self.kept_forms]

    @property
    def plan(self) -> services.ImportPlan:
        if not hasattr(self, "_plan"):
            campaign = self.campaign
            house = campaign.house_rules if campaign else rules.DEFAULT_HOUSE_RULES
            self._plan = services.plan_import(units=self.new_units(), force=self.force, house=house)
        return self._plan

    @property
    def rows(self) -> list[tuple[ImportUnitForm, list[str]]]:
        """Each unit's form with what the rules refuse about it."""
        refusals = self.plan.unit_refusals
        kept = {form.index: at for at, form in enumerate(self.kept_forms)}
        return [(form, refusals.get(kept.get(form.index), [])) for form in self.unit_forms]

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.roster.warnings

    @property
    def problems(self) -> list[tuple[str, str]]:
        """What stops the import, as (message, the id of the unit it is about or "")."""
        found = dict.fromkeys([*self.errors, *self.plan.refusals.values()], "")
        for form in self.unit_forms:
            if form.is_bound and form.errors:
                found[f"Correct {form.title} below."] = f"import-unit-{form.index}"
        return list(found.items())

    def is_valid(self) -> bool:
        every = [self.force_form, *self.unit_forms] if self.force_form else self.unit_forms
        return all([form.is_valid() for form in every])  # a list: each form shows its errors

    def service_kwargs(self) -> dict:
        kwargs = {"units": self.new_units(), "source": self.source.source}
        if self.force is not None:
            return {**kwargs, "force": self.force}
        return {**kwargs, **self.force_form.cleaned_data}

    def add_service_errors(self, error: ValidationError) -> None:
        """A refusal from `services.import_roster`, next to the unit or field it concerns."""
        kept = self.kept_forms
        errors = error.error_dict if hasattr(error, "error_dict") else {None: error.error_list}
        for key, messages in errors.items():
            where = services.split_unit_key(key) if key else None
            if where is not None and where[0] < len(kept):
                add_service_errors(kept[where[0]], ValidationError({where[1]: messages}))
            elif self.force_form is not None and key in self.force_form.fields:
                self.force_form.add_error(key, messages)
            else:
                self.errors += [m for e in messages for m in e.messages]


class RestoreForm(forms.Form):
    """A Crusade export to restore as a new force, and where it goes."""

    file = forms.FileField(
        label="Crusade export (.json)",
        help_text="The file downloaded from a force's Order of Battle.",
        widget=forms.ClearableFileInput(attrs={"accept": "application/json,.json"}),
    )
    campaign = OfferedCampaignField(queryset=Campaign.objects.none(), required=False)
    name = forms.CharField(
        required=False,
        max_length=120,
        label="New name",
        help_text="Leave empty to keep the name in the export.",
    )

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        offer_campaigns(self.fields["campaign"], campaigns)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        self.document = documents.loads(read_upload(upload, documents.MAX_BYTES))
        return upload
