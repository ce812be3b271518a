"""`manage.py content_pack validate PATH`: exit 0 on a good pack, 2 on a bad one (R11)."""

import io
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.packs.helpers import CORE, REPO_ROOT, SAMPLE, encode, sample


def validate(path) -> str:
    out = io.StringIO()
    call_command("content_pack", "validate", str(path), stdout=out)
    return out.getvalue()


def test_it_says_a_good_pack_is_good_with_its_name_and_counts():
    assert validate(SAMPLE) == (
        f"{SAMPLE}: a good content pack: Sample house rules (agendas: 3, blessings: 2, "
        "underdog thresholds: 2, requisitions: 2, counters: 1)\n"
    )


def test_it_validates_the_core_pack_file():
    assert validate(CORE) == (
        f"{CORE}: a good content pack: Core rules (requisitions: 6, battle traits: 4, "
        "crusade relics: 14, battle scars: 6)\n"
    )


def test_it_lists_each_problem_with_the_path_and_exits_2(tmp_path):
    """R11: every problem names its place and rule."""
    data = sample()
    data["agendas"][0]["xp"] = 11
    data["agendas"][1]["id"] = "hold-the-beacon"
    path = tmp_path / "bad.json"
    path.write_bytes(encode(data))
    with pytest.raises(CommandError) as refused:
        validate(path)
    assert refused.value.returncode == 2
    assert str(refused.value).splitlines() == [
        f"{path}: agendas[0].xp: must be between 0 and 10",
        f'{path}: agendas[1].id: "hold-the-beacon" is used twice',
    ]


def test_it_refuses_a_file_it_cannot_read_with_exit_2(tmp_path):
    with pytest.raises(CommandError) as refused:
        validate(tmp_path / "missing.json")
    assert refused.value.returncode == 2
    assert (
        str(refused.value)
        == f"{tmp_path / 'missing.json'}: can't read it: No such file or directory"
    )


def test_it_reads_no_more_than_the_limit_from_a_huge_file(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * 3_000_000)
    with pytest.raises(CommandError) as refused:
        validate(path)
    assert str(refused.value) == f"{path}: (file): larger than 1000000 bytes"


def test_it_needs_a_subcommand():
    with pytest.raises(CommandError):
        call_command("content_pack")


def run(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "manage.py", "content_pack", *args]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)


def test_it_exits_0_and_2_from_the_command_line_without_a_traceback(tmp_path):
    good = run("validate", str(SAMPLE))
    assert (good.returncode, good.stderr) == (0, "")
    assert "a good content pack: Sample house rules" in good.stdout
    bad_path = tmp_path / "deep.json"
    bad_path.write_bytes(b"[" * 10_000 + b"]" * 10_000)
    bad = run("validate", str(bad_path))
    assert bad.returncode == 2
    assert bad.stderr == f"CommandError: {bad_path}: (file): nested deeper than 8 levels\n"
    assert "Traceback" not in bad.stderr
