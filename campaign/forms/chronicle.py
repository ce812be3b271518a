"""The log entry form: a title, the story, a picture, and what it tells of (one of the
campaign's battles, territories or phases)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from campaign import pictures
from campaign.bounds import fits_column
from campaign.models import Battle, Campaign, LogEntry, Phase, Territory
from campaign.models.chronicle import STORY_LENGTH

BATTLES_OFFERED = 30
"""The newest battles the form lists (one named in the address, or the entry's own, is
added): a league has thousands, and any of them is accepted."""
LINKS = ("battle", "territory", "phase")


def battle_label(battle: Battle) -> str:
    """A battle's name without a query for its sides."""
    mission = f": {battle.mission}" if battle.mission else ""
    return f"{battle.battle_size}{mission}, {battle.date:%d %b %Y}"


class IdChoiceField(forms.ModelChoiceField):
    """One row chosen by its id: a number no id can be (10**30, text) is refused before
    the database is asked."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not fits_column(self.queryset.model._meta.pk, value, self.queryset.db):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class LogEntryForm(forms.Form):
    title = forms.CharField(label="Title", max_length=LogEntry._meta.get_field("title").max_length)
    text = forms.CharField(
        label="The story",
        max_length=STORY_LENGTH,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text=(
            "Leave a blank line between paragraphs. **Bold**, *italic*, lines starting "
            "with “- ” make a list, lines starting with “> ” a quote."
        ),
    )
    picture = forms.FileField(
        label="Picture",
        required=False,
        help_text="Optional. JPEG, PNG or WebP, up to 10 MB.",
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )
    battle = IdChoiceField(
        queryset=Battle.objects.none(),
        required=False,
        empty_label="No battle",
        label="The battle it tells of",
    )
    territory = IdChoiceField(
        queryset=Territory.objects.none(),
        required=False,
        empty_label="No territory",
        label="The territory it tells of",
    )
    phase = IdChoiceField(
        queryset=Phase.objects.none(),
        required=False,
        empty_label="No phase",
        label="The phase it tells of",
    )

    def __init__(self, *args, campaign: Campaign, shown: dict | None = None, **kwargs) -> None:
        """``shown``: the battle, territory or phase to list whatever else is listed (the
        one named in the address, or the entry's own)."""
        super().__init__(*args, **kwargs)
        self.processed = None
        shown = shown or {}
        battles = Battle.objects.filter(campaign=campaign)
        self.fields["battle"].queryset = battles
        self.fields["battle"].label_from_instance = battle_label
        newest = list(battles.order_by("-date", "-pk")[:BATTLES_OFFERED])
        if shown.get("battle") is not None and shown["battle"] not in newest:
            newest.insert(0, shown["battle"])
        self.fields["battle"].widget.choices = [
            ("", "No battle"),
            *((b.pk, battle_label(b)) for b in newest),
        ]
        self.fields["territory"].queryset = Territory.objects.filter(campaign=campaign).order_by(
            "name"
        )
        self.fields["phase"].queryset = Phase.objects.filter(campaign=campaign).order_by("position")
        self.fields["phase"].label_from_instance = lambda p: f"{p.position}. {p.name}"

    def clean_picture(self):
        upload = self.cleaned_data["picture"]
        if upload:
            self.processed = pictures.process_upload(upload)
        return upload

    def clean_text(self):
        text = self.cleaned_data["text"]
        if not text.strip():
            raise ValidationError("Write the story first.", code="required")
        return text

    def service_values(self, *, changed_only: bool = False) -> dict:
        """What the service takes: the picture as a checked, re-encoded file."""
        names = self.changed_data if changed_only else self.fields
        values = {name: self.cleaned_data[name] for name in names if name != "picture"}
        if self.processed is not None:
            values["picture"] = self.processed[0]
        return values
