"""What each new database connection is set up with.

PostgreSQL prepares a query once a connection has run it five times
(`settings.DATABASES`, ``prepare_threshold``), and psycopg keeps a connection's last 100
prepared statements, dropping the oldest for each new one. A served process asks far more
than 100 different queries: a page's reads, the services' writes, the admin's lists. Every
page's queries were then dropped before they were asked again, so each was prepared,
planned and dropped over and over, about a millisecond each where a prepared one takes a
few tenths. `DATABASE_PREPARED_MAX` is how many a connection keeps.
"""

from __future__ import annotations

from django.conf import settings


def set_up(sender, connection, **kwargs) -> None:
    """`connection_created`: a PostgreSQL connection keeps `DATABASE_PREPARED_MAX` of its
    prepared statements."""
    if connection.vendor != "postgresql":
        return
    if connection.settings_dict.get("OPTIONS", {}).get("prepare_threshold") is None:
        return  # no statement is prepared (behind a pooler in transaction mode)
    connection.connection.prepared_max = settings.DATABASE_PREPARED_MAX
