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
the uploads it accepts. A standard JPEG is decoded straight at 1/2, 1/4 or 1/8 of its size
(`Image.draft`), so a 40-megapixel photo costs what a 10-megapixel one would. A PNG, a
WebP or a progressive JPEG is decoded whole, so those have lower pixel limits. Then the
picture is flattened and reduced a strip at a time, so only the decoded image is ever
held at full size. And each server process decodes one picture at a time: uploads that
arrive together wait their turn (`DECODES_AT_ONCE`) instead of adding up.
"""

from __future__ import annotations

import contextlib
import logging
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
# standard JPEG is decoded at a fraction of its size; a progressive JPEG's decoder keeps
# every coefficient (6 bytes a pixel); PNG is decoded whole (4 bytes a pixel); WebP's
# decoder keeps two canvases besides the decoded copy it hands over (16 bytes a pixel).
MAX_MEGAPIXELS = {"JPEG": 40, "progressive JPEG": 20, "PNG": 20, "WebP": 12}
MAX_SIDE = 1600
THUMBNAIL_SIDE = 240
JPEG_QUALITY = 85
ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")
# Before the final resize the picture is reduced by a whole factor (a box average) to no
# less than this many times its final size; the resize's quality is kept from there.
REDUCING_GAP = 2.0
STRIP_ROWS = 128
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
        return _refuse(
            f"That picture is too big: the most we accept is {jpeg} ({others}).", "too_many_pixels"
        )
    limit = f"{MAX_MEGAPIXELS[kind]} megapixels for a {kind}"
    return _refuse(
        f"That {kind} is too big: the most we accept is {limit} ({jpeg}).", "too_many_pixels"
    )


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


def _flattened_and_reduced(image: Image.Image) -> Image.Image:
    """The decoded image in RGB on white, reduced by a whole factor towards its final size.

    Done a strip of rows at a time (strips of whole reduction boxes, so the result is the
    same), so no second full-size copy is ever made.
    """
    width, height = image.size
    final_width, final_height = _fitted(image.size, MAX_SIDE)
    factor = max(1, int(min(width / final_width, height / final_height) / REDUCING_GAP))
    reduced = Image.new("RGB", (-(-width // factor), -(-height // factor)))
    rows = factor * STRIP_ROWS
    for top in range(0, height, rows):
        strip = _flatten(image.crop((0, top, width, min(top + rows, height))))
        reduced.paste(strip.reduce(factor) if factor > 1 else strip, (0, top // factor))
    return reduced


def _turn_upright(image: Image.Image, orientation: int) -> None:
    """Apply the original's EXIF orientation to ``image`` (a new image, without metadata)."""
    image.getexif()[ExifTags.Base.Orientation] = orientation
    ImageOps.exif_transpose(image, in_place=True)


def _decode(data: bytes) -> Image.Image:
    """The picture in RGB, upright, at most MAX_SIDE a side; only one full-size copy."""
    with _open(data) as image:
        if _kind(image) == "JPEG":
            image.draft(None, _fitted(image.size, MAX_SIDE))  # decode at 1/2, 1/4 or 1/8
        image.load()
        orientation = image.getexif().get(ExifTags.Base.Orientation, 1)
        picture = _flattened_and_reduced(image)
    picture.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    _turn_upright(picture, orientation)
    return picture


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
            with _open(data) as probe:
                if probe.format not in ACCEPTED_FORMATS:
                    raise _refuse(NOT_A_PICTURE, "invalid")
                _check_pixels(probe)  # from the header; nothing decoded yet
                probe.verify()
            if not _decoding.acquire(timeout=DECODE_WAIT_SECONDS):
                raise _refuse(BUSY, "busy")
            try:
                picture = _decode(data)
            finally:
                _decoding.release()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels() from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise _refuse(NOT_A_PICTURE, "invalid") from None

    thumb = picture.copy()
    thumb.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE), Image.Resampling.LANCZOS)
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
