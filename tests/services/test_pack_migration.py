"""The upgrade to content packs (issue 19): each campaign's custom Battle Traits, Battle
Scars and Crusade Relics become its house rules pack, enabled in it, with the same rows,
so every honour and scar that holds one keeps it; and the way back."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import make_user

BEFORE = ("campaign", "0010_bounds_numbers")
AFTER = ("campaign", "0011_content_packs")


def old_world(apps) -> dict[str, int]:
    """Two campaigns' custom content in the 0010 schema, and a unit holding two of it."""
    User = apps.get_model("auth", "User")
    Campaign = apps.get_model("campaign", "Campaign")
    CustomContent = apps.get_model("campaign", "CustomContent")
    CrusadeForce = apps.get_model("campaign", "CrusadeForce")
    Unit = apps.get_model("campaign", "Unit")
    BattleScar = apps.get_model("campaign", "BattleScar")
    BattleHonour = apps.get_model("campaign", "BattleHonour")
    vraks = Campaign.objects.create(name="Vraks", invite_code="vraks-code")
    nexus = Campaign.objects.create(name="Pariah Nexus", invite_code="nexus-code")
    Campaign.objects.create(name="Empty", invite_code="empty-code")

    def item(campaign, kind, name, **extra):
        return CustomContent.objects.create(campaign=campaign, kind=kind, name=name, **extra).pk

    ids = {
        "relic": item(vraks, "crusade_relic", "Blade of Vraks", relic_category="antiquity"),
        "infantry": item(vraks, "battle_trait", "Trench Fighter", trait_table="Infantry"),
        "any": item(vraks, "battle_trait", "Siege Veteran", trait_table=""),
        "same-name": item(vraks, "battle_trait", "Siege-Veteran", trait_table=""),
        "scar": item(vraks, "battle_scar", "Gas Lungs", effect="Coughs."),
        "theirs": item(nexus, "battle_trait", "Trench Fighter", trait_table="Vehicle"),
    }
    player = User.objects.create(username="player")
    force = CrusadeForce.objects.create(
        player=player,
        campaign=vraks,
        name="Krieg 88th",
        faction="Astra Militarum",
        supply_limit=1000,
        rp=5,
        rp_cap=10,
    )
    unit = Unit.objects.create(force=force, name="Siege Squad", datasheet="Death Korps", points=100)
    ids["held-scar"] = BattleScar.objects.create(
        unit=unit, name="Gas Lungs", custom_content_id=ids["scar"]
    ).pk
    ids["held-honour"] = BattleHonour.objects.create(
        unit=unit, category="battle_trait", name="Trench Fighter", custom_content_id=ids["infantry"]
    ).pk
    ids["vraks"], ids["nexus"] = vraks.pk, nexus.pk
    return ids


@pytest.mark.django_db(transaction=True)
def test_it_turns_each_campaigns_custom_content_into_its_enabled_house_pack():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    ids = old_world(executor.loader.project_state([BEFORE]).apps)

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    new = executor.loader.project_state([AFTER]).apps
    ContentPack = new.get_model("campaign", "ContentPack")
    CustomContent = new.get_model("campaign", "CustomContent")
    EnabledPack = new.get_model("campaign", "EnabledPack")

    packs = {p.campaign_id: p for p in ContentPack.objects.all()}
    assert set(packs) == {ids["vraks"], ids["nexus"]}
    assert {p.slug for p in packs.values()} == {"house-rules"}
    enabled = set(EnabledPack.objects.values_list("campaign_id", "pack_id"))
    assert enabled == {(c, p.pk) for c, p in packs.items()}
    items = {row.pk: row for row in CustomContent.objects.all()}
    own = ["relic", "infantry", "any", "same-name", "scar", "theirs"]
    assert set(items) == {ids[name] for name in own}
    for name in own[:5]:
        assert items[ids[name]].pack_id == packs[ids["vraks"]].pk
    assert items[ids["theirs"]].pack_id == packs[ids["nexus"]].pk
    assert items[ids["relic"]].relic_category == "antiquity"
    assert (items[ids["infantry"]].trait_table, items[ids["any"]].trait_table) == ("infantry", "")
    assert items[ids["theirs"]].trait_table == "vehicle"
    keys = [(i.pack_id, i.kind, i.trait_table, i.key) for i in items.values()]
    assert len(keys) == len(set(keys))
    assert {items[ids["any"]].key, items[ids["same-name"]].key} == {
        "siege-veteran",
        "siege-veteran-2",
    }
    assert packs[ids["vraks"]].trait_tables == [{"id": "infantry", "name": "Infantry"}]
    assert packs[ids["nexus"]].trait_tables == [{"id": "vehicle", "name": "Vehicle"}]
    scar = new.get_model("campaign", "BattleScar").objects.get(pk=ids["held-scar"])
    honour = new.get_model("campaign", "BattleHonour").objects.get(pk=ids["held-honour"])
    assert (scar.custom_content_id, honour.custom_content_id) == (ids["scar"], ids["infantry"])

    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    back = {
        row.pk: (row.campaign_id, row.trait_table)
        for row in old.get_model("campaign", "CustomContent").objects.all()
    }
    assert back[ids["infantry"]] == (ids["vraks"], "Infantry")
    assert back[ids["theirs"]] == (ids["nexus"], "Vehicle")
    assert len(back) == 6

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    make_user("after-the-migration")  # the latest schema is back for the next test
