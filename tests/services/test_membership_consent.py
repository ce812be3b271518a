"""Membership by consent, and staff status that follows the organiser role (issue 18, item 3).

Nobody becomes a member, a player or an organiser without their own click: an organiser
invites, the invited user accepts or declines. A user is staff exactly while they organise
a campaign, or are a superuser.
"""

import pytest
from django.test import override_settings

from campaign import services
from campaign.models import CampaignInvitation, HistoryEntry, Membership
from campaign.services.staff import should_be_staff
from tests.factories import make_campaign, make_user, reload
from tests.services.checks import latest_history, refused

pytestmark = pytest.mark.django_db

SELF_SERVICE_OFF = override_settings(CRUSADE_SELF_SERVICE_CAMPAIGNS=False)


@pytest.fixture
def warmaster():
    return make_user("warmaster", is_staff=True)


@pytest.fixture
def campaign(warmaster):
    return make_campaign(organiser=warmaster, name="Vraks")


def invite(campaign, user, *, by, role="player") -> CampaignInvitation:
    return services.invite_to_campaign(actor=by, user=user, campaign=campaign, role=role)


def organise(campaign, user, *, by) -> Membership:
    invitation = invite(campaign, user, by=by, role="organiser")
    return services.accept_campaign_invitation(actor=user, invitation=invitation)


def join(campaign, user) -> Membership:
    return services.join_campaign(actor=user, user=user, campaign=campaign)


def test_it_makes_no_member_when_an_organiser_invites_someone(warmaster, campaign):
    alice = make_user("alice")

    invitation = invite(campaign, alice, by=warmaster)

    assert invitation.status == CampaignInvitation.Status.PENDING
    assert (invitation.role, invitation.invited_by) == ("player", warmaster)
    assert not campaign.memberships.filter(user=alice).exists()
    entry = latest_history("member_invited", campaign=campaign)
    assert (entry.actor, entry.changes) == (warmaster, {"role": [None, "player"]})


@pytest.mark.parametrize("role", ["player", "organiser"])
def test_it_makes_a_member_with_the_invited_role_when_they_accept(warmaster, campaign, role):
    alice = make_user("alice")
    invitation = invite(campaign, alice, by=warmaster, role=role)

    membership = services.accept_campaign_invitation(actor=alice, invitation=invitation)

    assert (membership.user, membership.role) == (alice, role)
    assert reload(invitation).status == CampaignInvitation.Status.ACCEPTED
    assert reload(invitation).answered_at is not None
    joined = latest_history("member_joined", campaign=campaign)
    assert joined.actor == alice
    assert reload(alice).is_staff == (role == "organiser")


def test_it_makes_no_member_when_they_decline(warmaster, campaign):
    alice = make_user("alice")
    invitation = invite(campaign, alice, by=warmaster, role="organiser")

    services.decline_campaign_invitation(actor=alice, invitation=invitation)

    assert reload(invitation).status == CampaignInvitation.Status.DECLINED
    assert not campaign.memberships.filter(user=alice).exists()
    assert not reload(alice).is_staff
    assert latest_history("member_invitation_declined", campaign=campaign).actor == alice


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_it_lets_only_the_invited_user_answer(warmaster, campaign, answer):
    alice, mallory = make_user("alice"), make_user("mallory")
    invitation = invite(campaign, alice, by=warmaster)
    service = getattr(services, f"{answer}_campaign_invitation")

    for who in (mallory, warmaster):
        with refused("Only the invited player can answer this invitation."):
            service(actor=who, invitation=invitation)

    assert reload(invitation).is_pending
    assert not campaign.memberships.filter(user=alice).exists()


def test_it_refuses_an_answer_to_an_invitation_already_answered_or_withdrawn(warmaster, campaign):
    alice, bruno = make_user("alice"), make_user("bruno")
    accepted = invite(campaign, alice, by=warmaster)
    services.accept_campaign_invitation(actor=alice, invitation=accepted)
    withdrawn = invite(campaign, bruno, by=warmaster)
    services.withdraw_campaign_invitation(actor=warmaster, invitation=withdrawn)

    with refused("That invitation to Vraks is already accepted."):
        services.decline_campaign_invitation(actor=alice, invitation=accepted)
    with refused("That invitation to Vraks is already withdrawn."):
        services.accept_campaign_invitation(actor=bruno, invitation=withdrawn)
    assert not campaign.memberships.filter(user=bruno).exists()


def test_it_refuses_to_add_someone_else_to_a_campaign_directly(warmaster, campaign):
    alice = make_user("alice")

    with refused(services.campaigns.OWN_CLICK):
        services.join_campaign(actor=warmaster, user=alice, campaign=campaign)
    with refused(services.campaigns.ORGANISERS_BY_INVITATION):
        services.join_campaign(actor=alice, user=alice, campaign=campaign, role="organiser")

    assert not campaign.memberships.filter(user=alice).exists()


def test_it_invites_a_member_to_organise_rather_than_promoting_them(warmaster, campaign):
    alice = join(campaign, make_user("alice"))

    with refused(services.campaigns.ORGANISERS_BY_INVITATION):
        services.change_member_role(actor=warmaster, membership=alice, role="organiser")
    invitation = invite(campaign, alice.user, by=warmaster, role="organiser")

    assert reload(alice).role == "player" and not reload(alice.user).is_staff
    services.accept_campaign_invitation(actor=alice.user, invitation=invitation)
    assert reload(alice).role == "organiser" and reload(alice.user).is_staff
    promoted = latest_history("member_role_changed", campaign=campaign, changes__has_key="role")
    assert (promoted.actor, promoted.changes) == (alice.user, {"role": ["player", "organiser"]})


def test_it_refuses_a_second_open_invitation_or_one_for_a_member(warmaster, campaign):
    alice, bruno = make_user("alice"), join(campaign, make_user("bruno")).user
    invite(campaign, alice, by=warmaster)

    with refused(containing=["alice already has an invitation to Vraks waiting"]):
        invite(campaign, alice, by=warmaster, role="organiser")
    with refused("bruno is already a member of Vraks."):
        invite(campaign, bruno, by=warmaster)
    with refused("warmaster is already an organiser of Vraks."):
        invite(campaign, warmaster, by=warmaster, role="organiser")


def test_it_takes_staff_away_from_a_demoted_organiser_in_the_same_change(warmaster, campaign):
    alice = make_user("alice")
    membership = organise(campaign, alice, by=warmaster)
    assert reload(alice).is_staff

    services.change_member_role(actor=warmaster, membership=membership, role="player")

    assert not reload(alice).is_staff
    closed = latest_history("member_role_changed", campaign=campaign, changes__has_key="is_staff")
    assert closed.changes == {"is_staff": [True, False]}
    assert closed.actor == warmaster


def test_it_keeps_staff_for_a_demoted_organiser_who_organises_another_campaign(warmaster, campaign):
    alice = make_user("alice")
    membership = organise(campaign, alice, by=warmaster)
    organise(make_campaign(organiser=warmaster, name="Armageddon"), alice, by=warmaster)

    services.change_member_role(actor=warmaster, membership=membership, role="player")

    assert reload(alice).is_staff


def test_it_keeps_staff_for_a_superuser_who_steps_down(warmaster, campaign):
    root = make_user("root", is_staff=True, is_superuser=True)
    membership = organise(campaign, root, by=warmaster)

    services.change_member_role(actor=warmaster, membership=membership, role="player")

    assert reload(root).is_staff
    assert should_be_staff(root)


def test_it_decides_staff_by_the_organiser_role_alone(warmaster, campaign):
    alice = make_user("alice", is_staff=True)
    join(campaign, alice)

    assert should_be_staff(warmaster)
    assert not should_be_staff(alice)


@SELF_SERVICE_OFF
def test_it_lets_only_a_superuser_name_an_organiser_when_campaigns_are_not_self_service(
    warmaster, campaign
):
    alice, bruno = make_user("alice"), make_user("bruno")
    root = make_user("root", is_staff=True, is_superuser=True)

    with refused(services.staff.ONLY_A_SUPERUSER_NAMES_ORGANISERS):
        invite(campaign, alice, by=warmaster, role="organiser")
    invite(campaign, bruno, by=warmaster)  # a player: still the organiser's to invite
    organise(campaign, alice, by=root)

    assert reload(alice).is_staff
    assert campaign.memberships.get(user=alice).role == "organiser"


def test_it_refuses_an_invitation_to_organise_once_its_sender_may_no_longer_name_one(
    warmaster, campaign
):
    alice = make_user("alice")
    invitation = invite(campaign, alice, by=warmaster, role="organiser")

    with SELF_SERVICE_OFF, refused(containing=["only a superuser can make someone an organiser"]):
        services.accept_campaign_invitation(actor=alice, invitation=invitation)

    assert not campaign.memberships.filter(user=alice).exists()
    assert not reload(alice).is_staff


def test_it_opens_the_admin_to_whoever_creates_a_campaign(campaign):
    """Staff follows the role from the first organiser on, not only for self-service."""
    player = make_user("creed")

    created = services.create_campaign(actor=player, name="Cadia")

    assert reload(player).is_staff
    assert HistoryEntry.objects.filter(campaign=created, changes={"is_staff": [False, True]})


def test_it_lets_only_an_organiser_of_the_campaign_invite_or_withdraw(warmaster, campaign):
    """An invitation speaks for the campaign: a player of it, or an organiser of another
    campaign, can't send one or take one back."""
    outsider = make_user("outsider")
    player = make_user("player")
    services.accept_campaign_invitation(
        actor=player, invitation=invite(campaign, player, by=warmaster)
    )
    elsewhere = make_user("elsewhere", is_staff=True)
    make_campaign(organiser=elsewhere, name="Armageddon")
    waiting = invite(campaign, make_user("newcomer"), by=warmaster)

    for actor in (outsider, player, elsewhere):
        with refused(containing=["Only an organiser of Vraks"]):
            invite(campaign, make_user(), by=actor)
        with refused(containing=["Only an organiser of Vraks"]):
            services.withdraw_campaign_invitation(actor=actor, invitation=waiting)
    assert reload(waiting).status == CampaignInvitation.Status.PENDING


def test_it_refuses_an_invitation_to_organise_once_its_sender_no_longer_organises(
    warmaster, campaign
):
    """A demoted organiser's old invitation to organise names nobody any more."""
    deputy = make_user("deputy")
    organise(campaign, deputy, by=warmaster)
    alice = make_user("alice")
    pending = invite(campaign, alice, by=deputy, role="organiser")
    services.change_member_role(
        actor=warmaster,
        membership=Membership.objects.get(campaign=campaign, user=deputy),
        role="player",
    )

    with refused(containing=["deputy no longer organises Vraks"]):
        services.accept_campaign_invitation(actor=alice, invitation=pending)

    assert not Membership.objects.filter(campaign=campaign, user=alice).exists()
