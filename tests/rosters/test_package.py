"""The rosters package stands alone: no Django; standard library and defusedxml only."""

from pathlib import Path

import campaign.rosters
from tests.rules.test_package import assert_imports_only_stdlib, assert_runs_without_django

ROSTERS_DIR = Path(campaign.rosters.__file__).parent
REPO_ROOT = ROSTERS_DIR.parent.parent
ALLOWED_THIRD_PARTY = frozenset({"defusedxml"})


def test_it_imports_and_parses_without_django_settings_and_loads_no_django_module():
    """`import campaign.rosters` and a parse work with no DJANGO_SETTINGS_MODULE."""
    script = (
        "import sys\n"
        "from campaign.rosters import parse_roster, Roster, RosterUnit, RosterError, MAX_BYTES\n"
        "roster = parse_roster(open(sys.argv[1], 'rb').read())\n"
        "assert len(roster.units) == 10, roster\n"
    )
    sample = REPO_ROOT / "tests/rosters/samples/battlescribe-ros/ultramarines-10e-810.rosz"
    assert_runs_without_django(script, str(sample))


def test_it_imports_only_the_standard_library_defusedxml_and_itself():
    assert_imports_only_stdlib(ROSTERS_DIR, allowed=ALLOWED_THIRD_PARTY)


def test_it_pins_defusedxml_exactly():
    requirements = (REPO_ROOT / "requirements.txt").read_text().splitlines()
    assert [line for line in requirements if line.startswith("defusedxml")] == ["defusedxml==0.7.1"]


def test_it_exports_every_name_it_lists():
    for name in campaign.rosters.__all__:
        assert hasattr(campaign.rosters, name), name
