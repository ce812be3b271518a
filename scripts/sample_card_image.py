"""Draw docs/crusade-card.png, the README's sample of a card as a picture: a card of the
demo campaign (the one `make run` loads), built afresh in a throwaway SQLite file.

    .venv/bin/python scripts/sample_card_image.py [unit name] [output.png]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNIT = "Aurelian the Blade"
OUTPUT = ROOT / "docs" / "crusade-card.png"


def main(unit_name: str = UNIT, output: Path = OUTPUT) -> None:
    with tempfile.TemporaryDirectory(prefix="crusade-sample-") as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/demo.sqlite3"
        os.environ["MEDIA_ROOT"] = tmp
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        from campaign.card_image import render_card
        from campaign.demo import build_demo_campaign
        from campaign.management.commands.load_demo import ensure_demo_users
        from campaign.models import Unit
        from campaign.selectors import card_image_facts

        call_command("migrate", verbosity=0)
        build_demo_campaign(ensure_demo_users())
        unit = Unit.objects.select_related("force__campaign").get(name=unit_name)
        output.write_bytes(render_card(card_image_facts(unit)))
    print(f"{output}: {unit_name}")


if __name__ == "__main__":
    main(*sys.argv[1:2], *(Path(arg) for arg in sys.argv[2:3]))
