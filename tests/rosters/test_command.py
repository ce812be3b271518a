"""`manage.py parse_roster PATH`: the parse as JSON with exactly the issue's keys."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.rosters.expected import EXPECTED, SAMPLES

REPO_ROOT = Path(__file__).resolve().parents[2]
ROSTER_KEYS = ["format", "name", "faction", "detachment", "battle_size", "total_points", "units"]
# The keys the issue asks for, in its order.
UNIT_KEYS = ["name", "datasheet", "points", "models", "character", "epic_hero", "battleline"]
UNIT_KEYS += ["dedicated_transport", "enhancement", "enhancement_points", "warlord"]


def run(path: Path | str) -> dict:
    out = io.StringIO()
    call_command("parse_roster", str(path), stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.parametrize("expected", EXPECTED, ids=[expected.path for expected in EXPECTED])
def test_it_prints_each_sample_as_json_with_exactly_the_issue_keys(expected):
    printed = run(SAMPLES / expected.path)
    assert list(printed) == ROSTER_KEYS
    assert all(list(unit) == UNIT_KEYS for unit in printed["units"])
    assert (printed["format"], printed["name"], printed["total_points"]) == (
        expected.format,
        expected.name,
        expected.total_points,
    )
    assert [
        (
            unit["name"],
            unit["points"],
            unit["models"],
            (unit["character"], unit["epic_hero"], unit["battleline"], unit["dedicated_transport"]),
            unit["enhancement"],
            unit["enhancement_points"],
            unit["warlord"],
        )
        for unit in printed["units"]
    ] == [tuple(row.__dict__.values()) for row in expected.rows]


def test_it_prints_json_types_the_issue_asks_for():
    printed = run(SAMPLES / "app-text" / "space-wolves-boop.txt")
    bjorn = printed["units"][0]
    assert isinstance(printed["total_points"], int)
    assert bjorn["epic_hero"] is None  # null: the file doesn't say
    assert bjorn["character"] is True
    assert bjorn["enhancement"] == ""
    assert bjorn["enhancement_points"] is None
    assert bjorn["warlord"] is False


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"Dear diary, today I painted a Rhino.", "isn't an army list it can read"),
        (b"PK\x03\x04broken", "damaged"),
    ],
)
def test_it_refuses_a_file_it_cannot_read_with_exit_status_2(tmp_path, content, message):
    path = tmp_path / "list.txt"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message) as refusal:
        call_command("parse_roster", str(path))
    assert refusal.value.returncode == 2


def test_it_refuses_a_missing_file_with_exit_status_2(tmp_path):
    with pytest.raises(CommandError, match="Can't read") as refusal:
        call_command("parse_roster", str(tmp_path / "missing.ros"))
    assert refusal.value.returncode == 2


def manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "parse_roster", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_it_exits_0_and_prints_json_from_the_shell():
    result = manage(str(SAMPLES / "battlescribe-ros" / "ultramarines-10e-810.rosz"))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total_points"] == 810


def test_it_exits_2_with_a_one_line_reason_from_the_shell(tmp_path):
    path = tmp_path / "army.rosz"
    path.write_bytes(b"<html><body>not a roster</body></html>")
    result = manage(str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "army.rosz isn't an army list it can read" in lines[0]
