"""Where a webhook may post: never into the server's own network.

An address must be https, on port 443 (or a port `WEBHOOK_ALLOWED_PORTS` names), and its
host must not be, or resolve to, a loopback, private, shared, link-local, multicast,
reserved or unspecified address, in IPv4 or IPv6 (an IPv4 address inside IPv6, mapped,
6to4 or Teredo, is checked as the IPv4 address it carries). Hosts that
`WEBHOOK_ALLOWED_HOSTS` names are allowed anyway, plain http and any port included: a
self-hoster's own chat server, or the tests' local server.

The model checks an address when it is saved (`validate_address`: the message is shown
next to the field), and the worker again before each try (`check`), because what a name
resolves to can change: it resolves the name, checks every address it gets, and then
connects to the checked address itself, with the host's name in the Host header and for
TLS (`campaign.webhooks.sending`), so a second look-up cannot swap the address between
the check and the connection.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(ValueError):
    """An address a webhook may not post to; the message says why, for the organiser."""


@dataclass(frozen=True)
class Target:
    """A checked address: where to connect (``ips``, each checked) and what to ask for."""

    scheme: str
    host: str
    port: int
    path: str
    ips: tuple[str, ...]


def allowed_anyway(host: str) -> bool:
    return host.lower() in {h.lower() for h in settings.WEBHOOK_ALLOWED_HOSTS}


def _carried(ip: Address) -> Address:
    """The IPv4 address an IPv6 one carries (mapped, 6to4, Teredo), else the address."""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return ip.ipv4_mapped
        if ip.sixtofour is not None:
            return ip.sixtofour
        if ip.teredo is not None:
            return ip.teredo[1]
    return ip


def is_blocked(ip: Address) -> bool:
    """Whether ``ip`` is one no webhook may reach (see the module's doc)."""
    for one in {ip, _carried(ip)}:
        if (
            one.is_loopback
            or one.is_private
            or one.is_link_local
            or one.is_multicast
            or one.is_reserved
            or one.is_unspecified
            or not one.is_global
        ):
            return True
    return False


def _split(url: str) -> tuple[str, str, int, str]:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise Refused("That is not a web address a webhook can have.") from error
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if not host or scheme not in ("http", "https"):
        raise Refused("Give the whole address, starting with https://.")
    if parts.username is not None or parts.password is not None:
        raise Refused("An address with a user name or password in it is not accepted.")
    if port is None:
        port = 443 if scheme == "https" else 80
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return scheme, host, port, path


def _resolve(host: str, port: int) -> list[Address]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise Refused(f"The host {host} could not be found.") from error
    ips = []
    for *_, sockaddr in found:
        ip = ipaddress.ip_address(sockaddr[0].split("%", 1)[0])
        if ip not in ips:
            ips.append(ip)
    if not ips:
        raise Refused(f"The host {host} could not be found.")
    return ips


def check(url: str) -> Target:
    """The address ``url`` names, resolved and checked; `Refused` says why it may not be."""
    scheme, host, port, path = _split(url)
    ips = _resolve(host, port)
    if allowed_anyway(host):
        return Target(scheme, host, port, path, tuple(str(ip) for ip in ips))
    if scheme != "https":
        raise Refused("Only https addresses are accepted.")
    if port != 443 and port not in settings.WEBHOOK_ALLOWED_PORTS:
        raise Refused(f"Port {port} is not accepted: use an address on the usual port, 443.")
    for ip in ips:
        if is_blocked(ip):
            raise Refused(
                f"{host} is an address inside a private network ({ip}); only addresses on "
                "the public internet are accepted."
            )
    return Target(scheme, host, port, path, tuple(str(ip) for ip in ips))


def validate_address(url: str) -> None:
    """The model field's validator: the reason an address is refused, next to the field."""
    try:
        check(url)
    except Refused as refused:
        raise ValidationError(str(refused), code="webhook_address") from refused
