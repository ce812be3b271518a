"""A cheap fingerprint of the Crusade state, to tell that a refused request changed
nothing: the history, every force's and unit's numbers, the battles, their sides and
what waits after them, and a count of every other table.

Not every column: a change the services make always leaves a history row and moves one
of these numbers or statuses, so comparing them is enough and stays fast.

The tables are read from the app, not listed here, so a model added later is counted
without anyone remembering to add it.
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection

from campaign import models

ROWS = {
    models.CrusadeForce: (
        "name",
        "rp",
        "supply_limit",
        "battle_tally",
        *models.CrusadeForce.TOTAL_FIELDS,
    ),
    models.Unit: ("name", "status", "xp", "points", "model_count", "max_model_count"),
    models.Battle: ("status",),
    models.BattleParticipant: ("invitation", "mustered", "claimed_result", "result"),
    models.OutOfActionTest: ("status", "roll", "outcome"),
    models.Promotion: ("status",),
    models.CampaignInvitation: ("status",),
}
"""The rows that change in place: their numbers and statuses are compared, column by
column."""

NOT_STATE = (models.UsedFormToken, models.PlayerSettings, models.SignedInSession)
"""Left out: a used form's token (`campaign.once`) is bookkeeping, not Crusade state; so
is a player's own settings row (`campaign.players`), which the dashboard makes and moves
on as the player reads it, on GET too (its email choices are tested on their own), and a
browser's session (`campaign.sessions`), which Django saves whenever its data changes."""


def counted() -> list[type]:
    """The rows that are only ever added, so their counts are compared: every other
    model of the app, and the users."""
    app = apps.get_app_config("campaign")
    others = [m for m in app.get_models() if m not in ROWS and m not in NOT_STATE]
    return [*others, get_user_model()]


def fingerprint() -> tuple:
    """The state as a value: equal before and after means nothing changed. Plain SQL, one
    query per table of ROWS and one for every count: it runs after most requests."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        rows = []
        for model, columns in ROWS.items():
            fields = [model._meta.pk, *(model._meta.get_field(c) for c in columns)]
            names = ", ".join(quote(field.column) for field in fields)
            cursor.execute(f"SELECT {names} FROM {quote(model._meta.db_table)} ORDER BY 1")
            rows.append(tuple(cursor.fetchall()))
        tables = [model._meta.db_table for model in counted()]
        counts = ", ".join(f"(SELECT COUNT(*) FROM {quote(table)})" for table in tables)
        cursor.execute(f"SELECT {counts}")
        return (*rows, *cursor.fetchone())


def difference(before: tuple, after: tuple) -> list[str]:
    """What changed, by table, for a failure message."""
    names = [model.__name__ for model in (*ROWS, *counted())]
    return [
        f"{name}: {old!r} -> {new!r}"
        for name, old, new in zip(names, before, after, strict=True)
        if old != new
    ]
