"""Every rule, rule number and rule name lives in campaign/rules, and only there.

Outside the rules package (and the migrations, which record history), no file may
cite a rule number ("R6.2"), type a rule's number into prose ("30XP", "3 Battle
Scars"), or spell out a name from the rules' tables (scars, requisitions, relics,
traits, weapon modifications, ranks): code and templates take them from
`campaign.rules` or from a selector. Generic nouns ("Battle Honour", "Order of
Battle") are fine.

The scan covers all of campaign/ and templates/, one test per area, so a failure
names the area that still has to change.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from campaign import rules

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("campaign", "templates")
LEFT_OUT = ("campaign/rules", "campaign/migrations")
SUFFIXES = (".py", ".html")

CITATION = re.compile(r"\bR\d+(\.\d+)?\b")
RULE_NUMBERS = [
    re.compile(r"\b\d+\s?XP\b"),  # "30XP", "+3XP"
    re.compile(r"\b\d+ Battle (Honours|Scars)\b"),  # "6 Battle Honours", "3 Battle Scars"
    re.compile(r"\bon a \d+ or more\b"),  # the Out of Action pass mark
    re.compile(r"\b\d+ is taken off\b"),  # the Battle-weary modifier
]


def rule_names() -> set[str]:
    """The names in the rules' tables."""
    traits = {name for table in rules.BATTLE_TRAIT_TABLES.values() for name, _ in table.values()}
    return {
        *rules.BATTLE_SCARS.values(),
        *(requisition.label for requisition in rules.Requisition),
        *rules.CRUSADE_RELICS,
        *traits,
        *rules.WEAPON_MODIFICATIONS.values(),
        *(rank.label for rank in rules.Rank),
    }


def _phrase(name: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


NAMES = sorted(rule_names())
# One-word names ("Heroic", "Brutal") also read as plain English: they are flagged only
# as a whole string literal. Longer or hyphenated names are flagged wherever they stand.
PHRASES = {name: _phrase(name) for name in NAMES if " " in name or "-" in name}
WORDS = {name for name in NAMES if name not in PHRASES}


def _files(area: Path) -> list[Path]:
    files = [area] if area.is_file() else sorted(area.rglob("*"))
    return [
        f
        for f in files
        if f.suffix in SUFFIXES
        and not any(f.relative_to(ROOT).as_posix().startswith(skip) for skip in LEFT_OUT)
    ]


def areas() -> list[str]:
    """Each package, module and template folder scanned (as paths from the root)."""
    found = []
    for top in SCANNED:
        for child in sorted((ROOT / top).iterdir()):
            path = child.relative_to(ROOT).as_posix()
            if path in LEFT_OUT or child.name == "__pycache__":
                continue
            if child.is_dir() or child.suffix in SUFFIXES:
                found.append(path)
    return found


def _line(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


def _texts(path: Path, source: str) -> list[tuple[int, str]]:
    """Where a name could be written: (line, text) for each string literal of Python
    source (docstrings and f-string parts too), or the whole of a template."""
    if path.suffix != ".py":
        return [(1, source)]
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _literals(path: Path, source: str) -> list[tuple[int, str]]:
    """The whole string literals: Python constants, or quoted strings in a template."""
    if path.suffix == ".py":
        return _texts(path, source)
    quoted = re.finditer(r"""["']([^"'{}%\n]+)["']""", source)
    return [(_line(source, m.start()), m.group(1)) for m in quoted]


def hits(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    where = path.relative_to(ROOT).as_posix()
    found = [
        f"{where}:{_line(source, m.start())}: cites {m.group(0)}" for m in CITATION.finditer(source)
    ]
    found += [
        f"{where}:{_line(source, m.start())}: types the rule number {m.group(0)!r}"
        for pattern in RULE_NUMBERS
        for m in pattern.finditer(source)
    ]
    for line, text in _texts(path, source):
        for name, pattern in PHRASES.items():
            for m in pattern.finditer(text):
                at = line + text.count("\n", 0, m.start())
                found.append(f"{where}:{at}: names {name!r}")
    found += [
        f"{where}:{line}: names {literal.strip()!r}"
        for line, literal in _literals(path, source)
        if literal.strip() in WORDS
    ]
    return found


@pytest.mark.parametrize("area", areas())
def test_it_keeps_rule_numbers_and_names_out_of(area):
    found = [hit for path in _files(ROOT / area) for hit in hits(path)]

    assert found == [], "\n".join(found)


def test_it_would_notice_a_citation_a_number_and_a_name(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    code = tmp_path / "view.py"
    code.write_text(
        '"""Sells R6.2 to units."""\n'
        'LABEL = "Renowned Heroes"\n'
        'WORD = "Heroic"\n'
        'NOTE = f"Capped at 30XP: {x}"\n'
        'FINE = "a Heroic effort and a Battle Honour"\n'
    )
    page = tmp_path / "page.html"
    page.write_text('{% if "Battle-weary" in scars %}on a 2 or more{% endif %}{{ labels.x }}')

    assert hits(code) == [
        "view.py:1: cites R6.2",
        "view.py:4: types the rule number '30XP'",
        "view.py:2: names 'Renowned Heroes'",
        "view.py:3: names 'Heroic'",
    ]
    assert hits(page) == [
        "page.html:1: types the rule number 'on a 2 or more'",
        "page.html:1: names 'Battle-weary'",
    ]


def test_it_scans_every_area_of_the_app_and_its_templates():
    scanned = set(areas())

    assert {"campaign/views", "campaign/forms", "campaign/selectors", "templates/units"} <= scanned
    assert {"campaign/services", "campaign/admin", "campaign/models"} <= scanned
    assert not scanned & set(LEFT_OUT)
