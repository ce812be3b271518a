"""Sign-up and campaign invitation forms."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from campaign import selectors


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label="Invitation code",
        max_length=32,
        help_text="Your organiser shares this code or a link containing it.",
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_code(self) -> selectors.Invitation:
        invitation = selectors.invitation(self.cleaned_data["code"], self.user)
        if invitation is None:
            raise forms.ValidationError("No campaign has that code. Check it with your organiser.")
        return invitation
