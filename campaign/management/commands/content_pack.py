"""`manage.py content_pack validate|import|export`: content pack files from the command line.

- ``validate PATH``: prints "PATH: a good content pack: NAME (counts)" and exits 0, or
  prints each problem ("place: rule") and exits 2.
- ``import PATH [--campaign ID]``: stores the pack (in the library, or as the campaign's
  own, enabled there) through `services.import_pack`; exit 0 naming the pack and its
  counts, or 2 with every problem, and nothing saved.
- ``export SLUG [--campaign ID]``: the pack file on stdout (``core``: the core rules).
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from campaign.packs import (
    CORE_SLUG,
    MAX_BYTES,
    SECTIONS,
    Pack,
    PackError,
    core_pack_text,
    load_pack,
)


def counts(pack: Pack) -> str:
    """The sections a pack fills, with how many items each holds."""
    filled = [
        f"{section.replace('_', ' ')}: {len(getattr(pack, section))}"
        for section in SECTIONS
        if getattr(pack, section)
    ]
    return ", ".join(filled) or "empty"


def refuse(message: str) -> CommandError:
    return CommandError(message, returncode=2)


class Command(BaseCommand):
    help = "Work with content pack files (JSON; see docs/content-pack.schema.json)."

    def add_arguments(self, parser) -> None:
        subcommands = parser.add_subparsers(dest="subcommand", required=True)
        validate = subcommands.add_parser(
            "validate", help="check a pack file and list every problem in it"
        )
        validate.add_argument("path", help="the pack file (JSON)")
        load = subcommands.add_parser(
            "import", help="store a pack file in the library, or as a campaign's own"
        )
        load.add_argument("path", help="the pack file (JSON)")
        load.add_argument(
            "--campaign", type=int, help="the campaign's id (the pack is enabled there)"
        )
        export = subcommands.add_parser("export", help="write a stored pack's file to stdout")
        export.add_argument("slug", help=f"the pack's slug ({CORE_SLUG} for the core rules)")
        export.add_argument("--campaign", type=int, help="the campaign's id, for its own pack")

    def handle(self, *args, subcommand: str, **options) -> None:
        if subcommand == "validate":
            self.validate(options["path"])
        elif subcommand == "import":
            self.load(options["path"], options.get("campaign"))
        elif subcommand == "export":
            self.export(options["slug"], options.get("campaign"))

    def read(self, path: str) -> bytes:
        try:
            with Path(path).open("rb") as handle:
                return handle.read(MAX_BYTES + 1)
        except OSError as error:
            raise refuse(f"{path}: can't read it: {error.strerror}") from error

    def validate(self, path: str) -> None:
        data = self.read(path)
        try:
            pack = load_pack(data)
        except PackError as error:
            raise refuse("\n".join(f"{path}: {problem}" for problem in error.problems)) from error
        self.stdout.write(f"{path}: a good content pack: {pack.pack.name} ({counts(pack)})")

    def campaign(self, campaign_id: int | None):
        from campaign.models import Campaign

        if campaign_id is None:
            return None
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise refuse(f"There is no campaign with the id {campaign_id}.")
        return campaign

    def load(self, path: str, campaign_id: int | None) -> None:
        from campaign import services

        data = self.read(path)
        campaign = self.campaign(campaign_id)
        try:
            pack = load_pack(data)
        except PackError as error:
            raise refuse("\n".join(f"{path}: {problem}" for problem in error.problems)) from error
        try:
            stored = services.import_pack(actor=None, data=data, campaign=campaign)
        except ValidationError as error:
            raise refuse("\n".join(f"{path}: {m}" for m in error.messages)) from error
        where = f"campaign {campaign.name} (enabled there)" if campaign else "the library"
        self.stdout.write(
            f"{path}: imported {stored.name} ({stored.slug}) into {where} ({counts(pack)})"
        )

    def export(self, slug: str, campaign_id: int | None) -> None:
        from campaign.models import ContentPack
        from campaign.selectors.packs import export_pack

        if slug == CORE_SLUG:
            self.stdout.write(core_pack_text(), ending="")
            return
        campaign = self.campaign(campaign_id)
        found = ContentPack.objects.filter(slug=slug)
        if campaign is not None:
            found = found.filter(campaign=campaign)
        stored = list(found.select_related("campaign")[:20])
        if not stored:
            where = f" in campaign {campaign.name}" if campaign else ""
            raise refuse(f'There is no pack with the slug "{slug}"{where}.')
        if len(stored) > 1:
            places = ", ".join(
                f"{p.campaign.name} (--campaign {p.campaign_id})" if p.campaign else "the library"
                for p in stored
            )
            raise refuse(
                f'Several packs have the slug "{slug}": {places}. Say which with --campaign ID.'
            )
        try:
            text = export_pack(stored[0])
        except ValidationError as error:
            raise refuse(" ".join(error.messages)) from error
        self.stdout.write(text, ending="")
