"""Uploaded pictures (unit pictures, force banners): checked, cleaned and resized with Pillow.

A file is accepted only if Pillow really opens it as JPEG, PNG or WebP. The size is
checked before decoding and the pixel count before loading, so a small file that
unpacks into a huge image (a decompression bomb) is refused without being decoded.
What is stored is a fresh JPEG without metadata, turned the right way up.

Files follow the database: a service writes the new files inside its transaction
(`kept_if_committed`); the files they replace are deleted once it commits, and the new
ones as soon as it fails. (A caller's own, enclosing transaction that rolls back later
leaves the new files behind: `manage.py clean_media` removes those.)

Memory: a decoded picture takes 4 bytes a pixel, so the server's memory is what limits
the uploads it accepts. A JPEG is decoded straight at 1/2, 1/4 or 1/8 of its size
(`Image.draft`), so a 40-megapixel photo costs what a few megapixels would. A PNG, a
WebP or a progressive JPEG is decoded whole, so those have lower pixel limits. Then the
picture is flattened and resized a strip at a time, so only the decoded image is ever
held at full size. And each server process decodes one picture at a time: uploads that
arrive together wait their turn (`DECODES_AT_ONCE`) instead of adding up.
"""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
import threading
import warnings
from collections.abc import Iterator
from functools import partial
from io import BytesIO

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile, File
from django.core.files.storage import Storage
from django.db import transaction
from django.db.models import Model
from PIL import ExifTags, Image, ImageOps, UnidentifiedImageError

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
# The most megapixels accepted for each kind of file, from what decoding one costs: a
# JPEG is decoded at a fraction of its size, but a progressive JPEG's decoder first keeps
# every coefficient of the whole image (up to 6 bytes a pixel); PNG is decoded whole (4
# bytes a pixel); WebP's decoder keeps two canvases besides the copy it hands over (16).
MAX_MEGAPIXELS = {"JPEG": 40, "progressive JPEG": 20, "PNG": 20, "WebP": 12}
MAX_SIDE = 1600
THUMBNAIL_SIDE = 240
JPEG_QUALITY = 85
ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")
STRIP_ROWS = 64  # rows of the resized picture made at a time
LANCZOS = Image.Resampling.LANCZOS
LANCZOS_SUPPORT = 3  # the filter's reach, in pixels of the result
DECODES_AT_ONCE = 1
DECODE_WAIT_SECONDS = 30

NOT_A_PICTURE = "That file is not a picture we can read. Upload a JPEG, PNG or WebP image."
TOO_LARGE = "That file is over 10 MB. Upload a smaller picture."
BUSY = "The server is busy with other pictures right now. Please try again in a minute."

_decoding = threading.BoundedSemaphore(DECODES_AT_ONCE)
logger = logging.getLogger(__name__)


def _refuse(message: str, code: str) -> ValidationError:
    return ValidationError(message, code=code)


def _open(data: bytes) -> Image.Image:
    return Image.open(BytesIO(data), formats=ACCEPTED_FORMATS)


def _kind(image: Image.Image) -> str:
    """What the file is, as its pixel limit (and a player) names it."""
    if image.format == "JPEG":
        return "progressive JPEG" if image.info.get("progressive") else "JPEG"
    return {"PNG": "PNG", "WEBP": "WebP"}[image.format]


def _too_many_pixels(kind: str = "JPEG") -> ValidationError:
    """The limit for this kind of file, and the standard JPEG's beside it."""
    jpeg = f"{MAX_MEGAPIXELS['JPEG']} megapixels for a standard JPEG photo"
    if kind == "JPEG":
        others = ", ".join(f"{mp} for a {k}" for k, mp in MAX_MEGAPIXELS.items() if k != kind)
        message = f"That picture is too big: the most we accept is {jpeg} ({others})."
    else:
        limit = f"{MAX_MEGAPIXELS[kind]} megapixels for a {kind}"
        message = f"That {kind} is too big: the most we accept is {limit} ({jpeg})."
    return _refuse(message, "too_many_pixels")


def _check_pixels(image: Image.Image) -> None:
    """Refuse too many pixels, from the header's size: nothing is decoded yet."""
    kind = _kind(image)
    if image.width * image.height > MAX_MEGAPIXELS[kind] * 1_000_000:
        raise _too_many_pixels(kind)


def _fitted(size: tuple[int, int], side: int) -> tuple[int, int]:
    """``size`` shrunk (never enlarged) to fit in a ``side`` x ``side`` square."""
    scale = min(1.0, side / max(size))
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def _flatten(image: Image.Image) -> Image.Image:
    """RGB on a white background (transparent parts of PNG/WebP become white)."""
    if not image.has_transparency_data:
        return image.convert("RGB")
    rgba = image.convert("RGBA")
    background = Image.new("RGB", rgba.size, (255, 255, 255))
    background.paste(rgba, mask=rgba)
    return background


def _resized_in_strips(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The decoded image in RGB on white, resized to ``size``, a strip of rows at a time:
    only the strip (with the rows the filter reaches around it) is ever copied, flattened
    and resampled, so no second full-size copy of the image is made."""
    width, height = image.size
    scale = height / size[1]
    reach = math.ceil(LANCZOS_SUPPORT * max(scale, 1.0)) + 1  # source rows a filter reaches
    resized = Image.new("RGB", size)
    for top in range(0, size[1], STRIP_ROWS):
        bottom = min(top + STRIP_ROWS, size[1])
        first = max(0, math.floor(top * scale) - reach)
        last = min(height, math.ceil(bottom * scale) + reach)
        strip = _flatten(image.crop((0, first, width, last)))
        box = (0, top * scale - first, width, bottom * scale - first)
        resized.paste(strip.resize((size[0], bottom - top), LANCZOS, box=box), (0, top))
    return resized


def _turn_upright(image: Image.Image, orientation: int) -> None:
    """Apply the original's EXIF orientation to ``image`` (a new image, without metadata)."""
    image.getexif()[ExifTags.Base.Orientation] = orientation
    ImageOps.exif_transpose(image, in_place=True)


def _decode(data: bytes) -> Image.Image:
    """The picture in RGB, upright, at most MAX_SIDE a side. The decoded image is the only
    full-size copy ever made."""
    with _open(data) as image:
        if image.format == "JPEG":
            image.draft(None, _fitted(image.size, MAX_SIDE))  # decode at 1/2, 1/4 or 1/8
        image.load()
        orientation = image.getexif().get(ExifTags.Base.Orientation, 1)
        picture = _resized_in_strips(image, _fitted(image.size, MAX_SIDE))
    _turn_upright(picture, orientation)
    return picture


def _decode_in_turn(data: bytes) -> Image.Image:
    """`_decode`, once fewer than DECODES_AT_ONCE other pictures are being decoded."""
    if not _decoding.acquire(timeout=DECODE_WAIT_SECONDS):
        raise _refuse(BUSY, "busy")
    try:
        return _decode(data)
    finally:
        _decoding.release()


def _jpeg(image: Image.Image) -> bytes:
    out = BytesIO()
    # A fresh save with no exif/icc arguments: none of the original metadata is kept.
    image.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def _read(uploaded_file) -> bytes:
    size = getattr(uploaded_file, "size", None)
    if size is not None and size > MAX_UPLOAD_BYTES:
        raise _refuse(TOO_LARGE, "too_large")
    uploaded_file.seek(0)
    data = uploaded_file.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise _refuse(TOO_LARGE, "too_large")
    if not data:
        raise _refuse("That file is empty.", "empty")
    return data


def process_upload(uploaded_file) -> tuple[ContentFile, ContentFile]:
    """Check and clean an uploaded picture; returns (picture, thumbnail) as JPEG files.

    Raises ValidationError with a message a player understands.
    """
    data = _read(uploaded_file)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = _open(data)  # reads the header only
        with probe:
            if probe.format not in ACCEPTED_FORMATS:
                raise _refuse(NOT_A_PICTURE, "invalid")
            _check_pixels(probe)  # from the header; nothing decoded yet
            probe.verify()
        picture = _decode_in_turn(data)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels() from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise _refuse(NOT_A_PICTURE, "invalid") from None

    thumb = picture.copy()
    thumb.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE), LANCZOS)
    stem = secrets.token_hex(16)
    return (
        ContentFile(_jpeg(picture), name=f"{stem}.jpg"),
        ContentFile(_jpeg(thumb), name=f"{stem}-thumb.jpg"),
    )


def delete_files(files: list[tuple[Storage, str]]) -> None:
    """Delete stored files; one that cannot be deleted is logged and left for clean_media."""
    for storage, name in files:
        try:
            storage.delete(name)
        except Exception:
            logger.exception("Could not delete %s; manage.py clean_media will.", name)


class WrittenFiles:
    """The files a service writes while its transaction is open."""

    def __init__(self) -> None:
        self.written: list[tuple[Storage, str]] = []

    def replace(self, obj: Model, field: str, content: File) -> str:
        """Write ``content`` to storage as ``obj``'s ``field`` (the row is not saved here);
        the file it replaces is deleted once the transaction commits. Returns the replaced
        file's name, "" if there was none."""
        current = getattr(obj, field)
        replaced = current.name or ""
        current.save(content.name, content, save=False)
        self.written.append((current.storage, current.name))
        if replaced:
            transaction.on_commit(partial(delete_files, [(current.storage, replaced)]))
        return replaced


@contextlib.contextmanager
def kept_if_committed() -> Iterator[WrittenFiles]:
    """Around a service's ``transaction.atomic()`` block, outside it: the files written with
    ``files.replace(...)`` are deleted again if the block fails, in its body or at commit.

        with pictures.kept_if_committed() as files, transaction.atomic():
            files.replace(unit, "picture", picture)
            unit.save(update_fields=["picture"])
    """
    files = WrittenFiles()
    try:
        yield files
    except BaseException:
        delete_files(files.written)
        raise
