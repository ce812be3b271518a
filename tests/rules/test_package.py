"""The rules package stands alone: no Django, standard library only (style convention 1).

The two checkers here serve tests/rosters/test_package.py too.
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import campaign.rules

RULES_DIR = Path(campaign.rules.__file__).parent
REPO_ROOT = RULES_DIR.parent.parent

INTERFACE = """
from campaign.rules import (
    Rank, rank_for_xp, xp_cap, add_xp, dealers_of_death_xp, max_battle_honours,
    Requisition, requisition_cost, RelicCategory, crusade_points, OutOfAction,
    out_of_action_passes, out_of_action_options, BATTLE_SIZES, BATTLE_SCARS,
    WEAPON_MODIFICATIONS, RuleError, HouseRules, DEFAULT_HOUSE_RULES, add_rp, RP_PER_BATTLE,
    BATTLE_XP, MARKED_FOR_GREATNESS_XP, MAX_BATTLE_SCARS, NON_CHARACTER_XP_CAP,
    RANK_THRESHOLDS, ranks_gained, is_no_xp, battle_xp_gained, supply_refusal, check_supply,
    rp_refusal, UnitFacts, requisition_refusals, marked_for_greatness_refusal, honour_refusal,
    BATTLE_SCAR_EFFECTS, WEAPON_MODIFICATION_EFFECTS, BATTLE_TRAIT_TABLES, CRUSADE_RELICS,
    RELIC_MIN_RANK, roll_d6, roll_table, roll_battle_scar, roll_weapon_modifications,
    roll_battle_trait, MusterUnit, MusterReport, check_muster, OUT_OF_ACTION_PASS,
    out_of_action_refusal,
)
"""


NO_DJANGO = (
    "import sys\n"
    "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
    "assert not loaded, loaded\n"
)


def assert_runs_without_django(script: str, *args: str) -> None:
    """Run ``script`` (then ``NO_DJANGO``) in a fresh interpreter with no DJANGO_SETTINGS_MODULE."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, "-c", script + NO_DJANGO, *args]
    result = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def assert_imports_only_stdlib(package: Path, allowed: frozenset[str] = frozenset()) -> None:
    """Every module in ``package`` imports the standard library, ``allowed`` and itself only."""
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            for root in roots:
                known = root == "__future__" or root in sys.stdlib_module_names
                assert known or root in allowed, (path.name, root)


def test_it_imports_without_django_settings_and_loads_no_django_module():
    """Convention 1: `import campaign.rules` works with no DJANGO_SETTINGS_MODULE."""
    assert_runs_without_django(INTERFACE)


def test_it_imports_only_the_standard_library_and_itself():
    """Convention 1: every module in campaign/rules uses the standard library only."""
    assert_imports_only_stdlib(RULES_DIR)


def test_it_exports_every_name_it_lists():
    """Convention 1: the public interface in __all__ resolves."""
    for name in campaign.rules.__all__:
        assert hasattr(campaign.rules, name), name
