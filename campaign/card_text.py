"""Text for the card picture in several fonts: each character in the first font that has it.

Pure drawing: no Django here. DejaVu Sans draws Latin, Greek and Cyrillic; the Noto
subsets in campaign/fonts/ (see its README) draw Chinese, Japanese and Korean, and emoji.
A line of text is split into runs, one per font, measured and drawn one after another on
a shared baseline, so a name that mixes scripts is measured (for wrapping and "…") as it
is drawn.

Which characters a font has is read from its ``cmap`` table once per file (a small reader
below: Pillow has no call for it, and drawing a character to compare with the empty box
is slower and unsure for spaces).

The emoji font is Noto Color Emoji, a colour bitmap font that FreeType draws at one size
only (`EMOJI_NATIVE` pixels): an emoji run is drawn at that size and scaled to the line.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"
CJK = FONTS / "NotoSansCJK-Regular-subset.otf"
EMOJI = FONTS / "NotoColorEmoji-subset.ttf"
EMOJI_NATIVE = 109
"""The one size (pixels per em) Noto Color Emoji's bitmaps are drawn at."""
EMOJI_SCALE = 0.9
"""An emoji's height against the line's font size (its bitmaps are taller than an em)."""
IGNORABLE = {"\u200d", *map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0x1F3FB, 0x1F400))}
"""The zero-width joiner, the variation selectors and the skin tones: never drawn on
their own (the emoji subset has no skin tones: an emoji with one is drawn without it)."""


@cache
def characters(path: Path) -> frozenset[int]:
    """The code points the font at ``path`` maps to a glyph, from its ``cmap`` table."""
    data = path.read_bytes()
    (tables,) = struct.unpack_from(">H", data, 4)
    cmap = next(
        offset
        for tag, offset in (
            struct.unpack_from(">4s4xI4x", data, 12 + 16 * i) for i in range(tables)
        )
        if tag == b"cmap"
    )
    (subtables,) = struct.unpack_from(">H", data, cmap + 2)
    found: dict[int, int] = {}
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if platform == 3 or platform == 0:
            (kind,) = struct.unpack_from(">H", data, cmap + offset)
            found.setdefault(kind, cmap + offset)
    if 12 in found:
        return _format_12(data, found[12])
    return _format_4(data, found[4])


def _format_12(data: bytes, at: int) -> frozenset[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    out: set[int] = set()
    for i in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
        out.update(code for code in range(first, last + 1) if glyph + code - first)
    return frozenset(out)


def _format_4(data: bytes, at: int) -> frozenset[int]:
    (doubled,) = struct.unpack_from(">H", data, at + 6)
    count = doubled // 2
    ends = struct.unpack_from(f">{count}H", data, at + 14)
    starts = struct.unpack_from(f">{count}H", data, at + 16 + doubled)
    deltas = struct.unpack_from(f">{count}h", data, at + 16 + 2 * doubled)
    ranges_at = at + 16 + 3 * doubled
    offsets = struct.unpack_from(f">{count}H", data, ranges_at)
    out: set[int] = set()
    for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
        for code in range(start, min(end, 0xFFFE) + 1):
            if offsets[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                where = ranges_at + 2 * i + offsets[i] + 2 * (code - start)
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                out.add(code)
    return frozenset(out)


@dataclass(frozen=True)
class _Font:
    path: Path
    size: int
    emoji: bool = False
    bolden: int = 0
    """Pixels of outline that stand in for a bold weight the font does not ship."""

    @property
    def face(self) -> ImageFont.FreeTypeFont:
        return _loaded(self.path, EMOJI_NATIVE if self.emoji else self.size)

    @property
    def scale(self) -> float:
        return self.size * EMOJI_SCALE / EMOJI_NATIVE if self.emoji else 1.0

    def has(self, character: str) -> bool:
        return ord(character) in characters(self.path)

    def length(self, text: str) -> float:
        return self.face.getlength(text) * self.scale


@cache
def _loaded(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


class Face:
    """A font size and weight whose text falls back, character by character, from DejaVu
    Sans to Noto Sans CJK to Noto Color Emoji. It measures as a Pillow font does
    (`getlength`), so the fitting of text into lines works on it unchanged."""

    def __init__(self, size: int, *, bold: bool = False) -> None:
        self.size = size
        self.fonts = (
            _Font(BOLD if bold else REGULAR, size),
            _Font(CJK, size, bolden=max(1, size // 40) if bold else 0),
            _Font(EMOJI, size, emoji=True),
        )
        self.primary = self.fonts[0]

    @property
    def path(self) -> str:
        return str(self.primary.path)

    def runs(self, text: str) -> list[tuple[_Font, str]]:
        """``text`` cut into runs of characters drawn by one font each: a character goes to
        the first font that has it (with U+FE0F after it, to the emoji font first); one
        that no font has stays with the font before it (and draws as an empty box)."""
        runs: list[tuple[_Font, str]] = []
        for index, character in enumerate(text):
            if character in IGNORABLE or character.isspace():
                # Joiners, selectors and spaces stay in the run before them if its font
                # has them; a selector no font before it has is left out.
                if runs and runs[-1][0].has(character):
                    runs[-1] = (runs[-1][0], runs[-1][1] + character)
                    continue
                if character in IGNORABLE:
                    continue
            as_emoji = text[index + 1 : index + 2] == "\ufe0f"
            order = (self.fonts[2], *self.fonts[:2]) if as_emoji else self.fonts
            picked = next((each for each in order if each.has(character)), None)
            if picked is None:
                picked = runs[-1][0] if runs else self.primary
            if runs and runs[-1][0] == picked:
                runs[-1] = (picked, runs[-1][1] + character)
            else:
                runs.append((picked, character))
        return runs

    def getlength(self, text: str) -> float:
        return sum(each.length(run) for each, run in self.runs(text))

    def draw(self, image: Image.Image, xy, text: str, fill, anchor: str = "la") -> None:
        """Draw ``text`` at ``xy`` as Pillow would with ``anchor`` ("l", "m" or "r" across,
        then "a" for the ascender's line or "m" for the middle), on the primary font's
        baseline."""
        x, y = xy
        across, down = anchor[0], anchor[1]
        runs = self.runs(text)
        width = sum(each.length(run) for each, run in runs)
        x -= {"l": 0, "m": width / 2, "r": width}[across]
        ascent, descent = self.primary.face.getmetrics()
        baseline = y + {"a": ascent, "m": (ascent - descent) / 2, "s": 0}[down]
        draw = ImageDraw.Draw(image)
        for each, run in runs:
            if each.emoji:
                _paste_emoji(image, each, run, (x, baseline))
            else:
                draw.text(
                    (x, baseline),
                    run,
                    font=each.face,
                    fill=fill,
                    anchor="ls",
                    stroke_width=each.bolden,
                    stroke_fill=fill,
                )
            x += each.length(run)


def _paste_emoji(image: Image.Image, each: _Font, run: str, at: tuple[float, float]) -> None:
    """Draw an emoji run at the emoji font's one size, scale it to the line, and lay it
    over the picture with its baseline on the line's."""
    face = each.face
    ascent, descent = face.getmetrics()
    width = max(1, round(face.getlength(run)))
    drawn = Image.new("RGBA", (width, ascent + descent))
    ImageDraw.Draw(drawn).text((0, ascent), run, font=face, anchor="ls", embedded_color=True)
    side = (max(1, round(width * each.scale)), max(1, round((ascent + descent) * each.scale)))
    scaled = drawn.resize(side, Image.Resampling.LANCZOS)
    x, baseline = at
    top = baseline - ascent * each.scale
    image.paste(scaled, (round(x), round(top)), scaled)
