"""Make the subset fonts in campaign/fonts/ that the card picture falls back to.

Needs fontTools (pyftsubset), which the app does not install, and Debian's Noto fonts
as the sources; the tests never run this. In a throwaway virtualenv:

    apt-get install fonts-noto-cjk fonts-noto-color-emoji
    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools
    /tmp/ft/bin/python scripts/subset_fonts.py

It writes the character lists to campaign/fonts/subsets/ (kept, so a change shows in a
diff) and the fonts next to them. What each subset holds: campaign/fonts/README.md.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

from fontTools.ttLib import TTFont

FONTS = Path(__file__).resolve().parent.parent / "campaign" / "fonts"
LISTS = FONTS / "subsets"
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-{}.ttc")
EMOJI = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
PYFTSUBSET = Path(sys.executable).with_name("pyftsubset")


def decoded(codec: str, leads: range, trails: range) -> set[str]:
    """Every character a two-byte legacy codec has at the given lead and trail bytes."""
    out = set()
    for lead in leads:
        for trail in trails:
            with contextlib.suppress(UnicodeDecodeError):
                out.add(bytes((lead, trail)).decode(codec))
    return out


def span(first: int, last: int) -> set[str]:
    return {chr(code) for code in range(first, last + 1)}


def cjk_characters() -> set[str]:
    """Kana, the 2,350 Hangul syllables of KS X 1001, and the common Han characters:
    GB 2312's level 1 (the 3,755 most used in Chinese) and JIS X 0208's level 1 (the
    2,965 most used in Japanese)."""
    han = decoded("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF)) | decoded(
        "euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF)
    )
    han = {c for c in han if 0x4E00 <= ord(c) <= 0x9FFF}
    hangul = {
        c
        for c in decoded("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))
        if 0xAC00 <= ord(c) <= 0xD7A3
    }
    kana = span(0x3040, 0x30FF) | span(0x31F0, 0x31FF)
    punctuation = span(0x3000, 0x303F) | span(0xFF01, 0xFF60) | span(0x3130, 0x318F)
    return han | hangul | kana | punctuation


COMMON_EMOJI = (
    "💀☠⚔🗡🛡🔥⚡💥💣🔫🏹🪓⛓🔱👑💎🏆🎖🏅⭐🌟✨💫☄🌙☀🌍🌋🌊❄🌪🌈☢☣⚙🔧🔨⛏🪖"
    "🐺🐉🐲🦅🦁🐍🦂🕷🐻🐗🐀🦇🐙🦈🐊🦖🦍🐸🐛👹👺👻👽👾🤖😈👿🧟🧛🧙🥷🦾🦿🧠👁👀"
    "❤🧡💛💚💙💜🖤🤍💔🩸💉💊🍺🍻🍕🍔🍎🍄🌹🌲🌵🍀🏰🏯⛪🕌🚀🛸🚁✈🚂🚗🛰🗿⚓🎲🎯🎮"
    "♠♥♦♣⚜☯✝☦☪☸✡🔯♈⚛🕉⚠⛔🚫✅❌❓❗💯🔔📜📖🗺🧭⌛⏳🕯🪦⚰⚱🔮🧿🪬"
)
"""Emoji beyond the faces that a unit's or force's name may well hold."""


def emoji_characters() -> set[str]:
    """The emoji faces (U+1F600 to U+1F64F) and the list above, as far as the font has
    them: no flags, skin tones or sequences."""
    cmap = TTFont(EMOJI).getBestCmap()
    wanted = span(0x1F600, 0x1F64F) | set(COMMON_EMOJI)
    return {c for c in wanted if ord(c) in cmap}


def subset(source: Path, out: Path, characters: set[str], *extra: str) -> None:
    listed = LISTS / f"{out.stem}.txt"
    listed.write_text("".join(sorted(characters)) + "\n", encoding="utf-8")
    subprocess.run(
        [
            str(PYFTSUBSET),
            str(source),
            f"--text-file={listed}",
            f"--output-file={out}",
            "--layout-features=*",
            "--no-hinting",
            *extra,
        ],
        check=True,
    )


def main() -> None:
    LISTS.mkdir(exist_ok=True)
    cjk = cjk_characters()
    source = CJK.with_name(CJK.name.format("Regular"))
    subset(source, FONTS / "NotoSansCJK-Regular-subset.otf", cjk, "--font-number=0")
    subset(EMOJI, FONTS / "NotoColorEmoji-subset.ttf", emoji_characters())


if __name__ == "__main__":
    main()
