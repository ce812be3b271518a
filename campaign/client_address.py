"""The address a request really came from: what login throttling counts attempts against.

Without a proxy (`BEHIND_PROXY` off) it is the connection's own address, REMOTE_ADDR, and
`X-Forwarded-For` is never read: any client can send that header.

Behind `TRUSTED_PROXY_COUNT` proxies of our own (`BEHIND_PROXY` on), each proxy appends
the address it was connected from to `X-Forwarded-For`, so the last entries are the ones
our proxies wrote and anything to their left is what the client claimed. The client's
address is the entry the outermost of our proxies appended: the TRUSTED_PROXY_COUNT-th
from the right. A header with fewer entries came through fewer proxies (a request to an
inner proxy directly), which only ever append: its leftmost entry is then the client.
An entry that is not an address (a typo'd proxy setting, garbage) counts as the
connection's own address, never as anyone else's.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _address(value: str) -> str | None:
    """`value` as a normalised IP address, or None. Accepts the forms proxies write:
    `203.0.113.7`, `2001:db8::1`, `[2001:db8::1]`, with or without `:port`."""
    value = value.strip()
    if value.startswith("["):  # [v6] or [v6]:port
        value = value[1:].partition("]")[0]
    elif value.count(":") == 1:  # v4:port
        value = value.partition(":")[0]
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


def trusted_proxy_count() -> int:
    """How many proxies of our own stand in front of the app (`TRUSTED_PROXY_COUNT`, 1
    when unset)."""
    count = getattr(settings, "TRUSTED_PROXY_COUNT", None)
    return 1 if count is None else count


def counted_as(address: str | None) -> str | None:
    """The address attempts are counted against: an IPv6 address by its /64 network (the
    block one household or server is given, so a new address from it is no new client),
    written as that network's first address; anything else as it is."""
    if address is None:
        return None
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:  # an IPv4 client on a dual-stack socket
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False).network_address)
    return str(parsed)


def client_address(request: HttpRequest) -> str | None:
    """The client's address, as described above (AXES_CLIENT_IP_CALLABLE)."""
    remote = request.META.get("REMOTE_ADDR")
    if not getattr(settings, "BEHIND_PROXY", False):
        return counted_as(remote)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    entries = [entry for entry in forwarded.split(",") if entry.strip()]
    count = trusted_proxy_count()
    if not entries or count < 1:
        return counted_as(remote)  # not through a proxy at all: the connection is the client
    chosen = entries[-count] if len(entries) >= count else entries[0]
    return counted_as(_address(chosen) or remote)
