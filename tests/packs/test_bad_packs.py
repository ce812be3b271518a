"""A bad pack is refused with every problem, each naming its place and rule (R11).

Each case changes the sample house pack in one way and expects exactly these problems.
"""

import pytest

from campaign.packs import PackError, check, load_pack
from tests.packs.helpers import encode, sample


def setter(path: str, value):
    """A change that sets ``value`` at ``path`` ("agendas.0.xp")."""

    def change(data):
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        if last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value

    return change


def deleter(path: str):
    def change(data):
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        del target[last]

    return change


def add_trait_tables(data):
    entry = {"id": "sure-footed", "name": "Sure-footed", "effect": ""}
    data["battle_traits"] = [{"id": "walkers", "name": "Walkers", "entries": [entry, entry]}]


def add_upgrade(data):
    data["upgrades"] = [{"id": "plating", "name": "Plating", "effect": "", "crusade_points": 1}]
    data["requisitions"][1].update(effect_kind="upgrade", upgrade="plating", target="force")
    del data["requisitions"][1]["counter"]
    del data["requisitions"][1]["change"]


CASES = [
    ("wrong format", setter("format", "roster"), ["format: must be one of crusade-content-pack"]),
    ("wrong version", setter("version", 2), ["version: must be 1"]),
    ("no header", deleter("pack"), ["pack: is missing"]),
    (
        "agendas without a number per battle",
        deleter("agendas_per_battle"),
        ["agendas_per_battle: is needed when the pack has agendas"],
    ),
    (
        "too many agendas per battle",
        setter("agendas_per_battle", 11),
        ["agendas_per_battle: must be between 1 and 10"],
    ),
    (
        "bad slug",
        setter("pack.slug", "House Rules"),
        ["pack.slug: must be 1 to 40 lowercase letters, digits or hyphens"],
    ),
    (
        "long slug",
        setter("pack.slug", "a" * 41),
        ["pack.slug: must be 1 to 40 lowercase letters, digits or hyphens"],
    ),
    ("blank name", setter("blessings.0.name", "   "), ["blessings[0].name: must not be blank"]),
    ("empty name", setter("pack.name", ""), ["pack.name: must be 1 to 80 characters"]),
    (
        "long name",
        setter("agendas.0.name", "x" * 81),
        ["agendas[0].name: must be 1 to 80 characters"],
    ),
    (
        "long effect",
        setter("blessings.1.effect", "x" * 1001),
        ["blessings[1].effect: must be at most 1000 characters"],
    ),
    (
        "control character in a name",
        setter("agendas.2.name", "Scout\x07"),
        ["agendas[2].name: must not hold control characters"],
    ),
    ("xp too high", setter("agendas.2.xp", 11), ["agendas[2].xp: must be between 0 and 10"]),
    ("xp negative", setter("agendas.0.xp", -1), ["agendas[0].xp: must be between 0 and 10"]),
    ("xp as text", setter("agendas.0.xp", "2"), ["agendas[0].xp: must be a whole number"]),
    ("xp as a fraction", setter("agendas.0.xp", 1.5), ["agendas[0].xp: must be a whole number"]),
    ("xp as true", setter("agendas.0.xp", True), ["agendas[0].xp: must be a whole number"]),
    (
        "tally as 1",
        setter("agendas.0.keeps_tally", 1),
        ["agendas[0].keeps_tally: must be true or false"],
    ),
    (
        "limit of 0",
        setter("agendas.0.limit_per_battle", 0),
        ["agendas[0].limit_per_battle: must be between 1 and 10"],
    ),
    ("missing xp", deleter("agendas.1.xp"), ["agendas[1].xp: is missing"]),
    ("unknown key", setter("agendas.1.colour", "red"), ['agendas[1]: unknown key "colour"']),
    ("unknown section", setter("missions", []), ['(file): unknown key "missions"']),
    ("unknown header key", setter("pack.author", "me"), ['pack: unknown key "author"']),
    (
        "duplicate id",
        setter("agendas.1.id", "hold-the-beacon"),
        ['agendas[1].id: "hold-the-beacon" is used twice'],
    ),
    ("section not a list", setter("blessings", {}), ["blessings: must be a list"]),
    (
        "item not an object",
        setter("blessings.0", "Second Wind"),
        ["blessings[0]: must be an object (blessing)"],
    ),
    (
        "too many items",
        lambda d: d["blessings"].extend(
            {"id": f"b{i}", "name": "B", "effect": ""} for i in range(199)
        ),
        ["blessings: must hold at most 200 items"],
    ),
    (
        "thresholds not increasing",
        setter("underdog_thresholds.1.gap_at_least", 3),
        ["underdog_thresholds[1].gap_at_least: must be greater than the one before"],
    ),
    (
        "threshold of no blessings",
        setter("underdog_thresholds.0.blessings", 0),
        ["underdog_thresholds[0].blessings: must be between 1 and 10"],
    ),
    (
        "cost in an unknown counter",
        setter("requisitions.0.cost_in", "biomass"),
        ["requisitions[0].cost_in: names no counter of this pack"],
    ),
    (
        "cost too high",
        setter("requisitions.0.cost", 21),
        ["requisitions[0].cost: must be between 0 and 20"],
    ),
    (
        "bad timing",
        setter("requisitions.0.timing", "during_battle"),
        ["requisitions[0].timing: must be one of any, before_battle, after_battle"],
    ),
    (
        "bad target",
        setter("requisitions.0.target", "army"),
        ["requisitions[0].target: must be one of force, unit"],
    ),
    (
        "bad effect kind",
        setter("requisitions.0.effect_kind", "magic"),
        ["requisitions[0].effect_kind: must be one of counter, upgrade, text"],
    ),
    (
        "counter effect without its change",
        deleter("requisitions.1.change"),
        ['requisitions[1].change: is needed for effect_kind "counter"'],
    ),
    ("change of 0", setter("requisitions.1.change", 0), ["requisitions[1].change: must not be 0"]),
    (
        "text effect with a counter",
        setter("requisitions.0.counter", "salvage"),
        ['requisitions[0].counter: is only for effect_kind "counter"'],
    ),
    (
        "changes an unknown counter",
        setter("requisitions.1.counter", "honour"),
        ["requisitions[1].counter: names no counter of this pack"],
    ),
    (
        "changes a unit counter from the force",
        setter("counters.0.per", "unit"),
        [
            "requisitions[0].cost_in: must name a counter kept per force",
            "requisitions[1].counter: is kept per unit, not per force",
        ],
    ),
    (
        "upgrade for the force",
        add_upgrade,
        ['requisitions[1].target: must be "unit" to give an upgrade'],
    ),
    (
        "gives an unknown upgrade",
        lambda d: (add_upgrade(d), d["requisitions"][1].update(upgrade="wings", target="unit")),
        ["requisitions[1].upgrade: names no upgrade of this pack"],
    ),
    (
        "start outside the bounds",
        setter("counters.0.start", 21),
        ["counters[0]: must have least <= start <= most"],
    ),
    (
        "bound past the limit",
        setter("counters.0.most", 1001),
        ["counters[0].most: must be between -1000 and 1000"],
    ),
    (
        "bad counter per",
        setter("counters.0.per", "army"),
        ["counters[0].per: must be one of force, unit"],
    ),
    (
        "duplicate entry in a traits table",
        add_trait_tables,
        ['battle_traits[0].entries[1].id: "sure-footed" is used twice'],
    ),
    (
        "counter named rp",
        lambda d: (d["counters"][0].update(id="rp"), d["requisitions"][0].update(cost_in="rp")),
        [
            'counters[0].id: "rp" means Requisition points in cost_in',
            "requisitions[1].counter: names no counter of this pack",
        ],
    ),
    (
        "bad relic category",
        setter("crusade_relics", [{"id": "r", "name": "R", "category": "mythic", "effect": ""}]),
        ["crusade_relics[0].category: must be one of artificer, antiquity, legendary"],
    ),
    (
        "too many crusade points",
        setter("upgrades", [{"id": "u", "name": "U", "effect": "", "crusade_points": 4}]),
        ["upgrades[0].crusade_points: must be between 0 and 3"],
    ),
    (
        "alliance colour not hex",
        setter("alliances.0.colour", "blue"),
        ["alliances[0].colour: must be # and six hex digits, like #3366cc"],
    ),
    (
        "alliance colour of three digits",
        setter("alliances.0.colour", "#abc"),
        ["alliances[0].colour: must be # and six hex digits, like #3366cc"],
    ),
    (
        "alliance colour as a number",
        setter("alliances.0.colour", 3366),
        ["alliances[0].colour: must be text"],
    ),
    (
        "alliance without a colour",
        deleter("alliances.0.colour"),
        ["alliances[0].colour: is missing"],
    ),
    (
        "alliance name too long",
        setter("alliances.1.name", "x" * 81),
        ["alliances[1].name: must be 1 to 80 characters"],
    ),
    (
        "alliance description too long",
        setter("alliances.2.description", "x" * 1001),
        ["alliances[2].description: must be at most 1000 characters"],
    ),
    (
        "unknown key in an alliance",
        lambda d: d["alliances"][0].update(banner="x"),
        ['alliances[0]: unknown key "banner"'],
    ),
    (
        "too many alliances",
        lambda d: d.update(
            alliances=[
                {"id": f"a{i}", "name": f"A{i}", "colour": "#000000", "description": ""}
                for i in range(21)
            ]
        ),
        ["alliances: must hold at most 20 items"],
    ),
    (
        "alliances not a list",
        setter("alliances", {"id": "wardens"}),
        ["alliances: must be a list"],
    ),
    (
        "duplicate alliance id",
        setter("alliances.1.id", "wardens"),
        ['alliances[1].id: "wardens" is used twice'],
    ),
    (
        "duplicate alliance name",
        setter("alliances.1.name", "wardens of the vell"),
        ['alliances[1].name: "wardens of the vell" is used twice'],
    ),
    (
        "two problems at once",
        lambda d: (d["agendas"][0].update(xp=99), d["pack"].update(slug="")),
        [
            "pack.slug: must be 1 to 40 lowercase letters, digits or hyphens",
            "agendas[0].xp: must be between 0 and 10",
        ],
    ),
]


@pytest.mark.parametrize(("change", "problems"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_it_refuses_a_bad_pack_naming_each_place_and_rule(change, problems):
    """R11 (with R6 for Requisitions, R4/R5 for tables): the message is "place: rule"."""
    data = sample()
    change(data)
    with pytest.raises(PackError) as refused:
        load_pack(encode(data))
    assert refused.value.problems == problems


def test_it_accepts_an_effect_left_empty_for_the_organiser():
    """R11: where an effect isn't known, the pack carries the name only."""
    data = sample()
    data["agendas"][0]["effect"] = ""
    assert load_pack(encode(data)).agendas[0].effect == ""


def test_it_accepts_a_pack_that_holds_only_its_header():
    data = {key: sample()[key] for key in ("format", "version", "pack")}
    assert check(data).agendas == ()


def test_it_caps_the_list_of_problems():
    data = sample()
    data["agendas"] = [{"id": "A"} for _ in range(100)]
    with pytest.raises(PackError) as refused:
        check(data)
    assert len(refused.value.problems) == 51
    assert refused.value.problems[-1].startswith("(file): and ")


def test_it_refuses_a_file_that_is_not_an_object():
    with pytest.raises(PackError) as refused:
        load_pack(b"[1, 2]")
    assert refused.value.problems == ["(file): must be a JSON object"]
