"""Reading army lists from the apps players already use, as plain Python.

No Django here (like ``campaign.rules``): the import pages and the ``parse_roster``
command ask this package. ``parse_roster(data)`` recognises the format from the content
and returns a ``Roster`` of ``RosterUnit``s, or raises ``RosterError`` with one line
a player can read. Standard library plus ``defusedxml`` only.

Modules: `model` (the dataclasses), `parse` (format detection), `app_text`,
`newrecruit_text` and `battlescribe` (one per grammar), `_text` and `_build` (shared).
"""

from .battlescribe import MAX_MEMBERS, MAX_RATIO, MAX_UNZIPPED_BYTES
from .errors import ACCEPTED, RosterError
from .model import FORMAT_LABELS, ROLE_KEYWORDS, Roster, RosterUnit
from .parse import MAX_BYTES, parse_roster

__all__ = [
    "ACCEPTED",
    "FORMAT_LABELS",
    "MAX_BYTES",
    "MAX_MEMBERS",
    "MAX_RATIO",
    "MAX_UNZIPPED_BYTES",
    "ROLE_KEYWORDS",
    "Roster",
    "RosterError",
    "RosterUnit",
    "parse_roster",
]
