"""Pictures within a memory budget: what `make bench-uploads` sends, accepted or refused with
the limit named; one picture decoded at a time in a process, the others waiting their turn.

Memory itself is measured by the benchmark (scripts/bench_uploads.py), never asserted here.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from campaign import pictures
from scripts.bench_uploads import (
    CAMERA_JPEG,
    HUGE_PNG,
    HUGE_PROGRESSIVE_JPEG,
    HUGE_WEBP,
    PICTURES,
    Picture,
)
from tests.concurrency.live import all_at_once


def processed(picture: Picture) -> tuple[Image.Image, Image.Image]:
    files = pictures.process_upload(SimpleUploadedFile(picture.filename, picture.data()))
    return tuple(Image.open(file) for file in files)


@pytest.mark.parametrize(
    "picture", [p for p in PICTURES if p.accepted], ids=lambda picture: picture.label
)
def test_it_stores_every_picture_the_benchmark_accepts_at_most_1600_pixels_a_side(picture):
    stored, thumbnail = processed(picture)
    assert (stored.format, stored.mode) == ("JPEG", "RGB")
    assert max(stored.size) == pictures.MAX_SIDE
    assert max(thumbnail.size) == pictures.THUMBNAIL_SIDE


def test_it_turns_the_camera_jpeg_upright_from_its_reduced_decoding():
    stored, _ = processed(CAMERA_JPEG)
    assert CAMERA_JPEG.size == (6000, 4000)  # EXIF: rotate 90 degrees clockwise to view
    assert stored.size == (1067, 1600)


REFUSALS = {
    HUGE_PNG: "That PNG is too big: the most we accept is 20 megapixels for a PNG",
    HUGE_WEBP: "That WebP is too big: the most we accept is 12 megapixels for a WebP",
    HUGE_PROGRESSIVE_JPEG: (
        "That progressive JPEG is too big: the most we accept is 20 megapixels for a "
        "progressive JPEG"
    ),
}


def test_it_knows_why_each_picture_the_benchmark_expects_refused_is_refused():
    assert set(REFUSALS) == {picture for picture in PICTURES if not picture.accepted}


@pytest.mark.parametrize(("picture", "message"), REFUSALS.items(), ids=[p.label for p in REFUSALS])
def test_it_refuses_the_oversize_ones_naming_the_limit(picture, message):
    with pytest.raises(ValidationError) as refused:
        processed(picture)
    assert refused.value.code == "too_many_pixels"
    assert refused.value.message.startswith(message)
    assert "(40 megapixels for a standard JPEG photo)" in refused.value.message


def small_jpeg() -> SimpleUploadedFile:
    return SimpleUploadedFile("small.jpg", CAMERA_JPEG.make((400, 300)))


def test_it_decodes_one_picture_at_a_time_and_the_others_wait_their_turn(monkeypatch):
    decode, lock = pictures._decode, threading.Lock()
    decoding, most = 0, 0

    def watched(data: bytes) -> Image.Image:
        nonlocal decoding, most
        with lock:
            decoding += 1
            most = max(most, decoding)
        time.sleep(0.05)  # long enough for the others to arrive
        with lock:
            decoding -= 1
        return decode(data)

    monkeypatch.setattr(pictures, "_decode", watched)
    uploads = [small_jpeg() for _ in range(4)]
    outcomes = all_at_once([lambda u=u: pictures.process_upload(u) for u in uploads])
    assert all(isinstance(outcome, tuple) for outcome in outcomes), outcomes
    assert most == pictures.DECODES_AT_ONCE == 1


def test_it_asks_to_try_again_when_other_pictures_keep_the_server_busy(monkeypatch):
    monkeypatch.setattr(pictures, "DECODE_WAIT_SECONDS", 0.01)
    for _ in range(pictures.DECODES_AT_ONCE):
        pictures._decoding.acquire()  # other uploads, being decoded
    try:
        with pytest.raises(ValidationError, match="busy with other pictures") as refused:
            pictures.process_upload(small_jpeg())
    finally:
        for _ in range(pictures.DECODES_AT_ONCE):
            pictures._decoding.release()
    assert refused.value.code == "busy"
    assert pictures.process_upload(small_jpeg())  # and then it is its turn
