"""How a message goes: tried again after a fault at the other end or a request to slow
down, never redirected, given up after the bound, and a webhook that keeps failing
paused until an organiser resumes it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign import services
from campaign.models import HistoryEntry, Webhook, WebhookDelivery
from campaign.webhooks import tasks
from campaign.webhooks.events import announcements

from .conftest import Answer, add_hook

pytestmark = pytest.mark.django_db
Status = WebhookDelivery.Status


def news(table, capture, title="Dawn"):
    """A log entry written: news for the campaign's webhooks, sent once it commits."""
    with capture(execute=True):
        services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title=title, text="The guns."
        )
    return WebhookDelivery.objects.filter(title=f"Campaign log: {title}").get()


def test_it_tries_again_later_after_a_500_and_then_delivers(
    table, target, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_RETRY_SECONDS = 30
    add_hook(table, target.url())
    target.answer(Answer(500), Answer(502))

    delivery = news(table, django_capture_on_commit_callbacks)

    assert (delivery.status, delivery.tries, delivery.response_code) == (Status.RETRYING, 1, 500)
    assert "500" in delivery.error
    wait = delivery.next_try_at - delivery.last_tried_at
    assert wait == timedelta(seconds=30)

    assert tasks.deliver.call(delivery.pk) == Status.RETRYING
    delivery.refresh_from_db()
    assert delivery.next_try_at - delivery.last_tried_at == timedelta(seconds=60)  # doubled

    assert tasks.deliver.call(delivery.pk) == Status.DELIVERED
    delivery.refresh_from_db()
    assert (delivery.tries, delivery.response_code, delivery.next_try_at) == (3, 204, None)
    assert len(target.received) == 3
    assert len({r.body for r in target.received}) == 1  # the same message each time


@pytest.mark.parametrize(
    ("answer", "seconds"),
    [
        (Answer(429, {"Retry-After": "7"}), 7),
        (
            Answer(
                429,
                {"Content-Type": "application/json"},
                json.dumps({"message": "You are being rate limited.", "retry_after": 2.5}).encode(),
            ),
            2.5,
        ),
    ],
)
def test_it_waits_as_long_as_a_429_asks(
    table, target, django_capture_on_commit_callbacks, answer, seconds
):
    add_hook(table, target.url())
    target.answer(answer)

    delivery = news(table, django_capture_on_commit_callbacks)

    assert (delivery.status, delivery.response_code) == (Status.RETRYING, 429)
    assert delivery.next_try_at - delivery.last_tried_at == timedelta(seconds=seconds)


def test_it_queues_the_next_try_to_run_when_it_is_due(
    table, target, django_capture_on_commit_callbacks, settings
):
    """On a backend that can defer (the database's), the retry is a task to run after the
    wait; the dummy backend keeps what was queued, for the test to run."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    queued = tasks.deliver.get_backend().results
    add_hook(table, target.url())
    target.answer(Answer(503))
    with django_capture_on_commit_callbacks(execute=True):
        services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Dawn", text="..."
        )
    (announced,) = queued
    assert announced.task.name == "announce"

    tasks.announce.call(*announced.args)
    delivery = WebhookDelivery.objects.get()
    assert (queued[-1].task.name, queued[-1].args) == ("deliver", [delivery.pk])
    assert target.received == []  # the worker sends it, not the announcing task

    tasks.deliver.call(delivery.pk)
    delivery.refresh_from_db()
    retry = queued[-1]
    assert (retry.task.name, retry.args, retry.task.run_after) == (
        "deliver",
        [delivery.pk],
        delivery.next_try_at,
    )
    assert delivery.next_try_at > timezone.now()


def test_it_gives_up_after_the_bound_and_pauses_a_webhook_that_keeps_failing(
    table, target, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_MOST_TRIES = 2
    settings.WEBHOOK_PAUSE_AFTER = 2
    hook = add_hook(table, target.url())
    target.answer(*[Answer(500)] * 10)

    first = news(table, django_capture_on_commit_callbacks, title="One")
    assert tasks.deliver.call(first.pk) == Status.GAVE_UP
    first.refresh_from_db()
    assert (first.tries, first.next_try_at) == (2, None)
    hook.refresh_from_db()
    assert (hook.failures_in_row, hook.is_paused) == (1, False)

    second = news(table, django_capture_on_commit_callbacks, title="Two")
    assert tasks.deliver.call(second.pk) == Status.GAVE_UP

    hook.refresh_from_db()
    assert hook.is_paused
    assert hook.paused_reason.startswith("2 messages in a row could not be delivered")
    assert "500" in hook.paused_reason
    row = HistoryEntry.objects.get(action="webhook_paused")
    assert (row.actor, row.campaign) == (None, table.campaign)
    assert target.url() not in row.summary + row.reason

    sent = len(target.received)
    with django_capture_on_commit_callbacks(execute=True):
        services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Three", text="..."
        )
    assert len(target.received) == sent  # paused: nothing queued, nothing sent

    services.resume_webhook(actor=table.organiser, webhook=hook, reason="Fixed")
    hook.refresh_from_db()
    assert (hook.is_paused, hook.failures_in_row, hook.paused_reason) == (False, 0, "")


def test_it_skips_a_waiting_message_once_its_webhook_is_paused(
    table, target, django_capture_on_commit_callbacks
):
    hook = add_hook(table, target.url())
    target.answer(Answer(500))
    delivery = news(table, django_capture_on_commit_callbacks)
    services.pause_webhook(actor=table.organiser, webhook=hook, reason="Quiet week")

    assert tasks.deliver.call(delivery.pk) == Status.SKIPPED
    assert len(target.received) == 1


def test_it_never_follows_a_redirect(table, target, django_capture_on_commit_callbacks):
    add_hook(table, target.url())
    target.answer(Answer(302, {"Location": "http://169.254.169.254/latest/meta-data/"}))

    delivery = news(table, django_capture_on_commit_callbacks)

    assert (delivery.status, delivery.response_code) == (Status.FAILED, 302)
    assert "redirect" in delivery.error
    assert len(target.received) == 1


def test_it_does_not_try_again_after_a_404(table, target, django_capture_on_commit_callbacks):
    add_hook(table, target.url())
    target.answer(Answer(404))

    delivery = news(table, django_capture_on_commit_callbacks)

    assert (delivery.status, delivery.next_try_at) == (Status.FAILED, None)


def test_it_tries_again_when_nothing_answers(table, target, django_capture_on_commit_callbacks):
    add_hook(table, target.url())
    target.close()

    delivery = news(table, django_capture_on_commit_callbacks)

    assert (delivery.status, delivery.response_code) == (Status.RETRYING, None)
    assert delivery.error.startswith("Could not connect")


def test_it_tries_again_when_the_answer_is_too_slow(
    table, target, django_capture_on_commit_callbacks, settings, monkeypatch
):
    add_hook(table, target.url())

    def slow(*args, **kwargs):
        raise TimeoutError("timed out")

    monkeypatch.setattr("http.client.HTTPConnection.getresponse", slow)
    delivery = news(table, django_capture_on_commit_callbacks)

    assert (delivery.status, delivery.error) == (
        Status.RETRYING,
        "The address did not answer in time.",
    )


def test_it_costs_no_query_for_a_change_that_is_no_news(table):
    """Most changes are not news: the hook does not even look for webhooks."""
    add_hook(table, "https://93.184.216.34/hook")
    with CaptureQueriesContext(connection) as with_hook:
        services.update_force_details(actor=table.krieg.player, force=table.krieg, goals="Hold")
    Webhook.objects.all().delete()
    with CaptureQueriesContext(connection) as without:
        services.update_force_details(actor=table.krieg.player, force=table.krieg, goals="Take")
    assert len(with_hook) == len(without)
    assert not any("campaign_webhook" in q["sql"] for q in with_hook.captured_queries)


def test_it_costs_one_query_for_news_and_queues_nothing_without_a_webhook(
    table, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks() as queued,
        CaptureQueriesContext(connection) as done,
    ):
        services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Dawn", text="..."
        )
    looked = [q for q in done.captured_queries if "campaign_webhook" in q["sql"]]
    assert len(looked) == 1
    assert queued == []


def test_a_message_waits_for_its_change_to_commit(
    table, target, django_capture_on_commit_callbacks
):
    add_hook(table, target.url())
    with django_capture_on_commit_callbacks() as queued:
        services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Dawn", text="..."
        )
        assert target.received == []
    assert len(queued) == 1


def test_it_never_announces_the_past_a_restored_force_brings_with_it(table):
    copied = HistoryEntry(
        pk=1,
        action="log_entry_written",
        campaign_id=table.campaign.pk,
        imported_from={"action": "log_entry_written"},
    )
    fresh = HistoryEntry(pk=2, action="log_entry_written", campaign_id=table.campaign.pk)

    assert [a.rows for a in announcements([copied, fresh])] == [(2,)]
