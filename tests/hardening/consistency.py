"""What a database says about itself, read inside the app's settings (through
`manage.py shell`, see `state`): its integrity, and every number the services store beside
what the rows they come from say it should be."""

from __future__ import annotations

import json

from django.db import connection

from campaign.models import CrusadeForce, Unit
from campaign.services._common import force_totals
from tests.concurrency.live import manage
from tests.concurrency.scenarios import report


def state(env: dict) -> dict:
    """The state of the database the environment `env` points at."""
    code = "from tests.hardening import consistency; consistency.main()"
    out = manage(env, "shell", "--no-imports", "--command", code)
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA integrity_check")
        (integrity,) = cursor.fetchone()
    forces = list(CrusadeForce.objects.order_by("pk"))
    totals = [
        {
            "force": force.pk,
            "stored": {name: getattr(force, name) for name in CrusadeForce.TOTAL_FIELDS},
            "derived": force_totals(force),
        }
        for force in forces
    ]
    found = {"integrity": integrity, "units": Unit.objects.count(), "totals": totals}
    print(json.dumps({**found, **report([force.pk for force in forces])}))
