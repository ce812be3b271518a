"""No way into the server's own network: an address inside a private network is refused
when the webhook is saved, next to the field, and again before each try, since what a
name resolves to can change."""

from __future__ import annotations

import socket

import pytest
from django.core.exceptions import ValidationError

from campaign import addresses, services
from campaign.models import WebhookDelivery

from .conftest import add_hook

pytestmark = pytest.mark.django_db


def resolving(monkeypatch, mapping: dict[str, str]) -> None:
    """Names resolve as ``mapping`` says (and no other is looked up)."""
    real = socket.getaddrinfo

    def fake(host, port, *args, **kwargs):
        if host in mapping:
            ip = mapping[host]
            family = socket.AF_INET6 if ":" in ip else socket.AF_INET
            return [(family, socket.SOCK_STREAM, 6, "", (ip, port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://10.1.2.3/hook",
        "https://192.168.0.10/hook",
        "https://172.16.0.1/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://100.64.0.1/hook",
        "https://0.0.0.0/hook",
        "https://224.0.0.1/hook",
        "https://240.0.0.1/hook",
        "https://[::1]/hook",
        "https://[::]/hook",
        "https://[fe80::1]/hook",
        "https://[fc00::1]/hook",
        "https://[ff02::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://[::ffff:10.0.0.1]/hook",
        "https://[2002:7f00:1::]/hook",
        "https://internal.example.org/hook",
    ],
)
def test_it_refuses_an_address_inside_a_private_network_when_saved(table, monkeypatch, url):
    resolving(monkeypatch, {"internal.example.org": "127.0.0.1"})

    with pytest.raises(ValidationError) as refused:
        add_hook(table, url)

    assert "private network" in " ".join(refused.value.message_dict["url"])


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://93.184.216.34/hook", "Only https"),
        ("https://93.184.216.34:8443/hook", "Port 8443"),
        ("https://user:pass@93.184.216.34/hook", "user name or password"),
        ("https://nowhere.invalid/hook", "could not be found"),
    ],
)
def test_it_refuses_plain_http_another_port_a_password_or_a_name_not_found(table, url, why):
    with pytest.raises(ValidationError) as refused:
        add_hook(table, url)

    assert why in " ".join(refused.value.message_dict["url"])


def test_it_refuses_a_name_with_any_private_address_among_its_addresses(table, monkeypatch):
    def both(host, port, *args, **kwargs):
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", both)

    with pytest.raises(ValidationError):
        add_hook(table, "https://chat.example.org/hook")


def test_it_takes_a_public_address_and_a_port_the_setting_allows(table, settings):
    assert add_hook(table, "https://93.184.216.34/api/webhooks/1/x").pk
    settings.WEBHOOK_ALLOWED_PORTS = [8443]
    assert add_hook(table, "https://93.184.216.34:8443/hook").pk


def test_it_refuses_a_change_to_a_private_address_too(table):
    hook = add_hook(table, "https://93.184.216.34/hook")

    with pytest.raises(ValidationError) as refused:
        services.change_webhook(actor=table.organiser, webhook=hook, url="https://10.0.0.1/")

    assert "url" in refused.value.message_dict
    hook.refresh_from_db()
    assert hook.url == "https://93.184.216.34/hook"


def test_it_checks_again_before_each_try_and_sends_nothing_once_the_name_moved_inside(
    table, target, monkeypatch, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_ALLOWED_PORTS = [target.port]
    resolving(monkeypatch, {"chat.example.org": "93.184.216.34"})
    add_hook(table, f"https://chat.example.org:{target.port}/hook")  # not yet tried
    resolving(monkeypatch, {"chat.example.org": "127.0.0.1"})  # the name now points home

    with django_capture_on_commit_callbacks(execute=True):
        services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Dawn", text="..."
        )

    delivery = WebhookDelivery.objects.get()
    assert delivery.status == WebhookDelivery.Status.FAILED
    assert "private network" in delivery.error
    assert target.received == []


def test_it_connects_to_the_address_it_checked_naming_the_host(
    table, target, monkeypatch, settings, django_capture_on_commit_callbacks
):
    """The connection goes to the address resolved and checked, with the host's name in
    the Host header (and for TLS): the name is not looked up a second time."""
    settings.WEBHOOK_ALLOWED_HOSTS = ["chat.example.org"]
    resolving(monkeypatch, {"chat.example.org": "127.0.0.1"})
    add_hook(table, f"http://chat.example.org:{target.port}/hook")
    looked_up = []
    real = socket.getaddrinfo

    def counted(host, *args, **kwargs):
        looked_up.append(host)
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", counted)

    with django_capture_on_commit_callbacks(execute=True):
        services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Dawn", text="..."
        )

    (sent,) = target.received
    assert sent.headers["Host"] == f"chat.example.org:{target.port}"
    assert looked_up.count("chat.example.org") == 1  # the check's only


def test_it_blocks_every_kind_of_inner_address():
    blocked = ["127.0.0.1", "10.0.0.1", "169.254.1.1", "::1", "::ffff:192.168.1.1", "fd00::1"]
    for ip in blocked:
        assert addresses.is_blocked(addresses.ipaddress.ip_address(ip)), ip
    assert not addresses.is_blocked(addresses.ipaddress.ip_address("93.184.216.34"))
    assert not addresses.is_blocked(addresses.ipaddress.ip_address("2606:4700::6810:85e5"))


def test_it_speaks_tls_to_the_checked_address_under_the_hosts_own_name(monkeypatch):
    """The https connection goes to the address checked, and the TLS handshake names the
    host (its certificate is checked against that name, not against the address)."""
    from campaign.webhooks import sending

    opened, wrapped = [], []

    def wrap_socket(context, sock, server_hostname):
        wrapped.append(server_hostname)
        return sock

    monkeypatch.setattr(sending.ssl.SSLContext, "wrap_socket", wrap_socket)
    monkeypatch.setattr(
        sending.socket, "create_connection", lambda address, timeout: opened.append(address)
    )

    sending._PinnedHTTPS("chat.example.org", 443, ip="93.184.216.34", timeout=5).connect()

    assert opened == [("93.184.216.34", 443)]
    assert wrapped == ["chat.example.org"]
