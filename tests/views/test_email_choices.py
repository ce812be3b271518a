"""Each player chooses which emails they get: on their settings page, or with the signed
link every email carries, which works without signing in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from campaign import email_links, notifications, players, services
from campaign.models import EmailKind, HistoryEntry, PlayerSettings
from tests.factories import make_campaign, make_user

from .test_email_worker import DATABASE_TASKS, run_worker

pytestmark = pytest.mark.django_db

SETTINGS = reverse("email_settings")


def stop_path(user, kind=EmailKind.DISPUTE) -> str:
    return reverse("email_stop", args=[email_links.token(user.pk, kind)])


def wants(user, kind) -> bool:
    return players.settings_of(user).wants(kind)


@pytest.fixture
def alice():
    return make_user("alice", email="alice@example.org")


# The settings page


def test_it_shows_every_kind_of_email_ticked_until_the_player_chooses(client, alice):
    client.force_login(alice)

    page = client.get(SETTINGS).content.decode()

    for kind in EmailKind:
        assert f'name="{kind.value}"' in page
        assert kind.when in page
    assert page.count("checked") == len(EmailKind)
    assert 'name="form_once"' in page
    assert f'href="{SETTINGS}"' in page  # in the site's navigation


def test_it_saves_the_players_choice_without_a_history_row(client, alice):
    client.force_login(alice)
    history = HistoryEntry.objects.count()
    ticked = {kind.value: "on" for kind in EmailKind if kind != EmailKind.DISPUTE}

    response = client.post(SETTINGS, ticked)

    assert response.status_code == 302
    assert not wants(alice, EmailKind.DISPUTE)
    assert all(wants(alice, kind) for kind in EmailKind if kind != EmailKind.DISPUTE)
    assert HistoryEntry.objects.count() == history
    page = client.get(SETTINGS).content.decode()
    assert page.count("checked") == len(EmailKind) - 1


def test_it_applies_the_settings_form_once(client, alice):
    client.force_login(alice)
    page = client.get(SETTINGS).content.decode()
    once = page.split('name="form_once" value="')[1].split('"')[0]

    client.post(SETTINGS, {"form_once": once})  # every box unticked
    client.post(SETTINGS, {"form_once": once, EmailKind.DISPUTE.value: "on"})

    assert not wants(alice, EmailKind.DISPUTE)


def test_it_sends_a_signed_out_visitor_to_sign_in(client):
    response = client.get(SETTINGS)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# The worker reads the choice when it sends


@pytest.mark.django_db(transaction=True)
@override_settings(
    EMAIL_ENABLED=True,
    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    TASKS=DATABASE_TASKS,
)
def test_it_sends_no_email_of_a_kind_the_player_turned_off_after_it_was_queued(rf):
    organiser = make_user("warmaster")
    campaign, elsewhere = make_campaign(organiser=organiser), make_campaign(organiser=organiser)
    alice = make_user("alice", email="alice@example.org")
    first = services.invite_to_campaign(actor=organiser, user=alice, campaign=campaign)
    assert notifications.campaign_invitation_sent(rf.get("/"), first)
    players.choose_emails(user=alice, chosen={EmailKind.CAMPAIGN_INVITATION: False})

    run_worker()

    assert mail.outbox == []
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"

    players.choose_emails(user=alice, chosen={EmailKind.CAMPAIGN_INVITATION: True})
    second = services.invite_to_campaign(actor=organiser, user=alice, campaign=elsewhere)
    notifications.campaign_invitation_sent(rf.get("/"), second)
    run_worker()

    (message,) = mail.outbox
    assert message.to == ["alice@example.org"]


@override_settings(EMAIL_ENABLED=True)
def test_it_tells_only_the_players_who_want_their_turn_to_record(
    client, table, django_capture_on_commit_callbacks
):
    for user, address in ((table.owner, "wolves@example.org"), (table.opponent, "t@example.org")):
        user.email = address
        user.save()
    players.choose_emails(user=table.opponent, chosen={EmailKind.TURN_TO_RECORD: False})
    client.force_login(table.owner)
    form = {"result": "win", "marked": "", "confirm": "1"}
    for entry in table.mine.army.all():
        form |= {f"kills_{entry.pk}": 0, f"bonus_{entry.pk}": 0, f"reason_{entry.pk}": ""}

    with django_capture_on_commit_callbacks(execute=True) as queued:
        client.post(reverse("army_record", args=[table.mine.pk]), form)

    assert len(queued) == 1
    assert mail.outbox == []


@override_settings(EMAIL_ENABLED=True)
def test_it_puts_the_link_that_stops_its_kind_in_every_email(
    rf, alice, django_capture_on_commit_callbacks
):
    organiser = make_user("warmaster")
    invitation = services.invite_to_campaign(
        actor=organiser, user=alice, campaign=make_campaign(organiser=organiser)
    )

    with django_capture_on_commit_callbacks(execute=True):
        notifications.campaign_invitation_sent(rf.get("/"), invitation)

    (message,) = mail.outbox
    url = email_links.stop_url("http://testserver/", alice.pk, EmailKind.CAMPAIGN_INVITATION)
    assert url.startswith("http://testserver/emails/stop/")
    assert url in message.body
    assert message.extra_headers["List-Unsubscribe"] == f"<{url}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    sent = message.message()
    assert sent["List-Unsubscribe"] == f"<{url}>"
    assert sent["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def _of_another(token: str) -> str:
    """The token's signature on another user's id."""
    other = email_links.token(10**6, "dispute")
    return other.split(":")[0] + token[token.index(":") :]


# The link in an email: no sign-in, nothing changed by opening it, a POST to stop


def test_it_shows_what_the_link_stops_without_signing_in_and_changes_nothing(alice):
    browser = Client(enforce_csrf_checks=True)

    response = browser.get(stop_path(alice))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Stop these emails?" in page
    assert EmailKind.DISPUTE.label in page
    assert "alice@example.org" not in page
    assert wants(alice, EmailKind.DISPUTE)
    assert not PlayerSettings.objects.exists()


def test_it_stops_the_kind_when_the_pages_button_is_pressed(alice):
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(stop_path(alice))
    csrf = page.context["csrf_token"]

    response = browser.post(stop_path(alice), {"csrfmiddlewaretoken": str(csrf)}, follow=True)

    assert response.status_code == 200
    assert "These emails are stopped" in response.content.decode()
    assert not wants(alice, EmailKind.DISPUTE)
    assert wants(alice, EmailKind.TURN_TO_RECORD)


def test_it_refuses_the_pages_post_without_its_csrf_token(alice):
    browser = Client(enforce_csrf_checks=True)

    response = browser.post(stop_path(alice), {"stop": "1"})

    assert response.status_code == 403
    assert wants(alice, EmailKind.DISPUTE)


def test_it_stops_the_kind_in_one_click_from_a_mail_client(alice):
    """RFC 8058: the mail client posts exactly List-Unsubscribe=One-Click, without cookies
    or a CSRF token."""
    mail_client = Client(enforce_csrf_checks=True)

    response = mail_client.post(
        stop_path(alice, EmailKind.BATTLE_INVITATION),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200
    assert not wants(alice, EmailKind.BATTLE_INVITATION)
    assert wants(alice, EmailKind.DISPUTE)


@pytest.mark.parametrize(
    "change",
    [
        lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),
        lambda token: token.split(":")[0] + ":" + token.split(":", 1)[1][::-1],
        lambda token: "nonsense",
        lambda token: _of_another(token),
    ],
    ids=["signature", "scrambled", "nonsense", "another-user"],
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_it_refuses_a_tampered_link_with_a_400(alice, change, method):
    browser = Client(enforce_csrf_checks=True)
    path = reverse("email_stop", args=[change(email_links.token(alice.pk, "dispute"))])
    data = "List-Unsubscribe=One-Click" if method == "post" else None

    if method == "post":
        response = browser.post(path, data, content_type="application/x-www-form-urlencoded")
    else:
        response = browser.get(path)

    assert response.status_code == 400
    assert "This link does not work" in response.content.decode()
    assert wants(alice, EmailKind.DISPUTE)


def test_it_refuses_a_link_too_old_with_a_400(alice, monkeypatch):
    path = stop_path(alice)
    monkeypatch.setattr(email_links, "LIFETIME", timedelta(seconds=-1))

    response = Client().get(path)

    assert response.status_code == 400
    assert "too old" in response.content.decode()


def test_it_refuses_the_link_of_a_kind_of_email_that_does_not_exist(alice):
    from django.core import signing

    made = signing.dumps({"u": alice.pk, "k": "everything"}, salt=email_links.SALT)

    assert Client().get(reverse("email_stop", args=[made])).status_code == 400


def test_it_refuses_a_link_signed_for_something_else(alice):
    from django.core import signing

    made = signing.dumps({"u": alice.pk, "k": "dispute"}, salt="campaign.once")

    assert Client().get(reverse("email_stop", args=[made])).status_code == 400
