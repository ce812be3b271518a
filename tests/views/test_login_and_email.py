"""Logins are throttled, password resets are honest about email, and every page carries
a Content-Security-Policy."""

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from tests.factories import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "test-pass-123"  # what tests.factories.make_user gives every account


def log_in(client, username: str, password: str, *, url: str = "/accounts/login/", ip=None):
    extra = {"REMOTE_ADDR": ip} if ip else {}
    return client.post(url, {"username": username, "password": password}, **extra)


def test_it_refuses_even_the_right_password_after_too_many_wrong_ones(client, settings):
    """After LOGIN_FAILURE_LIMIT failures from one address, it waits, with a clear message."""
    make_user("vell")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "vell", "wrong").status_code == 200
    assert log_in(client, "vell", "wrong").status_code == 429

    locked = log_in(client, "vell", PASSWORD)

    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_lets_the_player_in_below_the_limit(client, settings):
    make_user("vell")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "vell", "wrong").status_code == 200

    assert log_in(client, "vell", PASSWORD).status_code == 302


def test_it_throttles_one_address_trying_many_usernames(client, settings):
    """Per address too: guessing across accounts from one place is stopped."""
    make_user("victim")
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, f"guess{n}", "wrong", ip="203.0.113.7")

    assert log_in(client, "victim", PASSWORD, ip="203.0.113.7").status_code == 429
    assert log_in(client, "victim", PASSWORD, ip="198.51.100.2").status_code == 302


def test_it_throttles_the_organisers_admin_login_too(client, settings):
    make_user("warmaster", is_staff=True)
    url = reverse("admin:login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "warmaster", "wrong", url=url)

    assert log_in(client, "warmaster", PASSWORD, url=url).status_code == 429


@override_settings(EMAIL_ENABLED=False)
def test_it_says_to_ask_the_organiser_when_no_email_can_be_sent(client):
    make_user("vell", email="vell@example.org")

    page = client.get(reverse("password_reset"))
    posted = client.post(reverse("password_reset"), {"email": "vell@example.org"})

    assert "campaign's organiser" in page.content.decode()
    assert "on its way" not in posted.content.decode()
    assert mail.outbox == []


@override_settings(
    EMAIL_ENABLED=True, EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"
)
def test_it_sends_the_reset_link_when_email_is_set_up(client):
    make_user("vell", email="vell@example.org")

    response = client.post(reverse("password_reset"), {"email": "vell@example.org"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "vell" in mail.outbox[0].body


@override_settings(EMAIL_ENABLED=True, EMAIL_BACKEND="tests.views.test_login_and_email.Refusing")
def test_it_never_claims_a_link_was_sent_when_the_mail_server_refuses(client):
    make_user("vell", email="vell@example.org")

    response = client.post(reverse("password_reset"), {"email": "vell@example.org"})

    assert response.status_code == 200
    assert "couldn" in response.content.decode()


class Refusing:
    """An email backend whose server is down."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise OSError("connection refused")


def test_it_sends_a_content_security_policy_with_every_page(client):
    policy = client.get(reverse("home"))["Content-Security-Policy"]

    assert "script-src 'self'" in policy
    assert "'unsafe-inline'" not in policy.split("style-src-attr")[0]
    assert "frame-ancestors 'none'" in policy
