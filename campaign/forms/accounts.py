"""Sign-up and campaign invitation forms."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from campaign.models import Campaign


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label="Invitation code",
        max_length=32,
        help_text="Your organiser shares this code or a link containing it.",
    )

    def clean_code(self) -> Campaign:
        code = self.cleaned_data["code"].strip()
        campaign = Campaign.objects.filter(invite_code=code).first()
        if campaign is None:
            raise forms.ValidationError("No campaign has that code. Check it with your organiser.")
        return campaign
