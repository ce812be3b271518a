"""The worker as production runs it (`manage.py db_worker`, the database backend): the
news waits in the database until it runs, and a retry waits until it is due."""

from __future__ import annotations

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from campaign import services
from campaign.models import WebhookDelivery
from tests.views.test_email_worker import DATABASE_TASKS, run_worker

from .conftest import Answer, add_hook


# The worker closes a connection left in a transaction, so the test commits for real.
@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_the_news_and_tries_again_only_once_it_is_due(table, target, settings):
    settings.TASKS = DATABASE_TASKS
    settings.WEBHOOK_RETRY_SECONDS = 60
    add_hook(table, target.url())
    target.answer(Answer(500))

    services.write_log_entry(
        actor=table.krieg.player, campaign=table.campaign, title="Dawn", text="The guns."
    )
    assert target.received == []  # queued, not sent by the change
    assert DBTaskResult.objects.filter(status="READY").count() == 1

    run_worker()

    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.tries) == (WebhookDelivery.Status.RETRYING, 1)
    retry = DBTaskResult.objects.get(status="READY")
    assert retry.run_after == delivery.next_try_at
    run_worker()  # not due yet: nothing is tried
    assert len(target.received) == 1

    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())
    run_worker()

    delivery.refresh_from_db()
    assert (delivery.status, delivery.tries) == (WebhookDelivery.Status.DELIVERED, 2)
    assert len(target.received) == 2
