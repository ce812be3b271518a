"""A campaign's members and its invitations: adding someone by username invites them (as
a player or an organiser), and so does naming a member organiser; they join, or
organise, only once they accept on their dashboard. An organiser is made a player again
here directly. Invitations nobody has answered can be withdrawn."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from campaign import notifications, services
from campaign.models import Campaign, CampaignInvitation, Membership

from .base import RefusalForm, ServiceAdmin, ServiceInline, apply_to_each
from .scope import OrganiserScope, ReadOnlyInline, ScopedInline, campaign_filter, can_organise

ORGANISER = Membership.Role.ORGANISER
ACCEPT = "nothing changes until they accept the invitation on their dashboard."


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


def send_invitation(request: HttpRequest | None, invitation: CampaignInvitation) -> None:
    """Queue the email to the invited user once the save is committed (a rolled-back save
    queues nothing); the worker sends it, and a mail server's failure never undoes the
    invitation."""
    if request is not None:
        notifications.campaign_invitation_sent(request, invitation)


class MembershipForm(RefusalForm, forms.ModelForm):
    """A new row invites a user by username; an existing member may be invited to organise
    or made a player again."""

    user = UserByUsernameField(label="Username")
    request: HttpRequest | None = None

    class Meta:
        model = Membership
        fields = ["campaign", "user", "role"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["user"] = self.instance.user.username
            self.fields["user"].disabled = True
            if "role" in self.fields:
                self.fields[
                    "role"
                ].help_text = "Organiser: they are invited to organise, and do once they accept."
        elif "user" in self.fields:
            self.fields[
                "user"
            ].help_text = (
                "The player's username: they are invited with this role and join once they accept."
            )

    def apply(self, campaign: Campaign) -> Membership | CampaignInvitation:
        """Invite (a new member, or a member to organise), or make an organiser a player."""
        role = self.cleaned_data["role"]
        promoted = role == ORGANISER and "role" in self.changed_data
        if self.instance.pk is None or promoted:
            user = self.instance.user if self.instance.pk else self.cleaned_data["user"]
            invitation = services.invite_to_campaign(
                actor=self.actor, user=user, campaign=campaign, role=role
            )
            send_invitation(self.request, invitation)
            return invitation
        return services.change_member_role(actor=self.actor, membership=self.instance, role=role)


class MembershipInline(ServiceInline, ScopedInline, admin.TabularInline):
    model = Membership
    form = MembershipForm
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    extra = 1
    can_delete = False
    verbose_name = "member"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("user")

    def get_formset(self, request: HttpRequest, obj: Model | None = None, **kwargs: Any):
        formset = super().get_formset(request, obj, **kwargs)
        formset.form.request = request
        return formset


class InvitationInline(ReadOnlyInline):
    """The campaign's invitations: who was asked, with which role, and their answer."""

    model = CampaignInvitation
    fields = ["user", "role", "status", "invited_by", "created_at", "answered_at"]
    readonly_fields = fields
    verbose_name_plural = "invitations (withdraw one from the list of invitations)"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("user", "invited_by")


@admin.register(Membership)
class MembershipAdmin(OrganiserScope, ServiceAdmin):
    """Members, and their roles. A new member is invited (Invitations to a campaign)."""

    form = MembershipForm
    list_display = ["user", "campaign", "role", "joined_at"]
    list_select_related = ["user", "campaign"]
    list_filter = ["role", campaign_filter(Membership)]
    search_fields = ["user__username"]
    readonly_fields = ["campaign", "joined_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_form(self, request: HttpRequest, obj: Model | None = None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.request = request
        return form

    def save_model(self, request: HttpRequest, obj: Membership, form, change: bool) -> None:
        saved = form.apply(obj.campaign)
        if isinstance(saved, CampaignInvitation):
            obj.role = Membership.objects.get(pk=obj.pk).role
            messages.info(request, f"{obj.user.username} is invited to organise: {ACCEPT}")
        else:
            obj.__dict__.update(saved.__dict__)


class InvitationForm(RefusalForm, forms.ModelForm):
    """Invite a user by username to one of the organiser's campaigns."""

    user = UserByUsernameField(
        label="Username",
        help_text="They join with this role once they accept, on their dashboard.",
    )
    request: HttpRequest | None = None

    class Meta:
        model = CampaignInvitation
        fields = ["campaign", "user", "role"]

    def apply(self) -> CampaignInvitation:
        invitation = services.invite_to_campaign(
            actor=self.actor,
            user=self.cleaned_data["user"],
            campaign=self.cleaned_data["campaign"],
            role=self.cleaned_data["role"],
        )
        send_invitation(self.request, invitation)
        return invitation


@admin.register(CampaignInvitation)
class CampaignInvitationAdmin(OrganiserScope, ServiceAdmin):
    form = InvitationForm
    list_display = ["user", "campaign", "role", "status", "invited_by", "created_at"]
    list_select_related = ["user", "campaign", "invited_by"]
    list_filter = ["status", "role", campaign_filter(CampaignInvitation)]
    search_fields = ["user__username"]
    actions = ["withdraw"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_withdraw_permission(self, request: HttpRequest) -> bool:
        return can_organise(request)

    def get_readonly_fields(self, request: HttpRequest, obj: CampaignInvitation | None = None):
        if obj is None:
            return []
        return ["campaign", "user", "role", "status", "invited_by", "created_at", "answered_at"]

    def get_fields(self, request: HttpRequest, obj: CampaignInvitation | None = None):
        return self.get_readonly_fields(request, obj) or ["campaign", "user", "role"]

    def get_form(self, request: HttpRequest, obj: Model | None = None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.request = request
        return form

    def save_model(self, request: HttpRequest, obj: CampaignInvitation, form, change) -> None:
        obj.__dict__.update(form.apply().__dict__)

    @admin.action(description="Withdraw the chosen invitations", permissions=["withdraw"])
    def withdraw(self, request: HttpRequest, queryset: QuerySet) -> None:
        apply_to_each(
            self,
            request,
            queryset.select_related("campaign", "user"),
            lambda invitation: services.withdraw_campaign_invitation(
                actor=request.user, invitation=invitation
            ),
            done="Withdrew {count} invitation(s).",
        )
