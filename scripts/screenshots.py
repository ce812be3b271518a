"""Take the README's screenshots in docs/ from the demo campaign (the one `make run` loads).

    .venv/bin/python -m scripts.screenshots        (or `make screenshots`)

The demo is built afresh in a throwaway SQLite file and served by gunicorn as production
runs it (the live tests' `Server`, `tests/concurrency/live.py`); Debian's Chromium (the one
the browser tests drive) visits the pages as the demo player alice, at 1280 px and at
375 px (a phone), and saves one PNG per page.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.concurrency.live import (
    Server,
    manage,
    production_env,
    running,
    sqlite_file_database,
    temporary_directory,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PLAYER = "alice"
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}

PAGES = f"""
import json
from django.urls import reverse
from campaign.models import BattleParticipant, CrusadeForce, Unit
force = CrusadeForce.objects.get(player__username={PLAYER!r})
unit = Unit.objects.filter(force=force).order_by("-xp").first()
side = BattleParticipant.objects.filter(force=force, battle__status="in_progress").first()
pages = {{
    "order-of-battle": reverse("force_detail", args=[force.pk]),
    "campaign": reverse("campaign_detail", args=[force.campaign_id]),
    "crusade-card-page": reverse("unit_detail", args=[unit.pk]),
    "campaign-map": reverse("campaign_detail", args=[force.campaign_id]),
    "campaign-map-on-a-phone": reverse("campaign_detail", args=[force.campaign_id]),
    "campaign-log": reverse("campaign_log", args=[force.campaign_id]),
}}
if side is not None:
    pages["record-on-a-phone"] = reverse("army_record", args=[side.pk])
print(json.dumps(pages))
"""
"""The paths worth a picture, read in the demo's database: alice's force, her most
experienced card, and her side of the battle the demo leaves in progress; the campaign's
map (on its own, wide and on a phone) and its log."""

PARTS = {"campaign-map": ".campaign-map", "campaign-map-on-a-phone": ".campaign-map"}
"""Pictures of one part of a page: the part's CSS selector."""


def build_demo(env: dict[str, str]) -> dict[str, str]:
    """Migrate and load the demo in the throwaway database; the paths worth a picture."""
    manage(env, "collectstatic", "--noinput")
    manage(env, "migrate", "--noinput")
    manage(env, "load_demo")
    out = manage(env, "shell", "--no-imports", "--command", PAGES)
    return json.loads(out.strip().splitlines()[-1])


def shoot(base: str, pages: dict[str, str]) -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True)
        page = browser.new_page(viewport=WIDE)
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=username]", PLAYER)
        page.fill("input[name=password]", "crusade-demo")
        page.click("button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        for name, path in pages.items():
            page.set_viewport_size(PHONE if name.endswith("phone") else WIDE)
            page.goto(f"{base}{path}")
            picture = str(DOCS / f"{name}.png")
            if name in PARTS:
                page.locator(PARTS[name]).screenshot(path=picture)
            else:
                page.screenshot(path=picture, full_page=True)
            print(f"docs/{name}.png: {path}")
        browser.close()


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    with temporary_directory("crusade-screens-") as tmp, sqlite_file_database(tmp) as url:
        env = production_env(url, static_root=tmp / "static", media_root=tmp / "media")
        pages = build_demo(env)
        with running(Server(env, log_path=tmp / "server.log")) as server:
            shoot(server.url, pages)


if __name__ == "__main__":
    main()
