"""The packs package stands alone: no Django, standard library and the rules package only."""

import ast
from pathlib import Path

import campaign.packs
from tests.rules.test_package import assert_imports_only_stdlib, assert_runs_without_django

PACKS_DIR = Path(campaign.packs.__file__).parent


def test_it_imports_and_validates_without_django_settings_and_loads_no_django_module():
    """R11: pack content reaches the rules as data; reading a pack needs no Django."""
    script = (
        "import sys\n"
        "from campaign.packs import load_pack, core_pack_data, check\n"
        "pack = load_pack(open(sys.argv[1], 'rb').read())\n"
        "assert len(pack.agendas) == 3, pack\n"
        "assert check(core_pack_data()).pack.slug == 'core'\n"
    )
    assert_runs_without_django(script, "docs/sample-house-pack.json")


def test_it_imports_only_the_standard_library_and_the_rules_package():
    """The core pack reads campaign.rules by relative import; nothing else is imported."""
    assert_imports_only_stdlib(PACKS_DIR)


def test_it_exports_every_name_it_lists():
    for name in campaign.packs.__all__:
        assert hasattr(campaign.packs, name), name


def sibling_imports(module: str) -> set[str]:
    tree = ast.parse((PACKS_DIR / f"{module}.py").read_text())
    return {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 1
    } - {""}


def test_it_keeps_the_declaration_free_of_logic():
    """The format's data modules (model, errors, spec) import no checking or building code,
    so the validator and the schema read one declaration and never each other."""
    assert sibling_imports("model") == set()
    assert sibling_imports("errors") == set()
    assert sibling_imports("spec") <= {"model"}
    assert "validate" not in sibling_imports("schema")
    assert "schema" not in sibling_imports("validate")
