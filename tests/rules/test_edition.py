"""The core rules' numbers are declared once (campaign/rules/edition.py): a new edition of
the Crusade rules is a new declaration, and no other rules module types a number of its
own (R1-R8)."""

import ast
import dataclasses
from pathlib import Path

import pytest

import campaign.rules
from campaign import rules
from campaign.rules import edition
from campaign.rules.edition import EDITION, Edition, RequisitionCost

RULES_DIR = Path(campaign.rules.__file__).parent
ALLOWED = {
    "dice.py": {"MAX_REROLLS"},
    "tables.py": {"MOST_BONUS_XP_PER_BATTLE"},
    "agendas.py": {"MOST_AGENDAS_PER_BATTLE", "MOST_AGENDA_TIMES"},
}
"""Numbers that are the app's own limits, not the rules': the most re-rolls of a roll that
keeps landing on held results, the most bonus XP and the most times of one Agenda the
record form takes, and the most Agendas per battle a pack may ask for (the pack format's
bound; Agendas themselves are pack data)."""


def _numbers(value: ast.AST) -> list[int]:
    """The number literals in an expression, leaving out a dice table's keys (D6 -> entry)
    and the index that picks entries out of a table: tables are content, not numbers."""
    skip = set()
    for node in ast.walk(value):
        if isinstance(node, ast.Dict):
            skip |= {id(k) for k in node.keys if k is not None}
        if isinstance(node, ast.Subscript):
            skip |= {id(n) for n in ast.walk(node.slice)}
    return [
        n.value
        for n in ast.walk(value)
        if isinstance(n, ast.Constant) and type(n.value) is int and id(n) not in skip
    ]


def number_constants(path: Path) -> set[str]:
    """Module-level names bound to an expression that types a number."""
    tree = ast.parse(path.read_text())
    found = set()
    for node in tree.body:
        targets, value = [], None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        if value is None:
            continue
        if _numbers(value):
            found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return found


@pytest.mark.parametrize(
    "path",
    sorted(p for p in RULES_DIR.glob("*.py") if p.name != "edition.py"),
    ids=lambda p: p.name,
)
def test_it_types_no_rule_number_outside_the_edition(path):
    assert number_constants(path) <= ALLOWED.get(path.name, set())


def test_it_reads_every_table_of_numbers_from_the_edition():
    """R3.5, R3.6, R4.3, R4.5, R5.1, R5.3, R6, R8.1, R8.3, R1.2, R1.5."""
    assert list(rules.RANK_THRESHOLDS.values()) == [0, 6, 16, 31, 51]
    assert list(rules.RANK_THRESHOLDS.values()) == list(EDITION.rank_thresholds)
    assert rules.NON_CHARACTER_XP_CAP == EDITION.non_character_xp_cap == 30
    assert rules.MAX_BATTLE_HONOURS_CHARACTER == EDITION.max_battle_honours_character == 6
    assert rules.RELIC_MIN_RANK[rules.RelicCategory.ANTIQUITY] is rules.Rank.HEROIC
    assert rules.BATTLE_SIZES is EDITION.battle_sizes
    assert rules.DEFAULT_HOUSE_RULES.supply_limit_increase == EDITION.house.supply_limit_increase
    assert {r: r.max_cost for r in rules.Requisition} == {
        r: EDITION.requisition_costs[r.value].most for r in rules.Requisition
    }


def test_it_prices_each_requisition_from_its_declared_cost():
    """R6: the worked costs of the rules text, from the declaration's bases and steps."""
    cost = rules.requisition_cost
    assert cost(rules.Requisition.RENOWNED_HEROES, other_enhancements=1) == 2
    assert cost(rules.Requisition.REPAIR_AND_RECUPERATE, battle_honours=3) == 4
    assert cost(rules.Requisition.FRESH_RECRUITS, battle_honours=3) == 3
    assert cost(rules.Requisition.FRESH_RECRUITS, battle_honours=0) == 1
    assert cost(rules.Requisition.FRESH_RECRUITS, battle_honours=6) == 4
    assert cost(rules.Requisition.LEGENDARY_VETERANS) == 3


def test_it_prices_a_requisition_of_another_edition_by_the_same_code(monkeypatch):
    """A new edition changes the declaration only: the same function applies it."""
    costs = dict(EDITION.requisition_costs)
    costs["fresh_recruits"] = RequisitionCost(base=2, most=6, honours_per_rp=3)
    other = dataclasses.replace(EDITION, name="another edition", requisition_costs=costs)
    monkeypatch.setattr(campaign.rules.requisitions, "EDITION", other)
    assert rules.requisition_cost(rules.Requisition.FRESH_RECRUITS, battle_honours=4) == 4
    assert rules.requisition_cost(rules.Requisition.FRESH_RECRUITS, battle_honours=30) == 6


def test_it_declares_a_value_for_every_member_of_the_enums_it_keys():
    assert set(EDITION.requisition_costs) == {r.value for r in rules.Requisition}
    assert set(EDITION.relic_crusade_points) == {c.value for c in rules.RelicCategory}
    assert len(EDITION.rank_thresholds) == len(rules.Rank)
    assert isinstance(edition.TENTH, Edition)
