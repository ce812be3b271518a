"""Members in the organisers' admin (issue 18, item 3): adding someone by username, or
naming a member organiser, sends an invitation; staff status follows the organiser role;
with self-service off only a superuser names organisers or adds campaigns."""

from smtplib import SMTPException

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from campaign import services
from campaign.models import Campaign, CampaignInvitation, HistoryEntry, Membership
from tests.admin.helpers import post_change, saved
from tests.factories import make_campaign, make_user, reload

pytestmark = pytest.mark.django_db

LOCMEM = "django.core.mail.backends.locmem.EmailBackend"
SELF_SERVICE_OFF = override_settings(CRUSADE_SELF_SERVICE_CAMPAIGNS=False)
NEW_CAMPAIGN = {
    "name": "Vigilus Ablaze",
    "description": "",
    "starting_supply_limit": 1000,
    "starting_rp": 5,
    "rp_cap": 10,
    "supply_limit_increase": 200,
}


class Refusing:
    """A mail backend whose server refuses every message."""

    def __init__(self, **kwargs):
        pass

    def send_messages(self, messages):
        raise SMTPException("refused")


def campaign_url(campaign) -> str:
    return reverse("admin:campaign_campaign_change", args=[campaign.pk])


def membership_url(membership) -> str:
    return reverse("admin:campaign_membership_change", args=[membership.pk])


def add_by_username(client, campaign, username: str, role: str = "player"):
    """The campaign page's empty member row, filled in (row 1: the organiser is row 0)."""
    return post_change(
        client,
        campaign_url(campaign),
        **{"memberships-1-user": username, "memberships-1-role": role},
    )


def organise(campaign, user, *, by) -> Membership:
    invitation = services.invite_to_campaign(
        actor=by, user=user, campaign=campaign, role="organiser"
    )
    return services.accept_campaign_invitation(actor=user, invitation=invitation)


@pytest.mark.parametrize("role", ["player", "organiser"])
def test_it_invites_a_user_added_by_username_and_makes_no_member(
    organiser_client, organiser, campaign, role
):
    alice = make_user("alice")

    response = add_by_username(organiser_client, campaign, "alice", role)

    saved(response, "member_invited", not_also="member_joined")
    invitation = CampaignInvitation.objects.get()
    assert (invitation.user, invitation.role, invitation.status) == (alice, role, "pending")
    assert invitation.invited_by == organiser
    assert not campaign.memberships.filter(user=alice).exists()
    assert not reload(alice).is_staff


def test_it_invites_a_member_named_organiser_and_changes_no_role(organiser_client, campaign):
    alice = make_user("alice")
    member = services.join_campaign(actor=alice, user=alice, campaign=campaign)

    response = post_change(organiser_client, membership_url(member), role="organiser")

    saved(response, "member_invited", changes={"role": ["player", "organiser"]})
    assert reload(member).role == "player"
    assert not reload(alice).is_staff
    assert CampaignInvitation.objects.get().role == "organiser"


def test_it_makes_staff_of_an_invited_organiser_once_they_accept(organiser_client, campaign):
    alice = make_user("alice")
    add_by_username(organiser_client, campaign, "alice", "organiser")

    services.accept_campaign_invitation(actor=alice, invitation=CampaignInvitation.objects.get())

    assert reload(alice).is_staff
    assert campaign.memberships.get(user=alice).role == "organiser"


def test_it_takes_staff_away_when_an_organiser_is_made_a_player(
    organiser_client, organiser, campaign
):
    alice = make_user("alice")
    member = organise(campaign, alice, by=organiser)

    response = post_change(organiser_client, membership_url(member), role="player")

    saved(response, "member_role_changed", changes={"is_staff": [True, False]})
    assert not reload(alice).is_staff


def test_it_keeps_staff_for_a_demoted_organiser_of_another_campaign(
    organiser_client, organiser, campaign
):
    alice = make_user("alice")
    member = organise(campaign, alice, by=organiser)
    organise(make_campaign(organiser=organiser, name="Armageddon"), alice, by=organiser)

    response = post_change(organiser_client, membership_url(member), role="player")

    assert response.status_code == 302
    assert reload(alice).is_staff


def test_it_closes_the_admin_to_a_demoted_organiser(client, organiser, campaign):
    alice = make_user("alice")
    member = organise(campaign, alice, by=organiser)
    services.change_member_role(actor=organiser, membership=member, role="player")
    client.force_login(alice)

    index = client.get(reverse("admin:index"))
    add = client.post(reverse("admin:campaign_campaign_add"), NEW_CAMPAIGN)

    assert index.status_code == 302 and index["Location"].startswith(reverse("admin:login"))
    assert add.status_code == 302 and add["Location"].startswith(reverse("admin:login"))
    assert not campaign.__class__.objects.filter(name="Vigilus Ablaze").exists()


def test_it_lets_a_campaign_be_handed_to_a_new_organiser_once_they_accept(
    organiser_client, organiser, campaign
):
    alice = make_user("alice")
    services.join_campaign(actor=alice, user=alice, campaign=campaign)
    post_change(organiser_client, campaign_url(campaign), **{"memberships-1-role": "organiser"})
    services.accept_campaign_invitation(actor=alice, invitation=CampaignInvitation.objects.get())

    response = post_change(
        organiser_client,
        membership_url(campaign.memberships.get(user=organiser)),
        role="player",
    )

    assert response.status_code == 302
    roles = dict(campaign.memberships.values_list("user__username", "role"))
    assert roles == {"warmaster": "player", "alice": "organiser"}
    assert not reload(organiser).is_staff and reload(alice).is_staff


@SELF_SERVICE_OFF
def test_it_refuses_an_organisers_promotion_when_campaigns_are_not_self_service(
    organiser_client, campaign
):
    alice = make_user("alice")
    member = services.join_campaign(actor=alice, user=alice, campaign=campaign)

    promoted = post_change(organiser_client, membership_url(member), role="organiser")
    make_user("bruno")
    added = add_by_username(organiser_client, campaign, "bruno", "organiser")

    assert promoted.status_code == 200
    assert "only a superuser can make someone an organiser" in promoted.content.decode()
    assert added.status_code == 200
    assert "only a superuser can make someone an organiser" in added.content.decode()
    assert not CampaignInvitation.objects.exists()
    assert reload(member).role == "player" and not reload(alice).is_staff


@SELF_SERVICE_OFF
def test_it_lets_a_superuser_name_an_organiser_when_campaigns_are_not_self_service(
    client, campaign
):
    alice = make_user("alice")
    member = services.join_campaign(actor=alice, user=alice, campaign=campaign)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))

    response = post_change(client, membership_url(member), role="organiser")
    services.accept_campaign_invitation(actor=alice, invitation=CampaignInvitation.objects.get())

    assert response.status_code == 302
    assert reload(member).role == "organiser" and reload(alice).is_staff


@SELF_SERVICE_OFF
def test_it_lets_only_a_superuser_add_campaigns_when_campaigns_are_not_self_service(
    organiser_client, client, campaign
):
    url = reverse("admin:campaign_campaign_add")

    refused = organiser_client.post(url, NEW_CAMPAIGN)
    index = organiser_client.get(reverse("admin:index")).content.decode()

    assert refused.status_code == 403
    assert url not in index
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    assert client.post(url, NEW_CAMPAIGN).status_code == 302


def test_it_lets_an_organiser_add_campaigns_while_campaigns_are_self_service(organiser_client):
    response = organiser_client.post(reverse("admin:campaign_campaign_add"), NEW_CAMPAIGN)

    assert response.status_code == 302


@override_settings(EMAIL_ENABLED=True, EMAIL_BACKEND=LOCMEM)
def test_it_emails_the_invited_user_a_link_to_their_dashboard(
    organiser_client, campaign, django_capture_on_commit_callbacks
):
    make_user("alice", email="alice@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        add_by_username(organiser_client, campaign, "alice")

    (message,) = mail.outbox
    assert message.to == ["alice@example.org"]
    assert "Pariah Nexus" in message.subject
    assert "http://testserver/dashboard/" in message.body
    assert "warmaster invites you to join Pariah Nexus as a player" in message.body


@override_settings(EMAIL_ENABLED=False, EMAIL_BACKEND=LOCMEM)
def test_it_sends_no_email_without_email_settings(
    organiser_client, campaign, django_capture_on_commit_callbacks
):
    make_user("alice", email="alice@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        add_by_username(organiser_client, campaign, "alice")

    assert mail.outbox == []
    assert CampaignInvitation.objects.filter(user__username="alice").exists()


@override_settings(EMAIL_ENABLED=True, EMAIL_BACKEND="tests.admin.test_members.Refusing")
def test_it_keeps_the_invitation_when_the_mail_server_refuses(
    organiser_client, campaign, django_capture_on_commit_callbacks
):
    make_user("alice", email="alice@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        response = add_by_username(organiser_client, campaign, "alice")

    assert response.status_code == 302
    assert CampaignInvitation.objects.get().is_pending


def test_it_lists_the_organisers_invitations_and_withdraws_one(
    organiser_client, organiser, campaign, rival_campaign
):
    alice, bruno = make_user("alice"), make_user("bruno")
    ours = services.invite_to_campaign(actor=organiser, user=alice, campaign=campaign)
    services.invite_to_campaign(
        actor=rival_campaign.memberships.get().user, user=bruno, campaign=rival_campaign
    )
    url = reverse("admin:campaign_campaigninvitation_changelist")

    listed = organiser_client.get(url).context["cl"].result_list
    response = organiser_client.post(url, {"action": "withdraw", "_selected_action": [ours.pk]})

    assert list(listed) == [ours]
    assert response.status_code == 302
    assert reload(ours).status == "withdrawn"
    assert HistoryEntry.objects.filter(action="member_invitation_withdrawn").count() == 1


def test_it_shows_the_campaigns_invitations_on_its_page(organiser_client, organiser, campaign):
    services.invite_to_campaign(actor=organiser, user=make_user("alice"), campaign=campaign)

    page = organiser_client.get(campaign_url(campaign)).content.decode()

    assert "alice" in page and "Waiting for an answer" in page


def test_it_invites_from_the_invitations_add_page(organiser_client, campaign, rival_campaign):
    alice = make_user("alice")
    url = reverse("admin:campaign_campaigninvitation_add")

    elsewhere = organiser_client.post(
        url, {"campaign": rival_campaign.pk, "user": "alice", "role": "player"}
    )
    response = organiser_client.post(
        url, {"campaign": campaign.pk, "user": "alice", "role": "player"}
    )

    assert elsewhere.status_code == 200  # not one of the organiser's campaigns
    assert response.status_code == 302
    assert CampaignInvitation.objects.get().campaign == campaign
    assert not campaign.memberships.filter(user=alice).exists()


def test_it_shows_an_invitation_read_only_and_the_invite_form(
    organiser_client, organiser, campaign
):
    invitation = services.invite_to_campaign(
        actor=organiser, user=make_user("alice"), campaign=campaign
    )

    shown = organiser_client.get(
        reverse("admin:campaign_campaigninvitation_change", args=[invitation.pk])
    )
    form = organiser_client.get(reverse("admin:campaign_campaigninvitation_add"))

    assert shown.status_code == 200 and "Waiting for an answer" in shown.content.decode()
    assert not shown.context["has_change_permission"]
    assert form.status_code == 200
    assert list(form.context["adminform"].form.fields["campaign"].queryset) == [campaign]


def test_it_saves_an_organisers_row_unchanged_without_inviting_them_again(
    organiser_client, organiser, campaign
):
    response = post_change(
        organiser_client, membership_url(campaign.memberships.get(user=organiser))
    )

    assert response.status_code == 302
    assert not CampaignInvitation.objects.exists()


@override_settings(
    EMAIL_ENABLED=True,
    EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
    EMAIL_HOST="mail.invalid",
    EMAIL_TIMEOUT=3,
)
def test_it_waits_no_longer_than_email_timeout_for_the_mail_server(
    organiser_client, campaign, django_capture_on_commit_callbacks, monkeypatch
):
    """A mail server that does not answer: the connection gives up after EMAIL_TIMEOUT
    seconds, and the invitation stands."""
    timeouts = []

    def unreachable(host, port, *args, timeout=None, **kwargs):
        timeouts.append(timeout)
        raise TimeoutError("no answer")

    monkeypatch.setattr("smtplib.SMTP", unreachable)
    make_user("alice", email="alice@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        response = add_by_username(organiser_client, campaign, "alice")

    assert response.status_code == 302
    assert timeouts == [3]
    assert CampaignInvitation.objects.get().is_pending


@override_settings(EMAIL_ENABLED=True, EMAIL_BACKEND=LOCMEM)
def test_it_emails_an_invitation_to_a_campaign_whose_name_has_a_line_break(
    organiser, organiser_client, campaign, django_capture_on_commit_callbacks
):
    """A subject holds one line: a name typed with a line break still gets its email."""
    Campaign.objects.filter(pk=campaign.pk).update(name="Pariah\nNexus")
    make_user("alice", email="alice@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        response = add_by_username(organiser_client, campaign, "alice")

    assert response.status_code < 500
    (message,) = mail.outbox
    assert message.subject == "Invitation to Pariah Nexus"
