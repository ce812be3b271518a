"""The one exception the pack validator raises."""

from __future__ import annotations

from ..jsonfiles import FileProblems


class PackError(FileProblems):
    """A file is not a good content pack: ``problems`` are lines "place: rule"."""
