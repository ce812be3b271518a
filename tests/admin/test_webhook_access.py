"""Who reaches a campaign's webhooks and their deliveries in the admin: every page and
button, for the anonymous visitor, a player, the organiser of another campaign, the
campaign's organiser and a superuser. A refused POST leaves the database as it was."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import HistoryEntry, Webhook, WebhookDelivery
from tests.factories import make_user

from .helpers import form_data

pytestmark = pytest.mark.django_db
PUBLIC = "https://93.184.216.34/api/webhooks/1/s3cr3t-token"
OTHER_PUBLIC = "https://93.184.216.35/taken-over"
LOGIN = reverse("admin:login")
INDEX = reverse("admin:index")
ROLES = ["anonymous", "player", "rival", "organiser", "superuser"]


@dataclass
class Hooked:
    """Our campaign's webhook (paused, so it has a resume button) and one delivery to it."""

    hook: Webhook
    delivery: WebhookDelivery
    campaign: object


@pytest.fixture
def hooked(organiser, campaign) -> Hooked:
    hook = services.add_webhook(
        actor=organiser, campaign=campaign, name="Vraks vox relay", url=PUBLIC
    )
    services.pause_webhook(actor=organiser, webhook=hook, reason="Quiet week")
    delivery = WebhookDelivery.objects.create(
        webhook=hook, event="log_entry", title="Dawn over Vraks", body="{}"
    )
    return Hooked(hook, delivery, campaign)


@pytest.fixture
def as_role(client, organiser, campaign, rival_campaign):
    def log_in(role: str):
        if role == "player":
            player = make_user("alice")
            services.join_campaign(actor=player, user=player, campaign=campaign)
            client.force_login(player)
        elif role == "rival":
            client.force_login(rival_campaign.memberships.get().user)
        elif role == "organiser":
            client.force_login(organiser)
        elif role == "superuser":
            client.force_login(make_user("root", is_staff=True, is_superuser=True))
        return client

    return log_in


def database() -> tuple:
    """Everything a webhook page could change."""
    return (
        list(Webhook.objects.order_by("pk").values()),
        list(WebhookDelivery.objects.order_by("pk").values()),
        HistoryEntry.objects.count(),
    )


def hook_url(name: str, hook: Webhook) -> str:
    return reverse(f"admin:campaign_webhook_{name}", args=[hook.pk])


def delivery_url(name: str, delivery: WebhookDelivery) -> str:
    return reverse(f"admin:campaign_webhookdelivery_{name}", args=[delivery.pk])


def assert_sent_to_login(response) -> None:
    assert response.status_code == 302
    assert response["Location"].startswith(LOGIN)


def assert_hidden(response, *secrets: str) -> None:
    """Refused the way the admin refuses a row it does not show: 302 to the index ("does
    not exist"), 403 or 404, and nothing of the row on the page."""
    assert response.status_code in (302, 403, 404)
    if response.status_code == 302:
        assert response["Location"] == INDEX
    page = response.content.decode()
    for secret in secrets:
        assert secret not in page


# --- GET: every page -----------------------------------------------------------------------


def pages(h: Hooked) -> dict[str, str]:
    return {
        "webhooks": reverse("admin:campaign_webhook_changelist"),
        "add webhook": reverse("admin:campaign_webhook_add"),
        "webhook": hook_url("change", h.hook),
        "webhook history": hook_url("history", h.hook),
        "delete webhook": hook_url("delete", h.hook),
        "resume webhook": hook_url("resume", h.hook),
        "deliveries": reverse("admin:campaign_webhookdelivery_changelist"),
        "delivery": delivery_url("change", h.delivery),
        "delivery history": delivery_url("history", h.delivery),
        "add delivery": reverse("admin:campaign_webhookdelivery_add"),
        "delete delivery": delivery_url("delete", h.delivery),
    }


OWN_PAGES = {
    # What the campaign's organiser (and a superuser) gets on each page.
    "webhooks": 200,
    "add webhook": 200,
    "webhook": 200,
    "webhook history": 200,
    "delete webhook": 403,  # a webhook is paused, never deleted
    "resume webhook": 200,
    "deliveries": 200,
    "delivery": 200,  # read only
    "delivery history": 200,
    "add delivery": 403,
    "delete delivery": 403,
}
SHOWN_TO_RIVAL = {"webhooks", "add webhook", "deliveries"}
"""Pages another campaign's organiser may open: lists and the add form, without our rows."""


@pytest.mark.parametrize("role", ["anonymous", "player"])
@pytest.mark.parametrize("page", list(OWN_PAGES))
def test_it_sends_a_visitor_or_a_player_to_the_admin_login(hooked, as_role, role, page):
    assert_sent_to_login(as_role(role).get(pages(hooked)[page]))


@pytest.mark.parametrize("role", ["organiser", "superuser"])
@pytest.mark.parametrize("page", list(OWN_PAGES))
def test_it_opens_each_page_to_the_campaigns_organiser_and_a_superuser(hooked, as_role, role, page):
    before = database()

    response = as_role(role).get(pages(hooked)[page])

    assert response.status_code == OWN_PAGES[page]
    assert database() == before


@pytest.mark.parametrize("page", list(OWN_PAGES))
def test_it_shows_another_campaigns_organiser_nothing_of_our_webhook(hooked, as_role, page):
    before = database()

    response = as_role("rival").get(pages(hooked)[page])

    page_text = response.content.decode()
    for secret in ("Vraks vox relay", "s3cr3t", hooked.hook.secret, "Dawn over Vraks"):
        assert secret not in page_text
    if page == "add webhook":
        assert response.status_code == 200
        offered = response.context["adminform"].form.fields["campaign"].queryset
        assert hooked.campaign not in offered
    elif page in SHOWN_TO_RIVAL:
        assert response.status_code == 200
        assert list(response.context["cl"].result_list) == []
    elif page == "add delivery":
        assert response.status_code == 403
    else:
        assert_hidden(response)
    assert database() == before


# --- POST: every change --------------------------------------------------------------------


def posts(h: Hooked) -> dict[str, tuple[str, dict]]:
    """Each change a page offers, as its form would post it (the change page's own data
    read as the campaign's organiser sees it, so it is a real form's)."""
    changelist = reverse("admin:campaign_webhook_changelist")
    change = {
        "campaign": h.campaign.pk,
        "name": "Mine now",
        "kind": "json",
        "url": OTHER_PUBLIC,
        **{name: "on" for name in Webhook.EVENT_FIELDS},
    }
    ticked = {"_selected_action": [h.hook.pk], "apply": "yes", "reason": "Taken over"}
    return {
        "add webhook to this campaign": (reverse("admin:campaign_webhook_add"), change),
        "change webhook": (hook_url("change", h.hook), change),
        "delete webhook": (hook_url("delete", h.hook), {"post": "yes"}),
        "resume button": (hook_url("resume", h.hook), {"apply": "yes", "reason": "Taken over"}),
        "resume action": (changelist, {"action": "resume_webhooks", **ticked}),
        "pause action": (changelist, {"action": "pause_webhooks", **ticked}),
        "delete action": (changelist, {"action": "delete_selected", "post": "yes", **ticked}),
        "change delivery": (
            delivery_url("change", h.delivery),
            {"status": "delivered", "title": "Forged", "tries": 0},
        ),
        "add delivery": (
            reverse("admin:campaign_webhookdelivery_add"),
            {"webhook": h.hook.pk, "event": "log_entry", "title": "Forged", "body": "{}"},
        ),
        "delete delivery": (delivery_url("delete", h.delivery), {"post": "yes"}),
    }


RIVAL_POSTS = {
    # What another campaign's organiser gets for each: never our row.
    "add webhook to this campaign": 200,  # the form again: not a campaign they may choose
    "change webhook": 302,  # to the index: "does not exist"
    "delete webhook": 403,
    "resume button": 404,
    "resume action": 302,  # back to the list: no row of theirs was ticked
    "pause action": 302,
    "delete action": 302,  # not an action offered at all
    "change delivery": 403,
    "add delivery": 403,
    "delete delivery": 403,
}
POSTS = list(RIVAL_POSTS)


@pytest.mark.parametrize("role", ["anonymous", "player"])
@pytest.mark.parametrize("change", POSTS)
def test_it_refuses_every_change_by_a_visitor_or_a_player(hooked, as_role, role, change):
    client = as_role(role)
    url, data = posts(hooked)[change]
    before = database()

    response = client.post(url, data)

    assert_sent_to_login(response)
    assert database() == before


@pytest.mark.parametrize("change", POSTS)
def test_it_refuses_every_change_by_another_campaigns_organiser(hooked, as_role, change):
    client = as_role("rival")
    url, data = posts(hooked)[change]
    before = database()

    response = client.post(url, data)

    assert response.status_code == RIVAL_POSTS[change]
    if response.status_code == 200:  # the add form, shown again with the refusal
        assert "campaign" in response.context["adminform"].form.errors
    elif response.status_code == 302:
        assert response["Location"] in (INDEX, reverse("admin:campaign_webhook_changelist"))
    assert database() == before
    assert "Vraks vox relay" not in response.content.decode()


@pytest.mark.parametrize("role", ["organiser", "superuser"])
@pytest.mark.parametrize(
    "change", ["delete webhook", "delete action", "change delivery", "add delivery"]
)
def test_it_refuses_even_the_organiser_what_no_one_may_do(hooked, as_role, role, change):
    """Webhooks are paused rather than deleted; deliveries are written by the worker only."""
    client = as_role(role)
    url, data = posts(hooked)[change]
    before = database()

    response = client.post(url, data)

    if change == "delete action":  # not offered: back to the list, nothing done
        assert response.status_code == 302
        assert response["Location"] == reverse("admin:campaign_webhook_changelist")
    else:
        assert response.status_code == 403
    assert database() == before


@pytest.mark.parametrize("role", ["organiser", "superuser"])
def test_it_lets_the_organiser_and_a_superuser_change_resume_and_pause(hooked, as_role, role):
    client = as_role(role)
    change = hook_url("change", hooked.hook)
    data = {**form_data(client.get(change)), "name": "Vraks battle relay"}
    assert client.post(change, data).status_code == 302
    resume, resumed = posts(hooked)["resume button"]
    assert client.post(resume, resumed).status_code == 302
    hooked.hook.refresh_from_db()
    assert (hooked.hook.name, hooked.hook.is_paused) == ("Vraks battle relay", False)

    pause, paused = posts(hooked)["pause action"]
    client.post(pause, paused)

    hooked.hook.refresh_from_db()
    assert hooked.hook.is_paused
