"""Sign-in, sign-up and campaign invitation forms."""

from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.mail import EmailMultiAlternatives
from django.core.validators import MaxLengthValidator
from django.template import loader

from campaign import selectors


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=False,
        max_length=254,
        help_text="Optional: where to send a link if you forget your password.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class NoEndlessUsername:
    """A sign-in form that refuses a username longer than any account's before asking the
    backends. Django's form only sets the field's ``max_length`` (for the browser), so an
    endless name reached authentication, and django-axes, recording the failed attempt,
    overflowed its 255-character column: a 500 on PostgreSQL."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))


class LoginForm(NoEndlessUsername, AuthenticationForm):
    pass


class AdminLoginForm(NoEndlessUsername, AdminAuthenticationForm):
    pass


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


class HonestPasswordResetForm(PasswordResetForm):
    """Sends the reset link; a mail server's refusal reaches the view instead of only the
    log (Django's own form logs it and carries on, so the page would claim it was sent)."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        EmailMultiAlternatives(subject, body, from_email, [to_email]).send()
