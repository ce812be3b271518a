"""An invitation to a campaign, answered on the invited user's dashboard (issue 18, item 3):
Accept and Decline are POST forms that work without JavaScript; only the invited user
can answer; a form sent twice applies once; the invitation link still works as before."""

import pytest
from django.urls import reverse

from campaign import once, services
from campaign.models import CampaignInvitation, HistoryEntry, Membership
from tests.concurrency.live import PageReader, fill
from tests.factories import make_campaign, make_user, reload

from .helpers import texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("warmaster", is_staff=True)


@pytest.fixture
def campaign(organiser):
    return make_campaign(organiser=organiser, name="Vraks")


@pytest.fixture
def alice():
    return make_user("alice")


def invite(campaign, user, *, by, role="player") -> CampaignInvitation:
    return services.invite_to_campaign(actor=by, user=user, campaign=campaign, role=role)


def accept_url(invitation) -> str:
    return reverse("campaign_invitation_accept", args=[invitation.pk])


def decline_url(invitation) -> str:
    return reverse("campaign_invitation_decline", args=[invitation.pk])


def dashboard_form(client, action: str) -> dict[str, list[str]]:
    """What the browser sends from the dashboard's form posting to ``action``."""
    page = client.get(reverse("dashboard")).content.decode()
    data: dict[str, list[str]] = {}
    for name, value in fill(PageReader(page).post_form(action)):
        data.setdefault(name, []).append(value)
    return data


def test_it_shows_the_invitation_on_the_dashboard_with_accept_and_decline(
    client, organiser, campaign, alice
):
    invitation = invite(campaign, alice, by=organiser, role="organiser")
    client.force_login(alice)

    page = client.get(reverse("dashboard")).content.decode()

    assert "Invitations to join a campaign" in page
    assert "warmaster invites you" in page and "to organise <strong>Vraks</strong>" in page
    assert f'action="{accept_url(invitation)}"' in page
    assert f'action="{decline_url(invitation)}"' in page
    assert "Accept: organise Vraks" in page


def test_it_shows_no_answered_invitation(client, organiser, campaign, alice):
    invitation = invite(campaign, alice, by=organiser)
    services.decline_campaign_invitation(actor=alice, invitation=invitation)
    client.force_login(alice)

    page = client.get(reverse("dashboard")).content.decode()

    assert "Invitations to join a campaign" not in page


def test_it_makes_a_member_when_the_invited_user_accepts(client, organiser, campaign, alice):
    invitation = invite(campaign, alice, by=organiser)
    client.force_login(alice)

    response = client.post(accept_url(invitation), dashboard_form(client, accept_url(invitation)))

    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert campaign.memberships.get(user=alice).role == Membership.Role.PLAYER
    joined = HistoryEntry.objects.get(action="member_joined", campaign=campaign, actor=alice)
    assert joined.summary == "alice joined Vraks as Player"


def test_it_makes_an_organiser_with_the_admin_open_when_they_accept(
    client, organiser, campaign, alice
):
    invitation = invite(campaign, alice, by=organiser, role="organiser")
    client.force_login(alice)

    client.post(accept_url(invitation))

    assert campaign.memberships.get(user=alice).role == Membership.Role.ORGANISER
    assert reload(alice).is_staff
    assert client.get(reverse("admin:index")).status_code == 200


def test_it_makes_no_member_when_the_invited_user_declines(client, organiser, campaign, alice):
    invitation = invite(campaign, alice, by=organiser)
    client.force_login(alice)

    response = client.post(decline_url(invitation))

    assert response["Location"] == reverse("dashboard")
    assert not campaign.memberships.filter(user=alice).exists()
    assert reload(invitation).status == CampaignInvitation.Status.DECLINED


@pytest.mark.parametrize("url", [accept_url, decline_url])
def test_it_hides_an_invitation_from_anyone_but_the_invited_user(
    client, organiser, campaign, alice, url
):
    invitation = invite(campaign, alice, by=organiser)
    history = HistoryEntry.objects.count()

    for who in (organiser, make_user("mallory"), make_user("root", is_superuser=True)):
        client.force_login(who)
        assert client.post(url(invitation)).status_code == 404

    assert reload(invitation).is_pending
    assert HistoryEntry.objects.count() == history
    assert not campaign.memberships.filter(user=alice).exists()


@pytest.mark.parametrize("url", [accept_url, decline_url])
def test_it_answers_only_a_post(client, organiser, campaign, alice, url):
    invitation = invite(campaign, alice, by=organiser)
    client.force_login(alice)

    assert client.get(url(invitation)).status_code == 405
    assert reload(invitation).is_pending


def test_it_accepts_once_when_the_same_form_is_sent_twice(client, organiser, campaign, alice):
    invitation = invite(campaign, alice, by=organiser)
    client.force_login(alice)
    data = dashboard_form(client, accept_url(invitation))
    assert once.FIELD in data

    first = client.post(accept_url(invitation), data)
    second = client.post(accept_url(invitation), data, follow=True)

    assert first.status_code == 302
    assert texts(second)[-1] == once.ALREADY_DONE
    assert HistoryEntry.objects.filter(action="member_joined", actor=alice).count() == 1


def test_it_says_so_when_an_invitation_was_withdrawn_before_the_answer(
    client, organiser, campaign, alice
):
    invitation = invite(campaign, alice, by=organiser)
    services.withdraw_campaign_invitation(actor=organiser, invitation=invitation)
    client.force_login(alice)

    response = client.post(accept_url(invitation), follow=True)

    assert "That invitation to Vraks is already withdrawn." in texts(response)
    assert not campaign.memberships.filter(user=alice).exists()


def test_it_still_joins_with_the_invitation_link_at_the_players_own_click(client, campaign, alice):
    """The link an organiser shares is the player's consent: one click on it, as before,
    makes them a member, with no invitation to answer."""
    client.force_login(alice)

    response = client.post(reverse("join_campaign", args=[campaign.invite_code]))

    assert response["Location"] == f"{reverse('force_create')}?campaign={campaign.pk}"
    assert campaign.memberships.get(user=alice).role == Membership.Role.PLAYER
    assert not CampaignInvitation.objects.exists()


def test_it_takes_the_invitation_link_as_the_answer_to_a_waiting_invitation(
    client, organiser, campaign, alice
):
    invitation = invite(campaign, alice, by=organiser)
    client.force_login(alice)

    client.post(reverse("join_campaign", args=[campaign.invite_code]))

    assert reload(invitation).status == CampaignInvitation.Status.ACCEPTED
    assert "Invitations to join a campaign" not in client.get(reverse("dashboard")).content.decode()
