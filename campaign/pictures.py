"""Uploaded pictures (unit pictures, force banners): checked, cleaned and resized with Pillow.

A file is accepted only if Pillow really opens it as JPEG, PNG or WebP. The size is
checked before decoding and the pixel count before loading, so a small file that
unpacks into a huge image (a decompression bomb) is refused without being decoded.
What is stored is a fresh JPEG without metadata, turned the right way up.
"""

from __future__ import annotations

import secrets
import warnings
from io import BytesIO

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 40_000_000
MAX_SIDE = 1600
THUMBNAIL_SIDE = 240
JPEG_QUALITY = 85
ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")

NOT_A_PICTURE = "That file is not a picture we can read. Upload a JPEG, PNG or WebP image."
TOO_MANY_PIXELS = "That picture is too big: the most we accept is 40 megapixels."


def _refuse(message: str, code: str) -> ValidationError:
    return ValidationError(message, code=code)


def _open(data: bytes) -> Image.Image:
    return Image.open(BytesIO(data), formats=ACCEPTED_FORMATS)


def _flatten(image: Image.Image) -> Image.Image:
    """RGB on a white background (transparent parts of PNG/WebP become white)."""
    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image.convert("RGB")


def _jpeg(image: Image.Image) -> bytes:
    out = BytesIO()
    # A fresh save with no exif/icc arguments: none of the original metadata is kept.
    image.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def process_upload(uploaded_file) -> tuple[ContentFile, ContentFile]:
    """Check and clean an uploaded picture; returns (picture, thumbnail) as JPEG files.

    Raises ValidationError with a message a player understands.
    """
    size = getattr(uploaded_file, "size", None)
    if size is not None and size > MAX_UPLOAD_BYTES:
        raise _refuse("That file is over 10 MB. Upload a smaller picture.", "too_large")
    uploaded_file.seek(0)
    data = uploaded_file.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise _refuse("That file is over 10 MB. Upload a smaller picture.", "too_large")
    if not data:
        raise _refuse("That file is empty.", "empty")

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = _open(data)
            if probe.format not in ACCEPTED_FORMATS:
                raise _refuse(NOT_A_PICTURE, "invalid")
            width, height = probe.size  # read from the header; nothing decoded yet
            if width * height > MAX_PIXELS:
                raise _refuse(TOO_MANY_PIXELS, "too_many_pixels")
            probe.verify()
            image = _open(data)
            image.load()
            image = ImageOps.exif_transpose(image)
            image = _flatten(image)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _refuse(TOO_MANY_PIXELS, "too_many_pixels") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise _refuse(NOT_A_PICTURE, "invalid") from None

    image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    thumb = image.copy()
    thumb.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE), Image.Resampling.LANCZOS)
    stem = secrets.token_hex(16)
    return (
        ContentFile(_jpeg(image), name=f"{stem}.jpg"),
        ContentFile(_jpeg(thumb), name=f"{stem}-thumb.jpg"),
    )
