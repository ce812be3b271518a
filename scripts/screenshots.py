"""Take the README's screenshots in docs/ from the demo campaign (the one `make run` loads).

    .venv/bin/python -m scripts.screenshots        (or `make screenshots`)

The demo is built afresh in a throwaway SQLite file and served by `runserver` on a free
port; Debian's Chromium (the one the browser tests drive) visits the pages as the demo
player alice, at 1280 px and at 375 px (a phone), and saves one PNG per page.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PLAYER = "alice"
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def build_demo(env: dict[str, str]) -> dict[str, str]:
    """Migrate and load the demo in the throwaway database; the paths worth a picture."""
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.urls import reverse

    from campaign.models import BattleParticipant, CrusadeForce, Unit

    call_command("migrate", verbosity=0)
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    force = CrusadeForce.objects.get(player__username=PLAYER)
    unit = Unit.objects.filter(force=force).order_by("-xp").first()
    side = BattleParticipant.objects.filter(force=force, battle__status="in_progress").first()
    pages = {
        "order-of-battle": reverse("force_detail", args=[force.pk]),
        "campaign": reverse("campaign_detail", args=[force.campaign_id]),
        "crusade-card-page": reverse("unit_detail", args=[unit.pk]),
    }
    if side is not None:
        pages["record-on-a-phone"] = reverse("army_record", args=[side.pk])
    return pages


def serve(env: dict[str, str], port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("screenshots: the server did not start")


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
            page.screenshot(path=str(DOCS / f"{name}.png"), full_page=True)
            print(f"docs/{name}.png: {path}")
        browser.close()


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="crusade-screens-") as tmp:
        env = {
            "DATABASE_URL": f"sqlite:///{tmp}/demo.sqlite3",
            "MEDIA_ROOT": tmp,
            "DJANGO_SETTINGS_MODULE": "campaign.settings",
            "DEBUG": "1",
        }
        pages = build_demo(env)
        port = free_port()
        server = serve(env, port)
        try:
            shoot(f"http://127.0.0.1:{port}", pages)
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
