"""`make bench-uploads`: how much memory the server needs for a picture upload.

Starts the app as production runs it (gunicorn, `campaign.settings`, DEBUG=0, 2 workers x
8 threads) on a temporary SQLite file, logs in as a player and uploads generated pictures
to a Crusade card: one at a time, then four at once. A fresh server serves each case.
Memory is read from /proc, no extra packages: before each case every worker's peak is
reset (`clear_refs`), and afterwards the case costs the sum over the workers of the peak
resident size (VmHWM) above what that worker used when idle (VmRSS).

Timings and memory are measured here, never asserted in tests; tests/hardening/ checks
that every case is accepted or refused as the table says.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw

from tests.concurrency.live import (
    Player,
    Response,
    Server,
    all_at_once,
    manage,
    production_env,
    running,
    scenario,
    temporary_directory,
)

MB = 1024 * 1024
WORKERS, THREADS = 2, 8
ORIENTATION = 0x0112


def photo(size: tuple[int, int]) -> Image.Image:
    """Smooth colours and rings: decodes like a camera photo, compresses far smaller."""
    red = Image.linear_gradient("L").resize(size)
    green = Image.radial_gradient("L").resize(size)
    image = Image.merge("RGB", (red, green, red.transpose(Image.Transpose.ROTATE_180)))
    draw = ImageDraw.Draw(image)
    width, height = size
    for n in range(40):
        left, top = n * width // 50, n * height // 60
        box = (left, top, left + width // 8, top + height // 8)
        draw.ellipse(box, outline=(n * 6, 200 - n * 3, 90), width=20)
    return image


def transparent(size: tuple[int, int]) -> Image.Image:
    """A red disc on a transparent background: huge once decoded, tiny as a PNG."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    width, height = size
    ImageDraw.Draw(image).ellipse((width // 4, height // 4, width * 3 // 4, height * 3 // 4), "red")
    return image


def encoded(image: Image.Image, fmt: str, **options) -> bytes:
    out = BytesIO()
    image.save(out, format=fmt, **options)
    return out.getvalue()


def camera_jpeg(size: tuple[int, int]) -> bytes:
    """A baseline JPEG with an EXIF orientation, as a phone saves it."""
    exif = Image.Exif()
    exif[ORIENTATION] = 6
    return encoded(photo(size), "JPEG", quality=90, exif=exif.tobytes())


def progressive_jpeg(size: tuple[int, int]) -> bytes:
    """A progressive JPEG without chroma subsampling: the most a JPEG decoder keeps."""
    return encoded(photo(size), "JPEG", quality=90, progressive=True, subsampling=0)


def transparent_png(size: tuple[int, int]) -> bytes:
    return encoded(transparent(size), "PNG")


def transparent_webp(size: tuple[int, int]) -> bytes:
    return encoded(transparent(size), "WEBP", lossless=True, method=0)


@dataclass(frozen=True)
class Picture:
    """One generated upload: what it is, how to make it, and what the app should answer."""

    label: str
    make: Callable[[tuple[int, int]], bytes]
    size: tuple[int, int]
    content_type: str
    accepted: bool

    @property
    def megapixels(self) -> float:
        return self.size[0] * self.size[1] / 1_000_000

    @property
    def filename(self) -> str:
        return "upload." + self.content_type.split("/")[1]

    @cache  # noqa: B019 (a handful of module-level constants, generated once each)
    def data(self) -> bytes:
        return self.make(self.size)


CAMERA_JPEG = Picture("24 MP JPEG (camera)", camera_jpeg, (6000, 4000), "image/jpeg", True)
LARGEST_JPEG = Picture("40 MP JPEG", camera_jpeg, (7745, 5164), "image/jpeg", True)
PROGRESSIVE_JPEG = Picture(
    "20 MP progressive JPEG, 4:4:4", progressive_jpeg, (5477, 3651), "image/jpeg", True
)
LARGEST_PNG = Picture("20 MP RGBA PNG", transparent_png, (5477, 3651), "image/png", True)
LARGEST_WEBP = Picture("12 MP RGBA WebP", transparent_webp, (4242, 2828), "image/webp", True)
HUGE_PNG = Picture("39.7 MP RGBA PNG", transparent_png, (7720, 5143), "image/png", False)
HUGE_WEBP = Picture("20 MP RGBA WebP", transparent_webp, (5477, 3651), "image/webp", False)
HUGE_PROGRESSIVE_JPEG = Picture(
    "39.7 MP progressive JPEG", progressive_jpeg, (7720, 5143), "image/jpeg", False
)
PICTURES = (
    CAMERA_JPEG,
    LARGEST_JPEG,
    PROGRESSIVE_JPEG,
    LARGEST_PNG,
    LARGEST_WEBP,
    HUGE_PNG,
    HUGE_WEBP,
    HUGE_PROGRESSIVE_JPEG,
)


@dataclass(frozen=True)
class Case:
    label: str
    uploads: tuple[Picture, ...]
    target_mb: int


CASES = (
    Case("one 24 MP JPEG", (CAMERA_JPEG,), 150),
    *(Case(f"one {p.label}", (p,), 250) for p in PICTURES[1:]),
    Case("four 39.7 MP RGBA PNGs at once", (HUGE_PNG,) * 4, 800),
    Case("four 12 MP RGBA WebPs at once", (LARGEST_WEBP,) * 4, 800),
    Case(
        "four largest accepted at once",
        (LARGEST_JPEG, PROGRESSIVE_JPEG, LARGEST_PNG, LARGEST_WEBP),
        800,
    ),
)


# --------------------------------------------------------------------------- memory


def status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise LookupError(f"{field} not in /proc/{pid}/status")


def workers_of(master: int) -> list[int]:
    """The gunicorn workers: every process whose parent is the master."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == master:
            found.append(int(entry.name))
    return sorted(found)


def reset_peaks(pids: list[int]) -> None:
    for pid in pids:
        Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM := VmRSS


# --------------------------------------------------------------------------- one case


@dataclass
class Outcome:
    idle_mb: float
    peak_mb: float
    statuses: list[int | str]
    seconds: float


def upload(player: Player, unit: int, picture: Picture) -> Response:
    files = {"picture": (picture.filename, picture.data(), picture.content_type)}
    return player.post(f"/units/{unit}/picture/", files=files)


def warm_up(server: Server, players: list[Player], unit: int) -> None:
    """Every worker has served pages and a small upload, so imports are not counted."""
    small = Picture("small", camera_jpeg, (400, 300), "image/jpeg", True)
    for _ in range(3):
        all_at_once([lambda p=p: upload(p, unit, small) for p in players])
        all_at_once([lambda p=p: p.get(f"/units/{unit}/") for p in players])


def run_case(case: Case, env: dict, owner: dict, workdir: Path) -> Outcome:
    server = Server(env, log_path=workdir / "gunicorn.log", workers=WORKERS, threads=THREADS)
    unit = owner["units"][0]
    with running(server):
        players = [server.player() for _ in range(max(4, len(case.uploads)))]
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda p: p.login(owner["username"]), players))
        warm_up(server, players, unit)
        workers = workers_of(server.process.pid)
        time.sleep(0.5)
        idle = {pid: status_kb(pid, "VmRSS") for pid in workers}
        reset_peaks(workers)
        started = time.monotonic()
        calls = [
            lambda p=p, pic=pic: upload(p, unit, pic)
            for p, pic in zip(players, case.uploads, strict=False)
        ]
        outcomes = all_at_once(calls)
        seconds = time.monotonic() - started
        peak = sum(status_kb(pid, "VmHWM") - idle[pid] for pid in workers)
    statuses = [o.status if isinstance(o, Response) else type(o).__name__ for o in outcomes]
    return Outcome(sum(idle.values()) / 1024, peak / 1024, statuses, seconds)


def expected_statuses(case: Case) -> list[int]:
    return [302 if picture.accepted else 400 for picture in case.uploads]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="run only cases whose name has this")
    args = parser.parse_args()
    cases = [c for c in CASES if not args.case or any(a in c.label for a in args.case)]
    print(f"gunicorn: {WORKERS} workers x {THREADS} threads; peak resident memory above idle")
    for picture in {p for case in cases for p in case.uploads}:
        print(f"  {picture.label}: {len(picture.data()) / 1024:,.0f} KB file")
    failed = 0
    with temporary_directory("crusade-bench-uploads-") as workdir:
        static = workdir / "static"
        env = production_env(
            f"sqlite:///{workdir / 'db.sqlite3'}", static_root=static, media_root=workdir / "m"
        )
        manage(env, "collectstatic", "--noinput")
        manage(env, "migrate", "--noinput")
        owner = scenario(env, "picture_owner")
        header = f"{'case':<40} {'idle':>8} {'peak':>8} {'target':>8}  answers"
        print(header)
        for case in cases:
            outcome = run_case(case, env, owner, workdir)
            met = outcome.peak_mb <= case.target_mb and outcome.statuses == expected_statuses(case)
            failed += not met
            print(
                f"{case.label:<40} {outcome.idle_mb:6.0f}MB {outcome.peak_mb:6.0f}MB "
                f"{case.target_mb:6d}MB  {outcome.statuses} in {outcome.seconds:.1f}s  "
                f"{'MET' if met else 'NOT MET'}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
