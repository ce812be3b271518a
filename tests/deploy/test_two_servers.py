"""Acceptance: past one machine. Two app servers (gunicorn, production settings) share one
PostgreSQL database and one S3-compatible bucket (moto, run locally), as two machines behind
a load balancer would; whichever one a player reaches, it is the same campaign.
"""

from __future__ import annotations

import contextlib
import re
import urllib.request
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from tests.concurrency.live import PageReader, Server, logged_in, running, scenario
from tests.concurrency.moves import buy_supply
from tests.deploy.object_store import ObjectStore

pytestmark = pytest.mark.postgresql

UPLOAD_SIZE = (2400, 1200)
PICTURE_SIZE = (1600, 800)  # campaign.pictures: at most 1600 pixels a side
THUMBNAIL_SIZE = (240, 120)  # and 240 for the thumbnail


@pytest.fixture
def two_servers(
    app_env: dict, object_store: ObjectStore, workdir: Path
) -> Iterator[tuple[Server, Server]]:
    """Servers A and B: the same database and bucket, each its own (unused) MEDIA_ROOT."""
    with contextlib.ExitStack() as stack:
        servers = []
        for name in ("a", "b"):
            env = {**app_env, **object_store.env(), "MEDIA_ROOT": str(workdir / f"media-{name}")}
            log = workdir / f"gunicorn-{name}.log"
            server = Server(env, log_path=log, threads=4, options=("--reuse-port",))
            servers.append(stack.enter_context(running(server)))
        yield servers[0], servers[1]
        for name, server in zip("AB", servers, strict=True):
            print(f"--- gunicorn log {name} ---\n{server.log()[-4000:]}")


def painted_png(size: tuple[int, int]) -> bytes:
    """A real PNG, as a player's photo of a painted model would be (only bigger than needed)."""
    image = Image.new("RGB", size, (92, 20, 24))
    draw = ImageDraw.Draw(image)
    draw.ellipse((size[0] // 4, size[1] // 4, size[0] * 3 // 4, size[1] * 3 // 4), fill="gold")
    out = BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def fetch_image(url: str) -> Image.Image:
    with urllib.request.urlopen(url, timeout=30) as response:
        assert response.status == 200, url
        image = Image.open(BytesIO(response.read()))
        image.load()
        return image


def test_it_shows_a_picture_uploaded_through_one_server_on_the_other(
    app_env: dict, object_store: ObjectStore, two_servers: tuple[Server, Server], workdir: Path
):
    """A card's picture uploaded through A is on the card as B serves it: in the bucket,
    resized (1600 pixels a side at most, a 240-pixel thumbnail), on neither server's disk."""
    a, b = two_servers
    owner = scenario(app_env, "picture_owner")
    unit = owner["units"][0]
    (on_a,) = logged_in(a, [owner["username"]])
    (on_b,) = logged_in(b, [owner["username"]])

    uploaded = on_a.post(
        f"/units/{unit}/picture/",
        files={"picture": ("painted.png", painted_png(UPLOAD_SIZE), "image/png")},
    )

    assert uploaded.status == 302, str(uploaded)
    card = on_b.get(f"/units/{unit}/")
    assert card.status == 200, str(card)
    page = PageReader(card.text)
    (picture_url,) = [url for url in page.links if url.startswith(object_store.endpoint)]
    (thumbnail_url,) = [url for url in page.images if url.startswith(object_store.endpoint)]
    picture, thumbnail = fetch_image(picture_url), fetch_image(thumbnail_url)
    assert (picture.format, picture.size) == ("JPEG", PICTURE_SIZE)
    assert (thumbnail.format, thumbnail.size) == ("JPEG", THUMBNAIL_SIZE)
    stored = object_store.keys()
    assert len(stored) == 2
    assert all(re.fullmatch(r"units/(thumbs/)?[0-9a-f]{32}(-thumb)?\.jpg", key) for key in stored)
    assert not [path for name in "ab" for path in workdir.glob(f"media-{name}/**/*.jpg")]


def test_it_shows_a_requisition_bought_through_one_server_on_the_other(
    app_env: dict, two_servers: tuple[Server, Server]
):
    """R6.1 bought through A (1RP, +200 Supply Limit) is on the Order of Battle B serves, to
    the same browser: its session, made on A, is good on B (sessions live in the database)."""
    a, b = two_servers
    side = scenario(app_env, "supply_race")
    (on_a,) = logged_in(a, [side["username"]])

    assert buy_supply(on_a, side["force"])

    on_b = b.player()
    on_b.cookies = dict(on_a.cookies)  # the load balancer sends the same browser to B
    page = on_b.get(f"/forces/{side['force']}/")
    assert page.status == 200, str(page)
    assert re.search(r'class="supply-limit">\s*1200\s*<', page.text)
    assert re.search(r'class="rp">\s*4\s*<', page.text)
