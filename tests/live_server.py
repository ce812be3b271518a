"""The test server answers one request at a time when the test database is in memory.

An in-memory SQLite database lives in one connection, so the live server's request
threads all share the test's connection. Two requests at once (a page's htmx check still
running while its form is sent) then run inside each other's transactions: a refusal's
rollback can be committed by the other thread, or a change rolled back. Browsers send such
pairs often, so on that database the server serves requests one after another, in its own
thread, which already uses the shared connection. On a database each thread opens for itself
(PostgreSQL, a file) the server stays threaded.
"""

from __future__ import annotations

from django.core.servers.basehttp import WSGIServer
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler


class OneAtATimeServer(WSGIServer):
    """Django's development server without threads. Django closes every connection after
    its response on it (persistent connections need a thread each); a longer queue keeps a
    browser's burst of parallel requests for a page's files waiting, not refused."""

    request_queue_size = 64


_threaded = LiveServerThread._create_server


def _create_server(self: LiveServerThread, connections_override=None):
    if not connections_override:
        return _threaded(self, connections_override)
    return OneAtATimeServer(
        (self.host, self.port), QuietWSGIRequestHandler, allow_reuse_address=False
    )


def install() -> None:
    """Make the live server answer one request at a time on a shared connection."""
    LiveServerThread._create_server = _create_server
