"""A Crusade export taken out and restored as a new force: every field comes back, and a
document that isn't what it claims is refused whole (R1, R2, R3, R4, R5, R6 as stored)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from campaign import documents, rules, selectors, services
from campaign.models import BattleHonour, CrusadeForce, HistoryEntry
from tests.factories import make_campaign, make_user
from tests.services.checks import refused
from tests.services.veterans import veteran_force

pytestmark = pytest.mark.django_db


def exported(force: CrusadeForce, **kwargs) -> dict:
    """The export as another server reads it: through JSON text."""
    return json.loads(documents.dumps(selectors.force_document(force, **kwargs)))


VERSION_1 = Path(__file__).parent / "data" / "force-export-v1.json"

ENVELOPE = ("exported_at", "exported_from", "signature", "restored_from")
"""What says where and when a document was made, rather than what the force holds."""


def without_export_time(document: dict) -> dict:
    return {key: value for key, value in document.items() if key not in ENVELOPE}


def restore(document, *, player=None, campaign=None, **kwargs) -> CrusadeForce:
    player = player or make_user()
    if campaign is not None:
        services.join_campaign(actor=player, user=player, campaign=campaign)
    return services.restore_force(
        actor=player, player=player, campaign=campaign, document=document, **kwargs
    )


def test_it_restores_an_export_that_exports_again_exactly_the_same():
    """Every field of the force, its cards, honours, scars, promotions and requisitions
    survives export -> restore -> export; only where and when the export was made differ."""
    force = veteran_force()
    first = exported(force)

    restored = restore(first, campaign=force.campaign)

    second = exported(restored)
    assert restored.pk != force.pk
    assert without_export_time(second) == without_export_time(first)
    squad = restored.units.get(name="Squad Keller")
    honour = squad.honours.get(status=BattleHonour.Status.ACTIVE)
    assert honour.custom_content.campaign == force.campaign
    assert honour.replaces.name == "Obdurate Obedience"


def test_it_moves_a_force_to_another_campaign_under_a_new_name():
    """Campaign content the new campaign lacks stays on the card by name and effect."""
    force = veteran_force()
    first = exported(force)
    elsewhere = make_campaign(name="Elsewhere")

    restored = restore(first, campaign=elsewhere, name="13th Reborn")

    second = exported(restored)
    assert (restored.name, restored.campaign) == ("13th Reborn", elsewhere)
    assert second["force"] == {**first["force"], "name": "13th Reborn"}
    assert second["totals"] == first["totals"]
    moved = next(u for u in second["units"] if u["name"] == "Squad Keller")
    original = next(u for u in first["units"] if u["name"] == "Squad Keller")
    assert moved["honours"][-1] == {**original["honours"][-1], "custom_content": None}
    assert moved["honours"][-1]["name"] == "Veteran of Vraks"


def test_it_says_in_the_history_that_the_force_and_each_unit_were_restored():
    force = veteran_force()

    restored = restore(exported(force), campaign=force.campaign)

    rows = restored.history.filter(
        action__in=[HistoryEntry.Action.FORCE_RESTORED, HistoryEntry.Action.UNIT_RESTORED]
    )
    assert rows.filter(unit__isnull=True).count() == 1
    assert rows.filter(unit__isnull=False).count() == restored.units.count() == 3
    assert "restored from a Crusade export" in rows.first().summary


def test_it_carries_the_exported_history_over_as_imported_rows_by_the_restoring_player():
    """The file's history is data: each row comes marked imported, by the player who
    restored it and dated now, with the file's own date, author and text kept with it."""
    force = veteran_force()
    document = exported(force, history=True)
    document["history"][0].update(created_at="1999-01-01T00:00:00+00:00", by="someone else")
    player = make_user()

    restored = restore(document, player=player, campaign=force.campaign)

    imported = restored.history.exclude(imported_from={})
    assert imported.count() == len(document["history"])
    assert restored.history.count() == len(document["history"]) + 1 + 3
    assert set(imported.values_list("actor", flat=True)) == {player.pk}
    assert all(row.created_at.year > 1999 for row in imported)
    first = imported.get(imported_from__created_at="1999-01-01T00:00:00+00:00")
    assert first.imported_from["by"] == "someone else"
    assert first.imported_from["summary"] == document["history"][0]["summary"]
    assert first.summary == f"Imported: {document['history'][0]['summary']}"
    assert first.is_imported and not restored.history.filter(imported_from={}).first().is_imported


def test_it_refuses_a_campaign_the_player_has_not_joined():
    force = veteran_force()

    with refused("Join the campaign before creating a force in it."):
        services.restore_force(
            actor=force.player,
            player=make_user(),
            campaign=force.campaign,
            document=exported(force),
        )


# --------------------------------------------------------------------------- hostile documents


def unit(name: str) -> Callable[[dict], dict]:
    def find(document: dict) -> dict:
        return next(u for u in document["units"] if u["name"] == name)

    return find


SQUAD, HERO = unit("Squad Keller"), unit("Lord Commissar Vell")


def setting(where: Callable[[dict], dict], key: str, value) -> Callable[[dict], None]:
    def change(document: dict) -> None:
        where(document)[key] = value

    return change


def force_part(document: dict) -> dict:
    return document["force"]


HOSTILE: dict[str, tuple[Callable[[dict], None], str]] = {
    "another format": (lambda d: d.update(format="new-recruit"), "isn't a Crusade export"),
    "a later version": (lambda d: d.update(version=3), "reads versions 1 and 2"),
    "a version as text": (lambda d: d.update(version="1"), "reads versions 1 and 2"),
    "a version as true": (lambda d: d.update(version=True), "reads versions 1 and 2"),
    "no force": (lambda d: d.pop("force"), 'no "force" object'),
    "units not a list": (lambda d: d.update(units={"a": 1}), "units must be a list"),
    "too many units": (lambda d: d.update(units=[{}] * 1001), "at most 1000"),
    "XP as text": (setting(SQUAD, "xp", "12"), "units[1].xp has the wrong type"),
    "XP as a float": (setting(SQUAD, "xp", 12.0), "wrong type"),
    "XP as true": (setting(SQUAD, "xp", True), "wrong type"),
    "negative XP": (setting(SQUAD, "xp", -1), "greater than or equal to 0"),
    "huge points": (setting(SQUAD, "points", 2**40), "units[1].points is out of range"),
    "a long name": (setting(SQUAD, "name", "x" * 121), "at most 120 characters"),
    "an empty name": (setting(SQUAD, "name", ""), "cannot be blank"),
    "a missing name": (lambda d: SQUAD(d).pop("name"), "name is missing"),
    "a null XP": (setting(SQUAD, "xp", None), "xp can't be null"),
    "an unknown status": (setting(SQUAD, "status", "resurrected"), "not a valid choice"),
    "a bad date": (setting(SQUAD, "created_at", "yesterday"), "must be a date and time"),
    "removed without a date": (setting(SQUAD, "status", "removed"), "removal date"),
    "survived more than played": (setting(SQUAD, "battles_survived", 9), "survived more"),
    "no models": (setting(SQUAD, "model_count", 0), "greater than or equal to 1"),
    "XP above the cap": (setting(SQUAD, "xp", 31), "above its cap of 30XP"),
    "four scars": (
        lambda d: SQUAD(d).update(scars=[{"name": f"Scar {i}"} for i in range(4)]),
        "4 Battle Scars held; at most 3",
    ),
    "too many honours": (
        lambda d: SQUAD(d).update(
            honours=[{"category": "battle_trait", "name": f"T{i}"} for i in range(4)]
        ),
        "4 Battle Honours held; at most 3",
    ),
    "an unknown honour category": (
        lambda d: HERO(d)["honours"][0].update(category="bribe"),
        "not a valid choice",
    ),
    "a relic without its category": (
        lambda d: HERO(d)["honours"][1].update(relic_category=""),
        "without its relic_category",
    ),
    "modifications as text": (
        lambda d: HERO(d)["honours"][2].update(modifications="Brutal"),
        "modifications has the wrong type",
    ),
    "modifications that aren't names": (
        lambda d: HERO(d)["honours"][2].update(modifications=[{"a": 1}]),
        "modifications must be at most two names",
    ),
    "a link to a later honour": (
        lambda d: SQUAD(d)["honours"][0].update(replaces=1),
        "replaces points to no row",
    ),
    "a link to no promotion": (
        lambda d: HERO(d)["honours"][0].update(promotion=7),
        "promotion points to no row",
    ),
    "content named by a number": (
        lambda d: SQUAD(d)["honours"][1].update(custom_content=5),
        "must be the name of campaign content",
    ),
    "a requisition for no unit": (
        lambda d: d["requisitions"][0].update(unit=99),
        "requisitions[0].unit points to no row",
    ),
    "an unknown requisition": (
        lambda d: d["requisitions"][0].update(requisition="bribe"),
        "not a valid choice",
    ),
    "a requisition above its cost": (
        lambda d: d["requisitions"][0].update(cost=9),
        "costs at most 3RP",
    ),
    "details as a list": (
        lambda d: d["requisitions"][0].update(details=[1]),
        "details has the wrong type",
    ),
    "huge details": (
        lambda d: d["requisitions"][0].update(details={"x": "y" * 20_000}),
        "wrong type or is too long",
    ),
    "RP above the cap": (setting(force_part, "rp", 11), "cap is 10RP"),
    "more victories than battles": (setting(force_part, "victories", 5), "more victories"),
    "units over the Supply Limit": (setting(force_part, "supply_limit", 100), "don't fit"),
    "two units of one name": (setting(SQUAD, "name", "lord commissar vell"), "same name"),
    "history with an unknown action": (
        lambda d: d.update(history=[{"action": "hack", "summary": "x"}]),
        "history[0].action",
    ),
    "history as changes text": (
        lambda d: d.update(history=[{"action": "force_edited", "summary": "x", "changes": "x"}]),
        "changes has the wrong type",
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_it_refuses_a_document_that_is_not_a_sound_crusade_export(case):
    force = veteran_force()
    document = copy.deepcopy(exported(force))
    change, message = HOSTILE[case]
    change(document)
    player = make_user()
    services.join_campaign(actor=player, user=player, campaign=force.campaign)

    with refused(containing=[message]):
        services.restore_force(
            actor=player, player=player, campaign=force.campaign, document=document
        )


@pytest.mark.parametrize(
    "document",
    [None, [], "crusade-force", 3, {"format": "crusade-force"}],
    ids=["null", "a list", "text", "a number", "no version"],
)
def test_it_refuses_documents_of_the_wrong_shape(document):
    with refused():
        restore(document)


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"\xff\xfe\x00garbage", "isn't JSON"),
        (b'{"format": "crusade-force", "version": NaN}', "isn't JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "isn't JSON"),
        (b'{"a": ' + b"9" * 5000 + b"}", "isn't JSON"),
        (b" " * (documents.MAX_BYTES + 1), "over 5 MB"),
    ],
    ids=["not text", "NaN", "deeply nested", "a 5000-digit number", "too big"],
)
def test_it_refuses_files_that_are_not_plain_bounded_json(raw, message):
    with pytest.raises(ValidationError) as info:
        documents.loads(raw)

    assert message in " ".join(info.value.messages)


def test_it_checks_every_relic_category_and_rank_as_the_rules_name_them():
    """R4.5 categories and R3.5 ranks are the rules' own values in the document."""
    document = exported(veteran_force())
    hero = HERO(document)

    assert {h["relic_category"] for h in hero["honours"]} >= {rules.RelicCategory.ARTIFICER}
    assert {p["rank"] for u in document["units"] for p in u["promotions"]} <= set(rules.Rank)


def test_it_restores_a_version_1_export_made_before_packs():
    """An export written by the version-1 code (kept as a file) restores: its cards come
    back with no Agenda tallies, counters or upgrades, which that version never had."""
    document = json.loads(VERSION_1.read_text())
    assert document["version"] == 1

    restored = restore(document, campaign=make_campaign(name="The Long War"))

    assert restored.units.count() == len(document["units"])
    assert {u.name for u in restored.units.all()} == {u["name"] for u in document["units"]}
    assert all(unit.agenda_tallies == {} for unit in restored.units.all())
    assert not restored.counters.exists()
    assert exported(restored)["version"] == documents.VERSION == 2
