"""`manage.py content_pack validate PATH`: check a content pack file.

Prints "PATH: a good content pack: NAME (counts)" and exits 0, or prints each problem
("place: rule") and exits 2. Subcommands, so that import and export can join it.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.packs import MAX_BYTES, SECTIONS, Pack, PackError, load_pack


def counts(pack: Pack) -> str:
    """The sections a pack fills, with how many items each holds."""
    filled = [
        f"{section.replace('_', ' ')}: {len(getattr(pack, section))}"
        for section in SECTIONS
        if getattr(pack, section)
    ]
    return ", ".join(filled) or "empty"


class Command(BaseCommand):
    help = "Work with content pack files (JSON; see docs/content-pack.schema.json)."

    def add_arguments(self, parser) -> None:
        subcommands = parser.add_subparsers(dest="subcommand", required=True)
        validate = subcommands.add_parser(
            "validate", help="check a pack file and list every problem in it"
        )
        validate.add_argument("path", help="the pack file (JSON)")

    def handle(self, *args, subcommand: str, **options) -> None:
        if subcommand == "validate":
            self.validate(options["path"])

    def validate(self, path: str) -> None:
        try:
            with Path(path).open("rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(f"{path}: can't read it: {error.strerror}", returncode=2) from error
        try:
            pack = load_pack(data)
        except PackError as error:
            raise CommandError(
                "\n".join(f"{path}: {problem}" for problem in error.problems), returncode=2
            ) from error
        self.stdout.write(f"{path}: a good content pack: {pack.pack.name} ({counts(pack)})")
