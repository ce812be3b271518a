"""The one exception the pack validator raises."""

from __future__ import annotations


class PackError(Exception):
    """A file is not a good content pack: ``problems`` are lines "place: rule"."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems

    def __str__(self) -> str:
        return "\n".join(self.problems)
