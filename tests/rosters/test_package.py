"""The rosters package stands alone: no Django; standard library and defusedxml only."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import campaign.rosters

ROSTERS_DIR = Path(campaign.rosters.__file__).parent
REPO_ROOT = ROSTERS_DIR.parent.parent
ALLOWED_THIRD_PARTY = {"defusedxml"}


def test_it_imports_and_parses_without_django_settings_and_loads_no_django_module():
    """`import campaign.rosters` and a parse work with no DJANGO_SETTINGS_MODULE."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    script = (
        "import sys\n"
        "from campaign.rosters import parse_roster, Roster, RosterUnit, RosterError, MAX_BYTES\n"
        "roster = parse_roster(open(sys.argv[1], 'rb').read())\n"
        "assert len(roster.units) == 10, roster\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not loaded, loaded\n"
    )
    sample = REPO_ROOT / "tests/rosters/samples/battlescribe-ros/ultramarines-10e-810.rosz"
    result = subprocess.run(
        [sys.executable, "-c", script, str(sample)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_it_imports_only_the_standard_library_defusedxml_and_itself():
    for path in ROSTERS_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            for root in roots:
                assert (
                    root == "__future__"
                    or root in sys.stdlib_module_names
                    or root in ALLOWED_THIRD_PARTY
                ), (path.name, root)


def test_it_pins_defusedxml_exactly():
    requirements = (REPO_ROOT / "requirements.txt").read_text().splitlines()
    assert [line for line in requirements if line.startswith("defusedxml")] == ["defusedxml==0.7.1"]


def test_it_exports_every_name_it_lists():
    for name in campaign.rosters.__all__:
        assert hasattr(campaign.rosters, name), name
