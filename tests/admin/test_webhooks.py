"""Announcements in the admin: an organiser adds webhooks to their own campaigns only,
reads a signed webhook's secret, sees why one is paused and resumes it, and reads each
message's delivery; an address inside a private network is refused next to the field."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from campaign import services
from campaign.models import HistoryEntry, Webhook, WebhookDelivery

from .helpers import form_data, form_errors

pytestmark = pytest.mark.django_db
PUBLIC = "https://93.184.216.34/api/webhooks/123/s3cr3t-token"
ADD = reverse("admin:campaign_webhook_add")


def change_url(hook: Webhook) -> str:
    return reverse("admin:campaign_webhook_change", args=[hook.pk])


def hook_of(campaign, organiser, **values) -> Webhook:
    values = {"name": "Discord #crusade", "url": PUBLIC, **values}
    return services.add_webhook(actor=organiser, campaign=campaign, **values)


def posted(campaign, **values) -> dict:
    data = {
        "campaign": campaign.pk,
        "name": "Discord #crusade",
        "kind": "discord",
        "url": PUBLIC,
        **{name: "on" for name in Webhook.EVENT_FIELDS},
    }
    data.update(values)
    return {k: v for k, v in data.items() if v is not None}


def test_it_lets_an_organiser_add_a_webhook_to_their_campaign(organiser_client, campaign):
    response = organiser_client.post(ADD, posted(campaign, on_log_entry=None))

    hook = Webhook.objects.get()
    assert response.status_code == 302
    assert response["Location"] == change_url(hook)
    assert (hook.campaign, hook.url, hook.on_battle, hook.on_log_entry) == (
        campaign,
        PUBLIC,
        True,
        False,
    )
    assert hook.site_url == "http://testserver"
    row = HistoryEntry.objects.get(action="webhook_added")
    assert row.campaign == campaign
    assert "s3cr3t" not in f"{row.summary} {row.changes} {row.reason}"
    assert hook.secret not in f"{row.summary} {row.changes} {row.reason}"


def test_it_shows_a_signed_webhooks_secret_on_its_page(organiser_client, organiser, campaign):
    hook = hook_of(campaign, organiser, kind=Webhook.Kind.SIGNED_JSON)

    page = organiser_client.get(change_url(hook)).content.decode()

    assert hook.secret in page
    assert "X-Crusade-Signature" in page


def test_it_refuses_an_address_inside_a_private_network_next_to_the_field(
    organiser_client, campaign
):
    response = organiser_client.post(ADD, posted(campaign, url="https://169.254.169.254/x"))

    assert "private network" in " ".join(form_errors(response)["url"])
    assert not Webhook.objects.exists()


def test_it_refuses_a_change_to_a_private_address_next_to_the_field(
    organiser_client, organiser, campaign
):
    hook = hook_of(campaign, organiser)
    data = form_data(organiser_client.get(change_url(hook)))

    response = organiser_client.post(change_url(hook), {**data, "url": "https://10.0.0.1/"})

    assert "private network" in " ".join(form_errors(response)["url"])
    hook.refresh_from_db()
    assert hook.url == PUBLIC


def test_it_lets_an_organiser_change_the_news_a_webhook_announces(
    organiser_client, organiser, campaign
):
    hook = hook_of(campaign, organiser)
    data = form_data(organiser_client.get(change_url(hook)))
    data.pop("on_promotion")

    response = organiser_client.post(change_url(hook), data)

    assert response.status_code == 302
    hook.refresh_from_db()
    assert not hook.on_promotion
    assert HistoryEntry.objects.get(action="webhook_changed").changes == {
        "on_promotion": [True, False]
    }


def test_it_never_offers_another_campaign_to_add_a_webhook_to(
    organiser_client, campaign, rival_campaign
):
    response = organiser_client.post(ADD, posted(rival_campaign))

    assert "campaign" in form_errors(response)
    assert not Webhook.objects.exists()


def test_it_shows_an_organiser_only_their_own_campaigns_webhooks_and_deliveries(
    organiser_client, organiser, campaign, rival_campaign
):
    ours = hook_of(campaign, organiser, name="Ours")
    rival = rival_campaign.memberships.get().user
    theirs = hook_of(rival_campaign, rival, name="Theirs")
    for hook in (ours, theirs):
        WebhookDelivery.objects.create(
            webhook=hook, event="log_entry", title=f"To {hook}", body="{}"
        )

    hooks = organiser_client.get(reverse("admin:campaign_webhook_changelist"))
    deliveries = organiser_client.get(reverse("admin:campaign_webhookdelivery_changelist"))

    assert [h.name for h in hooks.context["cl"].result_list] == ["Ours"]
    assert [d.title for d in deliveries.context["cl"].result_list] == ["To Ours"]
    assert "Theirs" not in deliveries.content.decode()
    assert organiser_client.get(change_url(theirs)).status_code in (302, 404)
    assert "s3cr3t" not in hooks.content.decode()  # the list shows the host only


def test_it_keeps_deliveries_read_only(organiser_client, organiser, campaign):
    hook = hook_of(campaign, organiser)
    delivery = WebhookDelivery.objects.create(
        webhook=hook, event="log_entry", title="Dawn", body="{}"
    )
    url = reverse("admin:campaign_webhookdelivery_change", args=[delivery.pk])

    response = organiser_client.get(url)
    organiser_client.post(url, {"status": "delivered"})

    assert response.status_code == 200
    delivery.refresh_from_db()
    assert delivery.status == WebhookDelivery.Status.WAITING
    assert organiser_client.get(reverse("admin:campaign_webhookdelivery_add")).status_code == 403


def test_it_tells_why_a_webhook_is_paused_and_lets_the_organiser_resume_it(
    organiser_client, organiser, campaign
):
    hook = hook_of(campaign, organiser)
    services.pause_webhook(
        actor=None, webhook=hook, reason="3 messages in a row could not be delivered."
    )

    response = organiser_client.get(change_url(hook))

    page = response.content.decode()
    notices = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(n.startswith("Paused because: 3 messages in a row") for n in notices)
    assert "Paused because: 3 messages in a row could not be delivered." in page
    resume = reverse("admin:campaign_webhook_resume", args=[hook.pk])
    assert resume in page
    listed = organiser_client.get(reverse("admin:campaign_webhook_changelist"))
    assert any(
        str(m).startswith("Paused, so nothing is sent to them: Discord #crusade")
        for m in get_messages(listed.wsgi_request)
    )
    assert "Paused because: 3 messages in a row" in listed.content.decode()

    done = organiser_client.post(resume, {"apply": "yes", "reason": "The channel is back"})

    assert done.status_code == 302
    hook.refresh_from_db()
    assert not hook.is_paused
    assert HistoryEntry.objects.get(action="webhook_resumed").reason == "The channel is back"


def test_it_never_lets_an_organiser_resume_another_campaigns_webhook(
    organiser_client, rival_campaign
):
    rival = rival_campaign.memberships.get().user
    theirs = hook_of(rival_campaign, rival)
    services.pause_webhook(actor=rival, webhook=theirs, reason="Quiet week")
    resume = reverse("admin:campaign_webhook_resume", args=[theirs.pk])

    response = organiser_client.post(resume, {"apply": "yes", "reason": "Mine now"})

    assert response.status_code in (302, 404)
    theirs.refresh_from_db()
    assert theirs.is_paused


def test_it_pauses_the_webhooks_ticked_on_the_list_with_a_reason(
    organiser_client, organiser, campaign
):
    hook = hook_of(campaign, organiser)

    organiser_client.post(
        reverse("admin:campaign_webhook_changelist"),
        {
            "action": "pause_webhooks",
            "_selected_action": [hook.pk],
            "apply": "yes",
            "reason": "Quiet week",
        },
    )

    hook.refresh_from_db()
    assert (hook.is_paused, hook.paused_reason) == (True, "Quiet week")
