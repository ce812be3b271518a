"""What a PostgreSQL connection is set up with (`campaign.connections`, the settings):
each prepared query is planned once, and a connection keeps the prepared queries of every
page it serves, not only the last hundred."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from campaign.models import Campaign

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db]


def test_a_prepared_query_is_planned_once_for_any_values():
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == ("force_generic_plan",)


def test_the_planner_reads_by_index_as_from_memory():
    """Rows in memory: a read by an index costs about a read of the next row."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        assert cursor.fetchone() == ("1.1",)


def test_a_connection_keeps_more_prepared_queries_than_a_server_asks():
    connection.ensure_connection()
    assert connection.connection.prepared_max == settings.DATABASE_PREPARED_MAX >= 500
    # Run 150 different queries six times each: all of them stay prepared.
    for _ in range(6):
        for number in range(150):
            list(Campaign.objects.filter(pk=number).values_list("pk")[: number + 1])
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cursor.fetchone()[0] >= 150
