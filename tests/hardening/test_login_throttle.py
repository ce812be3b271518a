"""Login throttling behind a reverse proxy: attempts count against the real client's
address, read from X-Forwarded-For only as far as our own proxies wrote it, so one
client's wrong passwords lock that client out and nobody else."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from campaign.checks import check_proxy_settings
from campaign.client_address import client_address
from tests.factories import make_user
from tests.views.test_login_and_email import PASSWORD

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"  # the reverse proxy: every request reaches the app from it
INNER_PROXY = "10.0.0.3"
CLIENT_A = "203.0.113.7"
CLIENT_B = "198.51.100.2"
VICTIM = "192.0.2.50"


@pytest.fixture
def behind_proxy(settings):
    settings.BEHIND_PROXY = True
    settings.TRUSTED_PROXY_COUNT = None  # the default: one proxy
    return settings


def through_proxy(client, username: str, password: str, *, forwarded: str):
    """A login as the proxy passes it on: from the proxy's address, with the header the
    proxy wrote (what the client sent, then the client's address)."""
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded,
    )


def test_it_lets_the_player_in_from_another_client_after_five_failures_from_one(
    client, behind_proxy
):
    make_user("vell")
    for _ in range(behind_proxy.AXES_FAILURE_LIMIT):
        through_proxy(client, "vell", "wrong", forwarded=CLIENT_A)

    assert through_proxy(client, "vell", PASSWORD, forwarded=CLIENT_A).status_code == 429
    assert through_proxy(client, "vell", PASSWORD, forwarded=CLIENT_B).status_code == 302


def test_it_locks_one_address_that_tries_many_usernames(client, behind_proxy):
    make_user("victim")
    for n in range(behind_proxy.AXES_FAILURE_LIMIT):
        through_proxy(client, f"guess{n}", "wrong", forwarded=CLIENT_A)

    refused = through_proxy(client, "victim", PASSWORD, forwarded=CLIENT_A)

    assert refused.status_code == 429
    assert "Too many wrong passwords" in refused.content.decode()
    assert through_proxy(client, "victim", PASSWORD, forwarded=CLIENT_B).status_code == 302


def test_it_is_not_reset_by_a_login_to_an_account_of_the_guessers_own(client, behind_proxy):
    """A right password from the guessing address does not wipe its failures: else one
    address could guess for ever, logging into its own account every few tries."""
    make_user("victim")
    make_user("guesser")
    limit = behind_proxy.AXES_FAILURE_LIMIT
    for n in range(limit - 1):
        through_proxy(client, f"guess{n}", "wrong", forwarded=CLIENT_A)
    assert through_proxy(client, "guesser", PASSWORD, forwarded=CLIENT_A).status_code == 302
    client.logout()
    through_proxy(client, "victim", "wrong", forwarded=CLIENT_A)

    assert through_proxy(client, "victim", PASSWORD, forwarded=CLIENT_A).status_code == 429


def test_it_counts_the_addresses_of_one_ipv6_network_together(client, behind_proxy):
    """A client given a /64 gets no fresh count from each new address in it."""
    make_user("vell")
    for n in range(behind_proxy.AXES_FAILURE_LIMIT):
        through_proxy(client, "vell", "wrong", forwarded=f"2001:db8:0:7::{n + 1:x}")

    assert through_proxy(client, "vell", PASSWORD, forwarded="2001:db8:0:7::99").status_code == 429
    assert through_proxy(client, "vell", PASSWORD, forwarded="2001:db8:0:8::1").status_code == 302


def test_it_cannot_be_dodged_by_forging_the_header(client, behind_proxy):
    """A new made-up address on the left each time: the proxy's entry still names A."""
    make_user("vell")
    for n in range(behind_proxy.AXES_FAILURE_LIMIT):
        through_proxy(client, "vell", "wrong", forwarded=f"192.0.2.{n + 1}, {CLIENT_A}")

    forged = through_proxy(client, "vell", PASSWORD, forwarded=f"192.0.2.99, {CLIENT_A}")

    assert forged.status_code == 429


def test_it_cannot_frame_another_client_by_forging_the_header(client, behind_proxy):
    """Failures claiming to be the victim's address lock the sender, not the victim."""
    make_user("vell")
    for _ in range(behind_proxy.AXES_FAILURE_LIMIT):
        through_proxy(client, "vell", "wrong", forwarded=f"{VICTIM}, {CLIENT_A}")

    assert through_proxy(client, "vell", PASSWORD, forwarded=VICTIM).status_code == 302


def test_it_ignores_the_header_when_not_behind_a_proxy(client, settings):
    """Without BEHIND_PROXY anyone can send X-Forwarded-For: the connection counts."""
    settings.BEHIND_PROXY = False
    make_user("vell")
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            "/accounts/login/",
            {"username": "vell", "password": "wrong"},
            REMOTE_ADDR=CLIENT_A,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n + 1}",
        )

    locked = client.post(
        "/accounts/login/",
        {"username": "vell", "password": PASSWORD},
        REMOTE_ADDR=CLIENT_A,
        HTTP_X_FORWARDED_FOR="192.0.2.99",
    )

    assert locked.status_code == 429


def address(settings, *, remote: str = PROXY, forwarded: str | None = None) -> str | None:
    extra = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **extra))


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (None, CLIENT_A, CLIENT_A),
        (None, f"1.2.3.4, {CLIENT_A}", CLIENT_A),
        (2, f"1.2.3.4, {CLIENT_A}, {INNER_PROXY}", CLIENT_A),
        (2, f"{CLIENT_A}, {INNER_PROXY}", CLIENT_A),
        # Through the inner proxy only: fewer entries than proxies, none of them forged.
        (2, CLIENT_A, CLIENT_A),
        # An IPv6 client counts by its /64 network.
        (None, " 2001:DB8::1 ", "2001:db8::"),
        (None, "[2001:db8::1]:443", "2001:db8::"),
        (None, "2001:db8:0:7:aaaa::9", "2001:db8:0:7::"),
        (None, "::ffff:203.0.113.7", CLIENT_A),
        (None, f"{CLIENT_A}:5678", CLIENT_A),
    ],
)
def test_it_takes_the_address_the_trusted_proxies_appended(
    behind_proxy, count, forwarded, expected
):
    behind_proxy.TRUSTED_PROXY_COUNT = count

    assert address(behind_proxy, forwarded=forwarded) == expected


@pytest.mark.parametrize(
    "forwarded", [None, "", " , ", "not-an-address", f"{CLIENT_A}, unknown", "999.1.1.1"]
)
def test_it_falls_back_to_the_connection_for_a_missing_or_malformed_header(behind_proxy, forwarded):
    assert address(behind_proxy, forwarded=forwarded) == PROXY


def test_it_warns_at_deploy_about_a_proxy_count_without_a_proxy(settings):
    settings.BEHIND_PROXY, settings.TRUSTED_PROXY_COUNT = False, 2

    (warning,) = check_proxy_settings(None)

    assert warning.id == "campaign.W001"
    assert "BEHIND_PROXY is off" in warning.msg


@pytest.mark.parametrize(("behind", "count"), [(True, 2), (True, None), (False, None)])
def test_it_finds_nothing_to_warn_about_in_a_consistent_proxy_setup(settings, behind, count):
    settings.BEHIND_PROXY, settings.TRUSTED_PROXY_COUNT = behind, count

    assert check_proxy_settings(None) == []
