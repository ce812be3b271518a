"""Sign up, joining campaigns by invitation, and the dashboard."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import services
from campaign.models import HistoryEntry, Membership, Promotion
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db


def test_it_signs_up_a_new_player_and_logs_them_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
        follow=True,
    )

    assert response.redirect_chain[-1][0] == reverse("dashboard")
    assert response.context["user"].username == "newbie"
    assert get_user_model().objects.filter(username="newbie").exists()


def test_it_shows_signup_errors_next_to_the_field_and_creates_nobody(client):
    response = client.post(
        reverse("signup"), {"username": "newbie", "password1": "abc", "password2": "abd"}
    )

    assert response.status_code == 200
    assert 'class="field__error"' in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_it_joins_a_campaign_with_the_invitation_link(client):
    campaign = make_campaign()
    player = make_user()
    client.force_login(player)

    page = client.get(reverse("join_campaign", args=[campaign.invite_code]))
    assert campaign.name in page.content.decode()
    assert not campaign.memberships.filter(user=player).exists(), "GET changes nothing"

    response = client.post(reverse("join_campaign", args=[campaign.invite_code]))

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('force_create')}?campaign={campaign.pk}"
    membership = campaign.memberships.get(user=player)
    assert membership.role == Membership.Role.PLAYER
    assert HistoryEntry.objects.filter(action="member_joined", campaign=campaign).exists()


def test_it_joins_a_campaign_with_the_code_typed_in_then_raises_a_force_for_it(client):
    """Issue 13 item 1: straight from joining to creating a force in that campaign."""
    campaign = make_campaign()
    player = make_user()
    client.force_login(player)

    response = client.post(reverse("join_with_code"), {"code": campaign.invite_code}, follow=True)

    assert campaign.memberships.filter(user=player).exists()
    assert response.redirect_chain == [(f"{reverse('force_create')}?campaign={campaign.pk}", 302)]
    assert response.context["form"]["campaign"].value() == campaign.pk
    assert f"You joined {campaign.name}. Now raise your force for it." in response.content.decode()


def test_it_sends_a_member_who_joins_again_to_the_campaign_page(client):
    campaign = make_campaign()
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=campaign)
    client.force_login(player)

    response = client.post(reverse("join_with_code"), {"code": campaign.invite_code})

    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])


def test_it_tells_a_new_player_to_join_their_campaign_first(client):
    password = "a-long-pass-phrase"
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": password, "password2": password},
        follow=True,
    )

    page = response.content.decode()
    assert "First join your campaign with the invitation code" in page
    assert "Start by creating your force" not in page
    assert f'class="button button--big" href="{reverse("join_with_code")}"' in page


def test_it_goes_back_to_the_invitation_link_after_signing_up(client):
    """A newcomer opening an invitation link signs up and lands back on it."""
    campaign = make_campaign()
    invitation = reverse("join_campaign", args=[campaign.invite_code])
    login_page = client.get(invitation, follow=True).content.decode()
    signup = f"{reverse('signup')}?next={invitation}"
    assert f'href="{signup}"' in login_page

    page = client.get(signup).content.decode()
    response = client.post(
        signup,
        {
            "username": "newbie",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "next": invitation,
        },
    )

    assert f'name="next" value="{invitation}"' in page
    assert response["Location"] == invitation


def test_it_goes_nowhere_else_after_signing_up(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "next": "https://evil.example/",
        },
    )

    assert response["Location"] == reverse("dashboard")


def test_it_puts_start_a_battle_first_on_the_dashboard_of_a_player_in_a_campaign(client):
    """Issue 13 item 6: the next thing to do is the first thing on the page."""
    player = make_user()
    make_force(player=player, campaign=make_campaign())
    client.force_login(player)

    page = client.get(reverse("dashboard")).content.decode()

    start = f'class="button button--big" href="{reverse("battle_create")}">Start a battle'
    assert page.index(start) < page.index("Waiting for you")


def test_it_explains_an_unknown_code_next_to_the_field(client):
    client.force_login(make_user())

    response = client.post(reverse("join_with_code"), {"code": "no-such-code"})

    assert response.status_code == 200
    assert "No campaign has that code" in response.content.decode()
    assert not Membership.objects.filter(user=response.context["user"]).exists()


def test_it_answers_404_for_an_unknown_invitation_link(client):
    client.force_login(make_user())

    assert client.get(reverse("join_campaign", args=["nope"])).status_code == 404


def test_it_lists_what_is_waiting_on_the_dashboard(client):
    player = make_user()
    force = make_force(player=player, name="Iron Hands 3rd")
    captain = make_character(force, name="Captain Voss")
    Promotion.objects.create(unit=captain, rank=1)
    services.start_battle(actor=player, force=force, battle_size="Incursion")
    client.force_login(player)

    body = client.get(reverse("dashboard")).content.decode()

    assert "Iron Hands 3rd" in body
    assert "Captain Voss reached Blooded" in body
    assert "muster your army" in body


def _dashboard_queries(client, player) -> int:
    client.force_login(player)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("dashboard")).status_code == 200
    return len(queries)


def test_it_loads_the_dashboard_in_the_same_number_of_queries_however_much_is_pending(client):
    small, large = make_user(), make_user()
    for player, forces in ((small, 1), (large, 4)):
        for _ in range(forces):
            force = make_force(player=player)
            for _ in range(5):
                Promotion.objects.create(unit=make_unit(force), rank=1)

    assert _dashboard_queries(client, small) == _dashboard_queries(client, large)
