"""A Crusade card as a PNG picture, drawn with Pillow, for sharing in a chat.

Pure drawing: no Django here. `campaign.selectors.card_image` gathers what a card shows
as `CardFacts` (numbers and labels the rules worked out); `render_card` draws them.

The text is set in DejaVu Sans, shipped in campaign/fonts/ (with its licence) and
loaded by path, so every server draws the same picture whatever fonts it has. DejaVu
covers Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and Arabic letters and many
symbols; a character it lacks is drawn in the first shipped Noto subset that has it
(Chinese, Japanese and Korean, then emoji: `campaign.card_text`).

Long names wrap onto a second line and end with an ellipsis after it; long honours,
scars, datasheets and force names end with an ellipsis, and lists too long for the card
end with "+ N more".
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import asdict, dataclass
from functools import cache
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont, ImageOps, UnidentifiedImageError

from .card_text import BOLD, REGULAR, Face

SIZE = WIDTH, HEIGHT = 1200, 630
"""The size chat apps and social sites show a shared picture at (1.91:1)."""
DRAWING_VERSION = 2
"""Part of every card's fingerprint: change it when the drawing changes, so that cached
pictures are made again."""

ELLIPSIS = "…"
MARGIN = 56
PICTURE_SIDE = 280
COLUMN = MARGIN + PICTURE_SIDE + 40
"""Where the text beside the picture starts."""
RIGHT = WIDTH - MARGIN
LIST_LINES = 4
"""Most honours (or scars) listed; past that the last line says how many more."""

BACKGROUND = "#1d2125"
PANEL = "#2b3137"
INK = "#f4f5f7"
MUTED = "#a9b3bd"
ACCENT = "#7a1f1f"
TRACK = "#3a4148"
GOLD = "#d4a531"
SCAR = "#e0786c"

# One card is drawn at a time in each process: FreeType faces are not to be shared by
# threads drawing at once, and it bounds the memory drawing takes.
_drawing = threading.Lock()


@dataclass(frozen=True)
class CardFacts:
    """What the picture of one card shows, worked out by the rules beforehand."""

    name: str
    datasheet: str
    points: int
    faction: str
    force: str
    campaign: str
    rank: str
    """The rank's label ("Blooded")."""
    xp: int | None
    """None for a unit that never gains XP."""
    next_rank_xp: int | None
    """The XP the next rank starts at; None at the top rank or at the unit's XP cap."""
    progress_percent: int
    """How far from this rank's floor to the next rank (the card page's bar)."""
    progress_text: str
    honours: tuple[str, ...]
    scars: tuple[str, ...]
    crusade_points: int
    battles_played: int
    battles_survived: int
    units_destroyed: int
    picture: str = ""
    """The stored picture's name, or "": it stands for the picture in the fingerprint."""
    removed: bool = False

    @property
    def fingerprint(self) -> str:
        """Changes whenever the picture would: what it shows, its size, the drawing."""
        data = json.dumps([DRAWING_VERSION, SIZE, asdict(self)], sort_keys=True)
        return hashlib.sha256(data.encode()).hexdigest()[:32]


@cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans at ``size`` pixels, loaded by path (never by a system name)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@cache
def face(size: int, *, bold: bool = False) -> Face:
    """DejaVu Sans at ``size`` pixels, falling back to the shipped Noto subsets for the
    characters it lacks: what the card's text is measured and drawn with."""
    return Face(size, bold=bold)


def ellipsized(text: str, face: Face, width: float) -> str:
    """``text`` if it fits in ``width`` pixels, else as much as fits followed by "…"."""
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)  # the longest prefix that fits with the ellipsis
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def _longest_fitting(word: str, face: Face, width: float) -> int:
    cut = len(word)
    while cut > 1 and face.getlength(word[:cut]) > width:
        cut -= 1
    return cut


def wrapped(text: str, face: Face, width: float, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` pixels, broken between words (a
    word longer than a line is broken inside it); what is left over ends the last line
    with "…"."""
    out: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if face.getlength(candidate) <= width:
            current = candidate
            continue
        if current:
            out.append(current)
        current = word
        while face.getlength(current) > width:
            cut = _longest_fitting(current, face, width)
            out.append(current[:cut])
            current = current[cut:]
    if current:
        out.append(current)
    if len(out) > lines:
        # The lines left over never fit on one line (that is why they were broken), so
        # the last line always ends with the ellipsis.
        out = [*out[: lines - 1], ellipsized(" ".join(out[lines - 1 :]), face, width)]
    return out


def listed(items: tuple[str, ...] | list[str], face: Face, width: float, lines: int) -> list[str]:
    """One line per item, each cut to ``width`` with "…"; with more items than ``lines``,
    the last line says how many more there are."""
    if len(items) > lines:
        shown = list(items[: lines - 1])
        more = [f"+ {len(items) - len(shown)} more"]
    else:
        shown, more = list(items), []
    return [ellipsized(f"• {item}", face, width) for item in shown] + more


def initials(name: str) -> str:
    """Up to two letters standing for the unit when it has no picture: the initials of
    its capitalised words ("Aurelian the Blade": "AB"), else of any words."""
    words = [word for word in name.split() if word[:1].isalnum()]
    capitalised = [word for word in words if word[0].isupper()]
    return "".join(word[0] for word in (capitalised or words)[:2]).upper() or "?"


def _picture(data: bytes | None, side: int) -> Image.Image | None:
    """The unit's picture cropped to a square, or None when there is none to read."""
    if not data:
        return None
    try:
        with Image.open(BytesIO(data), formats=("JPEG", "PNG", "WEBP")) as image:
            image.draft("RGB", (side, side))  # a JPEG decodes at the size it is drawn at
            square = ImageOps.fit(image.convert("RGB"), (side, side), Image.Resampling.LANCZOS)
    except (OSError, UnidentifiedImageError, Image.DecompressionBombError, ValueError):
        return None
    return square


def _rounded(image: Image.Image, radius: int) -> Image.Image:
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, *image.size), radius, fill=255)
    return mask


class _Card:
    """The drawing of one card, top to bottom."""

    def __init__(self, facts: CardFacts, picture: bytes | None) -> None:
        self.facts = facts
        self.image = Image.new("RGB", SIZE, BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.picture = picture

    def text(self, xy, text: str, size: int, fill: str = INK, *, bold=False, anchor="la"):
        face(size, bold=bold).draw(self.image, xy, text, fill, anchor)

    def drawn(self) -> Image.Image:
        self.draw.rectangle((0, 0, 15, HEIGHT), fill=ACCENT)
        self._picture()
        bottom = self._title()
        self._experience(bottom + 22)
        self._stats(404)
        self._lists(404)
        self._footer()
        return self.image

    def _picture(self) -> None:
        box = (MARGIN, MARGIN)
        square = _picture(self.picture, PICTURE_SIDE)
        if square is None:
            square = Image.new("RGB", (PICTURE_SIDE, PICTURE_SIDE), PANEL)
            centre = (PICTURE_SIDE // 2, PICTURE_SIDE // 2)
            letters = initials(self.facts.name)
            face(110, bold=True).draw(square, centre, letters, MUTED, "mm")
        self.image.paste(square, box, _rounded(square, 14))

    def _title(self) -> int:
        """The eyebrow, the name (up to two lines) and the datasheet; returns the bottom."""
        facts, width = self.facts, RIGHT - COLUMN
        eyebrow = "CRUSADE CARD" + (f" · {facts.faction.upper()}" if facts.faction else "")
        if facts.removed:
            eyebrow = f"{eyebrow} · REMOVED"
        self.text((COLUMN, 52), ellipsized(eyebrow, face(22), width), 22, MUTED)
        y = 88
        for line in wrapped(facts.name, face(52, bold=True), width, 2):
            self.text((COLUMN, y), line, 52, bold=True)
            y += 62
        subtitle = f"{facts.datasheet} · {facts.points} points"
        self.text((COLUMN, y + 8), ellipsized(subtitle, face(26), width), 26, MUTED)
        return y + 8 + 32

    def _experience(self, y: int) -> None:
        facts, width = self.facts, RIGHT - COLUMN
        if facts.xp is None:
            self.text((COLUMN, y), "XP: N/A", 30, bold=True)
            note = "Never gains XP or Battle Honours."
            self.text((COLUMN, y + 48), ellipsized(note, face(20), width), 20, MUTED)
            return
        self.text((COLUMN, y), f"{facts.rank} · {facts.xp} XP", 30, bold=True)
        if facts.next_rank_xp is not None:
            goal = f"{facts.xp} / {facts.next_rank_xp} XP"
            self.text((RIGHT, y + 6), goal, 22, MUTED, anchor="ra")
        bar = (COLUMN, y + 44, RIGHT, y + 64)
        self.draw.rounded_rectangle(bar, 10, fill=TRACK)
        filled = round((RIGHT - COLUMN) * max(0, min(100, facts.progress_percent)) / 100)
        if filled >= 20:
            self.draw.rounded_rectangle((COLUMN, y + 44, COLUMN + filled, y + 64), 10, fill=GOLD)
        self.text((COLUMN, y + 74), ellipsized(facts.progress_text, face(20), width), 20, MUTED)

    def _stats(self, y: int) -> None:
        facts = self.facts
        rows = [
            ("Crusade points", facts.crusade_points),
            ("Battles played", facts.battles_played),
            ("Battles survived", facts.battles_survived),
            ("Units destroyed", facts.units_destroyed),
        ]
        right = MARGIN + PICTURE_SIDE
        for label, value in rows:
            self.text((MARGIN, y + 6), label, 20, MUTED)
            self.text((right, y), str(value), 28, bold=True, anchor="ra")
            y += 42

    def _lists(self, y: int) -> None:
        gap = 40
        width = (RIGHT - COLUMN - gap) // 2
        columns = [
            (COLUMN, "BATTLE HONOURS", self.facts.honours, GOLD, "None yet"),
            (COLUMN + width + gap, "BATTLE SCARS", self.facts.scars, SCAR, "None"),
        ]
        for x, heading, items, colour, empty in columns:
            self.text((x, y), f"{heading} ({len(items)})", 20, colour, bold=True)
            lines = listed(items, face(22), width, LIST_LINES) if items else [empty]
            for row, line in enumerate(lines):
                more = not items or (line.startswith("+ ") and row == LIST_LINES - 1)
                self.text((x, y + 36 + row * 32), line, 22, MUTED if more else INK)

    def _footer(self) -> None:
        facts = self.facts
        self.draw.line((MARGIN, 574, RIGHT, 574), fill=TRACK, width=2)
        brand = "Crusade Tracker"
        brand_width = face(20, bold=True).getlength(brand)
        where = facts.force + (f" · {facts.campaign}" if facts.campaign else "")
        room = RIGHT - MARGIN - brand_width - 32
        self.text((MARGIN, 590), ellipsized(where, face(20), room), 20, MUTED)
        self.text((RIGHT, 590), brand, 20, MUTED, bold=True, anchor="ra")


def draw_card(facts: CardFacts, picture: bytes | None = None) -> Image.Image:
    """The card as a Pillow image of `SIZE`; ``picture`` is the unit's stored picture."""
    with _drawing:
        return _Card(facts, picture).drawn()


def render_card(facts: CardFacts, picture: bytes | None = None) -> bytes:
    """The card as PNG bytes."""
    out = BytesIO()
    draw_card(facts, picture).save(out, format="PNG")
    return out.getvalue()
