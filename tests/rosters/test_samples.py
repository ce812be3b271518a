"""Every shared sample parses exactly to its table in samples/SOURCES.md."""

import hashlib

import pytest

from campaign.rosters import parse_roster
from tests.rosters.expected import EXPECTED, SAMPLES, Expected, sample_files
from tests.rosters.tables import HEADER, as_row, fields

SIZES = {
    "app-text/space-wolves-boop.txt": 2879,
    "app-text/death-guard-plague-wall-annotated.txt": 1806,
    "app-text/astra-militarum-13th.txt": 837,
    "battlescribe-ros/votann-leviathan-965.ros": 184520,
    "battlescribe-ros/necrons-10e-1205.ros": 68975,
    "battlescribe-ros/ultramarines-10e-810.rosz": 16816,
    "battlescribe-ros/chaos-daemons-1975.ros": 134048,
    "battlescribe-ros/thousand-sons-940.ros": 108265,
    "text-plain/tau-nr-full.txt": 4091,
    "text-plain/tau-nr-wtc.txt": 4948,
    "text-plain/tau-nr-short.txt": 1188,
}
"""Sizes SOURCES.md gives, to catch a sample rewritten on copy (CRLF, stripped spaces)."""


def test_it_has_a_table_for_every_sample_file():
    """One expected parse per file in samples/, none for a file that isn't there."""
    assert sorted(expected.path for expected in EXPECTED) == sorted(
        str(path.relative_to(SAMPLES)) for path in sample_files()
    )


@pytest.mark.parametrize("path", sorted(SIZES))
def test_it_keeps_the_samples_byte_for_byte(path):
    """The copies are the real exports: same size as SOURCES.md records."""
    data = (SAMPLES / path).read_bytes()
    assert len(data) == SIZES[path], hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("expected", EXPECTED, ids=[expected.path for expected in EXPECTED])
def test_it_parses_each_sample_to_its_table(expected: Expected):
    """Names, points, model counts, roles, Enhancements, Warlord and totals, in file order."""
    path = SAMPLES / expected.path
    roster = parse_roster(path.read_bytes(), filename=path.name)
    assert fields(roster, HEADER) == fields(expected, HEADER)
    assert [as_row(unit) for unit in roster.units] == list(expected.rows)
    assert all(unit.datasheet == unit.name for unit in roster.units)


def test_it_reads_the_three_tau_styles_as_the_same_army():
    """SOURCES.md 4: full, WTC and short exports of one army give the same 18 units."""
    rosters = [
        parse_roster((SAMPLES / "text-plain" / name).read_bytes())
        for name in ("tau-nr-full.txt", "tau-nr-wtc.txt", "tau-nr-short.txt")
    ]
    armies = [
        [(unit.name, unit.points, unit.models, unit.enhancement, unit.warlord) for unit in r.units]
        for r in rosters
    ]
    assert armies[0] == armies[1] == armies[2]
    assert len(armies[0]) == 18
    assert {roster.units_points for roster in rosters} == {1985}


def test_it_warns_when_the_header_total_differs_from_the_units():
    """SOURCES.md: the Astra Militarum list says 950 pts but lists 310 pts of units."""
    roster = parse_roster((SAMPLES / "app-text" / "astra-militarum-13th.txt").read_bytes())
    assert roster.total_points == 950
    assert roster.units_points == 310
    assert "The file's total is 950 pts but its units add up to 310 pts." in roster.warnings


@pytest.mark.parametrize(
    ("path", "warning"),
    [
        (
            "app-text/space-wolves-boop.txt",
            "The file doesn't say which CHARACTERS are EPIC HEROES.",
        ),
        (
            "app-text/space-wolves-boop.txt",
            "The file doesn't give Enhancement costs; they are counted in their units' points.",
        ),
        ("text-plain/tau-nr-short.txt", "The file doesn't say which units are CHARACTERS."),
        (
            "text-plain/tau-nr-short.txt",
            "The file doesn't give a total; its units add up to 1985 pts.",
        ),
        ("text-plain/tau-nr-wtc.txt", "The file doesn't say which units are BATTLELINE."),
        ("text-plain/custodes-nr-wtc.txt", "The file doesn't give the battle size."),
        (
            "app-text/death-guard-plague-wall-annotated.txt",
            "The file doesn't give every unit's keywords (INFANTRY, MOUNTED, VEHICLE...).",
        ),
    ],
)
def test_it_warns_about_what_a_file_does_not_say(path, warning):
    assert warning in parse_roster((SAMPLES / path).read_bytes()).warnings


@pytest.mark.parametrize("path", ["battlescribe-ros/necrons-10e-1205.ros"])
def test_it_has_no_warnings_for_a_complete_roster(path):
    """A BattleScribe roster states every role, the Warlord and the total."""
    assert parse_roster((SAMPLES / path).read_bytes()).warnings == ()


def test_it_reads_keywords_models_and_wargear_from_a_ros():
    roster = parse_roster((SAMPLES / "battlescribe-ros" / "votann-leviathan-965.ros").read_bytes())
    warriors, pioneers, fortress = roster.units[0], roster.units[2], roster.units[3]
    assert {"INFANTRY", "BATTLELINE", "LEAGUES OF VOTANN"} <= warriors.keywords
    assert "MOUNTED" in pioneers.keywords
    assert "VEHICLE" in fortress.keywords
    assert warriors.models_description == (
        "7x Hearthkyn Warrior, 1x Theyn, 2x Hearthkyn Warrior w/ heavy weapon"
    )
    assert "2x Twin bolt cannon" in fortress.wargear


def test_it_reads_models_and_wargear_from_the_app_text():
    roster = parse_roster(
        (SAMPLES / "app-text" / "death-guard-plague-wall-annotated.txt").read_bytes()
    )
    tallyman, marines = roster.units[1], roster.units[2]
    assert tallyman.models_description == ""
    assert tallyman.wargear == "1x Close combat weapon, 1x Plasma pistol"
    assert marines.models_description == "1x Plague Champion, 6x Plague Marine"
    assert "4x Boltgun" in marines.wargear
    assert marines.keywords == frozenset({"BATTLELINE"})
