"""The rules package is layered: data modules (enums, tables) import no logic, and no
module imports another that (directly or not) imports it back."""

import ast
from pathlib import Path

import campaign.rules

RULES_DIR = Path(campaign.rules.__file__).parent
DATA_MODULES = {"edition", "enums", "tables", "errors", "_checks"}


def imports_of(module: str) -> set[str]:
    """The sibling modules `module` imports (relative imports inside the package)."""
    tree = ast.parse((RULES_DIR / f"{module}.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.add((node.module or "").split(".")[0])
    return found - {""}


def modules() -> list[str]:
    return sorted(p.stem for p in RULES_DIR.glob("*.py") if p.stem != "__init__")


def test_it_keeps_enums_and_tables_free_of_logic():
    """Enums and tables are data: they import only other data modules."""
    for module in DATA_MODULES:
        assert imports_of(module) <= DATA_MODULES, module


def test_it_has_no_import_cycle_between_rule_modules():
    graph = {module: imports_of(module) for module in modules()}

    def reaches(start: str, target: str, seen: frozenset = frozenset()) -> bool:
        return any(
            nxt == target or (nxt not in seen and reaches(nxt, target, seen | {nxt}))
            for nxt in graph.get(start, ())
        )

    cycles = [module for module in graph if reaches(module, module)]
    assert cycles == []


def test_it_declares_the_edition_with_no_import_at_all():
    tree = ast.parse((RULES_DIR / "edition.py").read_text())
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert [n.module for n in imports if isinstance(n, ast.ImportFrom)] == [
        "__future__",
        "dataclasses",
    ]
