"""`manage.py campaign_map validate|import|export`: campaign map files from the command line.

- ``validate PATH``: prints "PATH: a good campaign map: NAME (N territories)" and exits 0,
  or prints each problem ("place: rule") and exits 2.
- ``import PATH --campaign ID``: gives a campaign with no territories the map, through
  `services.import_map`; exit 0 naming the map, or 2 with every problem, nothing saved.
- ``export --campaign ID``: the campaign's map file on stdout (what import reads back).
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from campaign import maps, services
from campaign.models import Campaign
from campaign.selectors.territories import map_file_text


def refuse(message: str) -> CommandError:
    return CommandError(message, returncode=2)


class Command(BaseCommand):
    help = "Work with campaign map files (JSON; see docs/campaign-map.schema.json)."

    def add_arguments(self, parser) -> None:
        subcommands = parser.add_subparsers(dest="subcommand", required=True)
        validate = subcommands.add_parser(
            "validate", help="check a map file and list every problem in it"
        )
        validate.add_argument("path", help="the map file (JSON)")
        load = subcommands.add_parser("import", help="give a campaign with no map this map")
        load.add_argument("path", help="the map file (JSON)")
        load.add_argument("--campaign", type=int, required=True, help="the campaign's id")
        export = subcommands.add_parser("export", help="write a campaign's map file to stdout")
        export.add_argument("--campaign", type=int, required=True, help="the campaign's id")

    def handle(self, *args, subcommand: str, **options) -> None:
        if subcommand == "validate":
            self.validate(options["path"])
        elif subcommand == "import":
            self.load(options["path"], options["campaign"])
        elif subcommand == "export":
            self.stdout.write(map_file_text(self.campaign(options["campaign"])), ending="")

    def read(self, path: str) -> bytes:
        try:
            with Path(path).open("rb") as handle:
                return handle.read(maps.MAX_BYTES + 1)
        except OSError as error:
            raise refuse(f"{path}: can't read it: {error.strerror}") from error

    def check(self, path: str, data: bytes) -> maps.CampaignMap:
        try:
            return maps.load_map(data)
        except maps.MapError as error:
            raise refuse("\n".join(f"{path}: {problem}" for problem in error.problems)) from error

    def validate(self, path: str) -> None:
        read = self.check(path, self.read(path))
        self.stdout.write(
            f"{path}: a good campaign map: {read.map.name} ({len(read.territories)} territories)"
        )

    def campaign(self, campaign_id: int) -> Campaign:
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise refuse(f"There is no campaign with the id {campaign_id}.")
        return campaign

    def load(self, path: str, campaign_id: int) -> None:
        data = self.read(path)
        campaign = self.campaign(campaign_id)
        read = self.check(path, data)
        try:
            made = services.import_map(actor=None, campaign=campaign, data=data)
        except ValidationError as error:
            lines = [line for m in error.messages for line in m.splitlines()]
            raise refuse("\n".join(f"{path}: {line}" for line in lines)) from error
        self.stdout.write(
            f"{path}: imported the map {read.map.name} into {campaign.name} "
            f"({len(made)} territories)"
        )
