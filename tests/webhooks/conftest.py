"""A local HTTP server standing in for Discord or a group's own address, allowed by the
test's `WEBHOOK_ALLOWED_HOSTS`, and a campaign of two forces ready to fight."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from campaign import services
from campaign.models import Webhook
from tests.factories import make_campaign, make_user
from tests.services.cards import (
    commissar,
    krieg_force,
    krieg_squad,
    lord_of_contagion,
    plague_force,
    plague_marines,
)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class Answer:
    status: int = 204
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


class Target:
    """The server: what it received, and the answers it gives in turn (then 204s)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.answers: list[Answer] = []
        target = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the standard library's name
                length = int(self.headers.get("Content-Length", "0"))
                target.received.append(
                    Received(self.path, dict(self.headers.items()), self.rfile.read(length))
                )
                answer = target.answers.pop(0) if target.answers else Answer()
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def answer(self, *answers: Answer) -> None:
        self.answers.extend(answers)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def target(settings):
    settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    settings.SITE_URL = "https://crusade.example.org"
    server = Target()
    yield server
    server.close()


@dataclass
class Table:
    organiser: object
    campaign: object
    krieg: object
    plague: object
    leader: object
    squad: object
    rival_leader: object
    rival_squad: object


@pytest.fixture
def table(db) -> Table:
    organiser = make_user("warmaster", is_staff=True)
    campaign = make_campaign(organiser=organiser, name="Vraks")
    krieg = krieg_force(campaign=campaign)
    plague = plague_force(campaign=campaign)
    return Table(
        organiser,
        campaign,
        krieg,
        plague,
        commissar(krieg),
        krieg_squad(krieg),
        lord_of_contagion(plague),
        plague_marines(plague),
    )


def add_hook(table: Table, url: str, *, kind=Webhook.Kind.DISCORD, **boxes) -> Webhook:
    return services.add_webhook(
        actor=table.organiser, campaign=table.campaign, name="Chat", url=url, kind=kind, **boxes
    )
