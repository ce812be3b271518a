"""The packs that ship validate, and the core pack is the rules tables (R4.4, R4.5, R5.4, R6)."""

import json

import pytest

from campaign.packs import SECTIONS, core_pack_data, core_pack_text, load_pack, pack_text
from campaign.packs.model import Agenda, Counter, Requisition, UnderdogThreshold
from campaign.rules import (
    BATTLE_SCAR_EFFECTS,
    BATTLE_TRAIT_TABLES,
    CRUSADE_RELICS,
    requisition_cost,
)
from campaign.rules import Requisition as CoreRequisition
from tests.packs.helpers import CORE, SAMPLE, sample


def test_it_reads_the_sample_house_pack_as_dataclasses():
    """R11.1/R11.3/R11.4: Agendas, Blessings with thresholds, a counter and its Requisitions."""
    pack = load_pack(SAMPLE.read_bytes())
    assert pack.pack.slug == "sample-house-rules"
    assert pack.pack.source == "house rules"
    assert pack.agendas[1] == Agenda(
        id="trophy-takers",
        name="Trophy Takers",
        effect=pack.agendas[1].effect,
        xp=1,
        keeps_tally=True,
        limit_per_battle=None,
    )
    assert [b.id for b in pack.blessings] == ["second-wind", "local-guides"]
    assert pack.underdog_thresholds == (UnderdogThreshold(3, 1), UnderdogThreshold(10, 2))
    assert pack.counters == (Counter("salvage", "Salvage", "force", 0, 0, 20),)
    spend, earn = pack.requisitions
    assert isinstance(spend, Requisition)
    assert (spend.cost, spend.cost_in, spend.effect_kind) == (3, "salvage", "text")
    assert (earn.cost_in, earn.effect_kind, earn.counter, earn.change) == (
        "rp",
        "counter",
        "salvage",
        2,
    )


def test_it_reads_the_core_pack_file():
    pack = load_pack(CORE.read_bytes())
    assert pack.pack.slug == "core"
    assert (len(pack.requisitions), len(pack.battle_traits)) == (6, 4)


def test_it_keeps_the_core_pack_file_up_to_date_with_the_rules_tables():
    """The core pack is generated: `make pack-files`."""
    assert CORE.read_text() == core_pack_text()


def test_it_builds_the_core_pack_from_every_core_table():
    """R4.4 traits, R4.5 relics (empty effect: the organiser fills it in), R5.4 scars."""
    pack = load_pack(core_pack_text().encode())
    assert [t.name for t in pack.battle_traits] == [str(t) for t in BATTLE_TRAIT_TABLES]
    assert [[e.name for e in t.entries] for t in pack.battle_traits] == [
        [name for _roll, (name, _effect) in sorted(rows.items())]
        for rows in BATTLE_TRAIT_TABLES.values()
    ]
    assert {(r.name, r.category, r.effect) for r in pack.crusade_relics} == {
        (name, str(category), effect) for name, (category, effect) in CRUSADE_RELICS.items()
    }
    assert {s.name: s.effect for s in pack.battle_scars} == BATTLE_SCAR_EFFECTS


def test_it_gives_the_core_requisitions_their_cost_timing_and_target_from_r6():
    """R6: base costs from requisition_cost, R6.4 before a battle, R6.5 after one."""
    by_name = {r.name: r for r in load_pack(core_pack_text().encode()).requisitions}
    assert set(by_name) == {req.label for req in CoreRequisition}
    for req in CoreRequisition:
        assert by_name[req.label].cost == requisition_cost(req)
        assert by_name[req.label].cost_in == "rp"
    assert by_name["Rearm and Resupply"].timing == "before_battle"
    assert by_name["Repair and Recuperate"].timing == "after_battle"
    assert by_name["Fresh Recruits"].timing == "any"
    assert by_name["Increase Supply Limit"].target == "force"
    assert by_name["Legendary Veterans"].target == "unit"
    assert "at most 5RP" in by_name["Repair and Recuperate"].effect


def test_it_serves_the_core_pack_as_data_too():
    assert core_pack_data()["pack"]["slug"] == "core"


@pytest.mark.parametrize("path", [SAMPLE, CORE], ids=["sample", "core"])
def test_it_writes_a_pack_back_to_the_very_text_it_was_read_from(path):
    """R11: export then import gives the same pack, and the same file, exactly."""
    text = path.read_text()
    pack = load_pack(text.encode())
    assert pack_text(pack) == text
    assert load_pack(pack_text(pack).encode()) == pack


def test_it_leaves_out_optional_fields_and_empty_sections_when_it_writes():
    data = sample()
    data["blessings"] = []
    assert "limit_per_battle" not in data["agendas"][1]
    written = json.loads(pack_text(load_pack(json.dumps(data).encode())))
    assert "blessings" not in written
    assert "limit_per_battle" not in written["agendas"][1]
    assert list(written) == [
        "format",
        "version",
        "pack",
        "agendas_per_battle",
        *[name for name in SECTIONS if name in written],
    ]


def test_it_reads_the_sample_packs_alliances_with_their_colours():
    pack = load_pack(SAMPLE.read_bytes())
    assert [(a.id, a.colour) for a in pack.alliances] == [
        ("wardens", "#2f6fb3"),
        ("besiegers", "#b3302f"),
        ("scavengers", "#c9a227"),
    ]
    assert all(a.name and a.description for a in pack.alliances)


def test_a_pack_without_alliances_is_written_without_the_section():
    data = sample()
    del data["alliances"]
    assert "alliances" not in json.loads(pack_text(load_pack(json.dumps(data).encode())))
