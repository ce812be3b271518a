"""One try of one message: checked, signed, posted, and what the answer means.

The standard library only (`http.client`): the connection goes to an address checked
just before (`addresses.check`), with the host's own name in the Host header and for
TLS (server name and certificate), so the name is never looked up a second time between
the check and the connection. A redirect is an answer like any other, never followed.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import socket
import ssl
from dataclasses import dataclass

from django.conf import settings

from campaign import addresses

SIGNATURE_HEADER = "X-Crusade-Signature"
USER_AGENT = "CrusadeTracker-Webhooks/1"
MOST_WAIT = 3600
"""Most seconds a Retry-After is honoured for: a longer wait is cut to an hour."""


def signature(secret: str, body: bytes) -> str:
    """The header's value: ``sha256=`` and the HMAC-SHA256 of the raw body, in hex."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Outcome:
    """What one try came to: delivered, worth trying again (after ``wait`` seconds when
    the address said how long), or refused for good."""

    delivered: bool
    retry: bool
    code: int | None = None
    error: str = ""
    wait: float | None = None


class _PinnedHTTP(http.client.HTTPConnection):
    """A connection to ``ip`` that names ``host`` (in the Host header)."""

    def __init__(self, host: str, port: int, *, ip: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._ip = ip

    def connect(self) -> None:
        self.sock = socket.create_connection((self._ip, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """A TLS connection to ``ip`` that names ``host``: Host header, server name and the
    certificate checked against it."""

    def __init__(self, host: str, port: int, *, ip: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._ip = ip

    def connect(self) -> None:
        sock = socket.create_connection((self._ip, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _retry_after(response: http.client.HTTPResponse, text: bytes) -> float | None:
    """Seconds to wait: the Retry-After header, or Discord's JSON ``retry_after``."""
    header = response.getheader("Retry-After")
    if header:
        try:
            return min(max(float(header), 0.0), MOST_WAIT)
        except ValueError:
            pass
    try:
        value = json.loads(text or b"{}").get("retry_after")
    except (ValueError, AttributeError):
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return min(max(float(value), 0.0), MOST_WAIT)
    return None


def judge(code: int, response: http.client.HTTPResponse, text: bytes) -> Outcome:
    """What an answer means for the message."""
    if 200 <= code < 300:
        return Outcome(True, False, code)
    if code == 429:
        wait = _retry_after(response, text)
        return Outcome(False, True, code, "The address asked us to slow down.", wait)
    if 300 <= code < 400:
        return Outcome(False, False, code, "The address answered with a redirect: not followed.")
    if code >= 500:
        return Outcome(False, True, code, f"The address answered {code}: a fault at its end.")
    return Outcome(
        False, False, code, f"The address refused the message ({code}): check the address."
    )


def post(url: str, body: bytes, headers: dict[str, str]) -> Outcome:
    """Post ``body`` to ``url`` once, after checking the address again."""
    try:
        target = addresses.check(url)
    except addresses.Refused as refused:
        return Outcome(False, False, None, str(refused))
    connection_class = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    connection = connection_class(
        target.host, target.port, ip=target.ips[0], timeout=settings.WEBHOOK_TIMEOUT
    )
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **headers,
    }
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read(4096)
        return judge(response.status, response, text)
    except TimeoutError:
        return Outcome(False, True, None, "The address did not answer in time.")
    except ssl.SSLError as error:
        return Outcome(False, True, None, f"The secure connection failed: {error.reason}.")
    except (OSError, http.client.HTTPException) as error:
        return Outcome(False, True, None, f"Could not connect: {type(error).__name__}.")
    finally:
        connection.close()
