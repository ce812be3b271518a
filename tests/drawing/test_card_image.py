"""The Crusade card picture, drawn from plain facts: no database, no Django."""

from __future__ import annotations

import ast
from dataclasses import replace
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from campaign import card_image
from campaign.card_image import (
    COLUMN,
    ELLIPSIS,
    MARGIN,
    PICTURE_SIDE,
    SIZE,
    CardFacts,
    ellipsized,
    face,
    font,
    initials,
    listed,
    render_card,
    wrapped,
)
from campaign.card_text import CJK, EMOJI, REGULAR, characters

FACTS = CardFacts(
    name="Squad Helix",
    datasheet="Intercessor Squad",
    points=80,
    faction="Adeptus Astartes",
    force="Iron Wolves",
    campaign="The Pariah Nexus",
    rank="Blooded",
    xp=9,
    next_rank_xp=16,
    progress_percent=30,
    progress_text="7XP to Battle-hardened (16XP).",
    honours=("Headhunters",),
    scars=("Battle-weary",),
    crusade_points=0,
    battles_played=4,
    battles_survived=3,
    units_destroyed=2,
)
NAME_AREA = (COLUMN, 88, SIZE[0] - MARGIN, 212)
"""Where the name is drawn: up to two lines under the eyebrow."""


def decoded(png: bytes) -> Image.Image:
    image = Image.open(BytesIO(png))
    image.load()
    return image


def drawn_letter(letter: str, face) -> bytes:
    canvas = Image.new("L", (80, 80))
    ImageDraw.Draw(canvas).text((10, 10), letter, font=face, fill=255)
    return canvas.tobytes()


def differs(a: Image.Image, b: Image.Image, box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def test_it_draws_a_png_of_the_size_chat_apps_show():
    image = decoded(render_card(FACTS))

    assert image.format == "PNG"
    assert image.size == SIZE == (1200, 630)


def test_it_draws_the_units_name_where_the_name_goes():
    named = decoded(render_card(FACTS))
    unnamed = decoded(render_card(replace(FACTS, name="")))

    assert differs(named, unnamed, NAME_AREA)


def test_it_draws_the_xp_bar_as_far_as_the_progress_goes():
    empty = decoded(render_card(replace(FACTS, progress_percent=0)))
    half = decoded(render_card(replace(FACTS, progress_percent=50)))
    # A row through the middle of the bar: the first half is filled, the last quarter not.
    y = next(y for y in range(200, 420) if empty.getpixel((COLUMN + 300, y)) != (29, 33, 37))
    assert half.getpixel((COLUMN + 100, y + 10)) != empty.getpixel((COLUMN + 100, y + 10))
    assert half.getpixel((SIZE[0] - MARGIN - 50, y + 10)) == empty.getpixel(
        (SIZE[0] - MARGIN - 50, y + 10)
    )


def test_it_draws_the_units_picture_cropped_into_its_square():
    red = BytesIO()
    Image.new("RGB", (900, 500), (200, 0, 0)).save(red, format="JPEG")
    centre = (MARGIN + PICTURE_SIDE // 2, MARGIN + PICTURE_SIDE // 2)

    image = decoded(render_card(FACTS, red.getvalue()))

    r, g, b = image.getpixel(centre)
    assert r > 180 and g < 30 and b < 30


def test_it_draws_initials_instead_of_a_picture_it_cannot_read():
    broken = decoded(render_card(FACTS, b"not a picture"))
    none = decoded(render_card(FACTS))

    assert not differs(broken, none, (0, 0, *SIZE))
    assert initials("Squad Helix") == "SH"
    assert initials("Aurelian the Blade") == "AB"
    assert initials("squad of the ninth") == "SO"
    assert initials("Брат-капитан Гордий") == "БГ"
    assert initials("  ") == "?"


def test_it_draws_a_unit_that_never_gains_xp_without_a_bar():
    image = decoded(render_card(replace(FACTS, xp=None, next_rank_xp=None, progress_text="")))
    assert image.size == SIZE


@pytest.mark.parametrize(
    "name",
    [
        "Брат-капитан Гордий",
        "Ἀχιλλεύς ὁ Ταχύς",
        "Łukasz Żółć the Æther-born",
        "Ça ira, Sœur Écarlate",
    ],
)
def test_it_has_a_glyph_for_every_letter_of_a_unicode_name(name):
    """Cyrillic, Greek and accented Latin letters are in the shipped font (none of them is
    drawn as the empty box a missing letter gets)."""
    for dejavu in (font(40), font(40, bold=True)):
        missing = drawn_letter("\ue000", dejavu)  # a private-use code point: no glyph
        for letter in name.replace(" ", ""):
            assert drawn_letter(letter, dejavu) != missing, letter

    image = decoded(render_card(replace(FACTS, name=name)))
    assert differs(image, decoded(render_card(replace(FACTS, name=""))), NAME_AREA)


NAMES_IN_OTHER_SCRIPTS = {
    "Chinese": "钢铁之狼",
    "Japanese kana": "ハヤテのかぜ",
    "Japanese kanji": "鋼鉄の狼",
    "Korean": "강철 늑대",
    "Cyrillic": "Брат Гордий",
    "Greek": "Ἀχιλλεύς",
    "emoji": "💀🔥⚔️🐺",
}


def boxes(name: str) -> str:
    """As many private-use characters (no font has them: each draws as the empty box)
    as ``name`` has letters, with its spaces where they are."""
    return "".join(" " if letter == " " else "\ue000" for letter in name)


@pytest.mark.parametrize("name", NAMES_IN_OTHER_SCRIPTS.values(), ids=NAMES_IN_OTHER_SCRIPTS)
def test_it_draws_a_name_in_any_script_as_letters_not_as_empty_boxes(name):
    """Each character is drawn in the first shipped font that has it: the name area
    differs from the same name drawn as missing-glyph boxes, and has ink."""
    image = decoded(render_card(replace(FACTS, name=name)))
    as_boxes = decoded(render_card(replace(FACTS, name=boxes(name))))
    unnamed = decoded(render_card(replace(FACTS, name="")))

    assert differs(image, as_boxes, NAME_AREA)
    assert differs(image, unnamed, NAME_AREA)
    for letter in name.replace(" ", "").replace("\ufe0f", ""):
        assert any(each.has(letter) for each in face(52, bold=True).fonts), letter


@pytest.mark.parametrize("name", NAMES_IN_OTHER_SCRIPTS.values(), ids=NAMES_IN_OTHER_SCRIPTS)
def test_it_gives_every_run_of_a_name_a_font_that_has_its_letters(name):
    runs = face(52, bold=True).runs(f"Squad {name} 7")

    assert "".join(run for _, run in runs) == f"Squad {name} 7".replace("\ufe0f", "")
    for each, run in runs:
        assert all(each.has(letter) for letter in run.replace(" ", "")), run


def test_it_leaves_out_joiners_selectors_and_skin_tones_it_cannot_draw():
    runs = face(52, bold=True).runs("Squad 🧙🏽\u200d \u2694\ufe0f")

    assert [run for _, run in runs] == ["Squad ", "🧙", " ", "⚔"]
    assert all(each.has(letter) for each, run in runs for letter in run)


def test_it_draws_emoji_in_colour():
    image = decoded(render_card(replace(FACTS, name="🔥🔥🔥"))).convert("RGB")
    area = image.crop(NAME_AREA)

    assert any(
        r > 200 and g < 160 and b < 80 for _, (r, g, b) in area.getcolors(1 << 20)
    )  # flame orange


def test_it_measures_a_mixed_name_as_the_sum_of_its_runs():
    mixed = face(52, bold=True)
    latin, cjk = "Squad ", "鋼鉄の狼"

    assert mixed.getlength(latin + cjk) == pytest.approx(
        mixed.getlength(latin) + mixed.getlength(cjk)
    )
    assert mixed.getlength(cjk) > 3 * 52  # four full-width characters, not four boxes' width


def test_it_wraps_a_long_name_without_spaces_in_chinese_to_the_width():
    mixed = face(52, bold=True)
    name = "钢铁之狼第九连队的荣耀战士与不屈之盾的守护者们永远忠诚于帝皇的意志"

    lines = wrapped(name, mixed, 768, 2)

    assert len(lines) == 2
    assert lines[1].endswith(ELLIPSIS)
    assert all(mixed.getlength(line) <= 768 for line in lines)


def test_it_reads_which_characters_a_shipped_font_has():
    assert ord("A") in characters(REGULAR) and 0xE000 not in characters(REGULAR)
    assert ord("狼") in characters(CJK) and ord("A") not in characters(EMOJI)
    assert ord("💀") in characters(EMOJI) and ord("강") in characters(CJK)


def test_it_ships_the_noto_subsets_with_their_licence_and_keeps_them_small():
    fonts = Path(card_image.__file__).parent / "fonts"
    added = CJK.stat().st_size + EMOJI.stat().st_size

    assert "SIL OPEN FONT LICENSE Version 1.1" in (fonts / "OFL.txt").read_text()
    assert "pyftsubset" in (fonts / "README.md").read_text()
    assert added < 3_500_000


def test_it_loads_the_fonts_the_project_ships_by_path():
    fonts = Path(card_image.__file__).parent / "fonts"

    assert Path(font(20).path) == fonts / "DejaVuSans.ttf"
    assert Path(font(20, bold=True).path) == fonts / "DejaVuSans-Bold.ttf"
    assert "Bitstream Vera" in (fonts / "LICENSE").read_text()


# Fitting text


def test_it_leaves_text_that_fits_alone():
    assert ellipsized("Squad Helix", font(22), 500) == "Squad Helix"


def test_it_cuts_text_that_does_not_fit_with_an_ellipsis():
    face = font(22)
    cut = ellipsized("Intercessor Squad Tiberius of the Ninth Company", face, 200)

    assert cut.endswith(ELLIPSIS)
    assert face.getlength(cut) <= 200
    assert "Intercessor Squad Tiberius".startswith(cut[:-1].rstrip()[:10])


def test_it_wraps_a_long_name_onto_two_lines_and_ends_the_rest_with_an_ellipsis():
    face = font(52, bold=True)
    name = "Captain Aurelian Valerius-Castellanus of the Crimson Oath and the Unbroken Shield"

    lines = wrapped(name, face, 768, 2)

    assert len(lines) == 2
    assert lines[0] == "Captain Aurelian"
    assert lines[1].endswith(ELLIPSIS)
    assert all(face.getlength(line) <= 768 for line in lines)


def test_it_wraps_a_name_that_fits_without_an_ellipsis():
    assert wrapped("Squad Helix", font(52, bold=True), 768, 2) == ["Squad Helix"]


def test_it_breaks_a_word_longer_than_a_line():
    face = font(52, bold=True)
    lines = wrapped("Z" * 80, face, 400, 2)

    assert len(lines) == 2
    assert lines[0] == "Z" * len(lines[0])
    assert lines[1].endswith(ELLIPSIS)
    assert all(face.getlength(line) <= 400 for line in lines)


def test_it_lists_as_many_items_as_fit_and_says_how_many_more():
    honours = ("Headhunters", "Deadly Combatant", "Born Hunter", "Natural Leader", "Swift")

    lines = listed(honours, font(22), 352, 4)

    assert lines == ["• Headhunters", "• Deadly Combatant", "• Born Hunter", "+ 2 more"]
    assert listed(honours[:4], font(22), 352, 4)[-1] == "• Natural Leader"


# The fingerprint that keys the cache


def test_it_gives_the_same_facts_the_same_fingerprint():
    assert FACTS.fingerprint == replace(FACTS).fingerprint


@pytest.mark.parametrize(
    "change",
    [
        {"xp": 10},
        {"honours": ("Headhunters", "Born Hunter")},
        {"scars": ()},
        {"name": "Squad Helix II"},
        {"picture": "units/helix.jpg"},
        {"removed": True},
    ],
)
def test_it_gives_a_changed_card_a_new_fingerprint(change):
    assert replace(FACTS, **change).fingerprint != FACTS.fingerprint


def test_it_changes_every_fingerprint_with_the_drawing_version(monkeypatch):
    before = FACTS.fingerprint
    monkeypatch.setattr(card_image, "DRAWING_VERSION", card_image.DRAWING_VERSION + 1)
    assert FACTS.fingerprint != before


def test_it_draws_without_django():
    """The drawing module imports Pillow and the standard library only."""
    tree = ast.parse(Path(card_image.__file__).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert "django" not in imported and "campaign" not in imported
