"""`manage.py parse_roster PATH`: print what the roster importer reads from a file, as JSON.

Exit status 2 with a one-line reason on stderr when the file can't be read.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.rosters import MAX_BYTES, Roster, RosterError, parse_roster

UNIT_KEYS = (
    "name",
    "datasheet",
    "points",
    "models",
    "character",
    "epic_hero",
    "battleline",
    "dedicated_transport",
    "enhancement",
    "enhancement_points",
    "warlord",
)
ROSTER_KEYS = ("format", "name", "faction", "detachment", "battle_size", "total_points")


def roster_as_json(roster: Roster) -> dict[str, object]:
    """The command's output: exactly these keys, in this order."""
    result: dict[str, object] = {key: getattr(roster, key) for key in ROSTER_KEYS}
    result["units"] = [{key: getattr(unit, key) for key in UNIT_KEYS} for unit in roster.units]
    return result


class Command(BaseCommand):
    help = "Parse an army list file (app text, New Recruit text/JSON, .ros/.rosz); print JSON."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="the exported army list file")

    def handle(self, *args, path: str, **options) -> None:
        try:
            with Path(path).open("rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(f"Can't read {path}: {error.strerror}", returncode=2) from error
        try:
            roster = parse_roster(data, filename=Path(path).name)
        except RosterError as error:
            raise CommandError(error.message, returncode=2) from error
        self.stdout.write(json.dumps(roster_as_json(roster), indent=2))
