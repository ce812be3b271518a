"""No request waits on email: the request queues it in the database, and the worker
(`manage.py db_worker`) sends it, here to a mail server that takes 5 seconds to answer."""

from __future__ import annotations

import email
import io
import signal
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from campaign import notifications, services
from campaign.models import CampaignInvitation
from tests.factories import make_campaign, make_user

from .helpers import set_table

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
SLOW = 5  # seconds the mail server waits before it greets a connection


class SlowMailServer:
    """A tiny SMTP server on 127.0.0.1 that waits SLOW seconds before its greeting, then
    speaks just enough SMTP (EHLO, MAIL, RCPT, DATA, QUIT) to take messages."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.messages: list[tuple[list[str], email.message.Message]] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._talk, args=(conn,), daemon=True).start()

    def _talk(self, conn: socket.socket) -> None:
        with conn, conn.makefile("rb") as lines:
            time.sleep(SLOW)
            conn.sendall(b"220 localhost slow mail\r\n")
            recipients: list[str] = []
            for line in lines:
                command = line.decode().strip().upper()
                if command.startswith(("EHLO", "HELO")):
                    conn.sendall(b"250 localhost\r\n")
                elif command.startswith("MAIL FROM"):
                    recipients = []
                    conn.sendall(b"250 OK\r\n")
                elif command.startswith("RCPT TO"):
                    recipients.append(line.decode().split(":", 1)[1].strip().strip("<>"))
                    conn.sendall(b"250 OK\r\n")
                elif command == "DATA":
                    conn.sendall(b"354 End with .\r\n")
                    body = b"".join(iter(lines.readline, b".\r\n"))
                    self.messages.append((recipients, email.message_from_bytes(body)))
                    conn.sendall(b"250 Queued\r\n")
                elif command == "QUIT":
                    conn.sendall(b"221 Bye\r\n")
                    return
                else:
                    conn.sendall(b"250 OK\r\n")

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def slow_mail_server() -> Iterator[SlowMailServer]:
    server = SlowMailServer()
    with override_settings(
        EMAIL_ENABLED=True,
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=server.port,
        EMAIL_HOST_USER="",
        EMAIL_HOST_PASSWORD="",
        EMAIL_USE_TLS=False,
        EMAIL_USE_SSL=False,
        EMAIL_TIMEOUT=SLOW * 3,
        TASKS=DATABASE_TASKS,
    ):
        yield server
    server.close()


def run_worker() -> None:
    """The worker as production runs it, once: every task waiting, then it stops. It sets
    its own signal handlers (Ctrl+C stops it cleanly); the test's are put back."""
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        call_command(
            "db_worker", batch=True, startup_delay=False, reload=False, stdout=io.StringIO()
        )
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def record_form(side) -> dict:
    form = {"result": "win", "marked": "", "confirm": "1"}
    for entry in side.army.all():
        form |= {f"kills_{entry.pk}": 0, f"bonus_{entry.pk}": 0, f"reason_{entry.pk}": ""}
    return form


@pytest.mark.django_db(transaction=True)
def test_it_records_a_side_without_waiting_for_the_mail_server(client, slow_mail_server):
    """The recording answers at once; the opponent's 'your turn' email waits in the
    database until the worker runs, and the worker then sends it."""
    table = set_table()
    table.opponent.email = "talons@example.org"
    table.opponent.save()
    client.force_login(table.owner)

    started = time.monotonic()
    response = client.post(reverse("army_record", args=[table.mine.pk]), record_form(table.mine))
    took = time.monotonic() - started

    assert response.status_code == 302
    assert took < 2, f"the request took {took:.1f} s: it waited on the mail server"
    assert slow_mail_server.connections == 0
    assert DBTaskResult.objects.filter(status="READY").count() == 1

    run_worker()

    (recipients, message), *others = slow_mail_server.messages
    assert others == []
    assert recipients == ["talons@example.org"]
    assert message["Subject"] == "Your turn to record: Incursion battle (Take and Hold)"
    assert f"/battles/{table.battle.pk}/" in message.get_payload()
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


# The worker closes a connection left in a transaction (as between requests), so a test
# that runs it commits for real (transaction=True) rather than inside the test's atomic.
@pytest.mark.django_db(transaction=True)
@override_settings(
    EMAIL_ENABLED=True,
    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    TASKS=DATABASE_TASKS,
)
def test_it_sends_nothing_for_an_invitation_withdrawn_before_the_worker_runs(rf):
    organiser = make_user("warmaster")
    campaign = make_campaign(organiser=organiser)
    alice = make_user("alice", email="alice@example.org")
    invitation = services.invite_to_campaign(actor=organiser, user=alice, campaign=campaign)
    assert notifications.campaign_invitation_sent(rf.get("/"), invitation)
    services.withdraw_campaign_invitation(actor=organiser, invitation=invitation)

    run_worker()

    assert CampaignInvitation.objects.get().status == "withdrawn"
    assert mail.outbox == []
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


@pytest.mark.django_db
@override_settings(
    EMAIL_ENABLED=True,
    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    TASKS=DATABASE_TASKS,
)
def test_it_queues_nothing_when_the_change_is_rolled_back(rf, django_capture_on_commit_callbacks):
    organiser = make_user("warmaster")
    campaign = make_campaign(organiser=organiser)
    alice = make_user("alice", email="alice@example.org")
    with django_capture_on_commit_callbacks(execute=True) as queued, transaction.atomic():
        invitation = services.invite_to_campaign(actor=organiser, user=alice, campaign=campaign)
        notifications.campaign_invitation_sent(rf.get("/"), invitation)
        transaction.set_rollback(True)

    assert queued == []
    assert not DBTaskResult.objects.exists()
