# Content packs: each campaign's custom Battle Traits, Battle Scars and Crusade Relics
# become the items of its house rules pack, enabled in it. Every item keeps its row (and
# so every honour and scar that holds one keeps it).

import re

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

HOUSE_SLUG = "house-rules"
TABLE_IDS = {"Character": "character", "Infantry": "infantry", "Mounted": "mounted", "Vehicle": "vehicle"}
TABLE_NAMES = {v: k for k, v in TABLE_IDS.items()}


def _key(name, taken):
    base = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")[:36] or "item"
    key, n = base, 1
    while key in taken:
        n += 1
        key = f"{base[:36]}-{n}"
    taken.add(key)
    return key


def _check_now(schema_editor):
    """Run PostgreSQL's deferred foreign key checks of the rows just written, so the
    schema changes after them in this migration's transaction may alter those tables."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        schema_editor.execute("SET CONSTRAINTS ALL DEFERRED")


def make_house_packs(apps, schema_editor):
    Campaign = apps.get_model("campaign", "Campaign")
    ContentPack = apps.get_model("campaign", "ContentPack")
    EnabledPack = apps.get_model("campaign", "EnabledPack")
    CustomContent = apps.get_model("campaign", "CustomContent")
    for campaign in Campaign.objects.filter(custom_content__isnull=False).distinct():
        pack = ContentPack.objects.create(
            slug=HOUSE_SLUG,
            name=f"{campaign.name}: house rules"[:80],
            description="The campaign's own Battle Traits, Battle Scars and Crusade Relics.",
            source="house rules",
            campaign=campaign,
        )
        EnabledPack.objects.create(campaign=campaign, pack=pack)
        taken = {}
        tables = []
        items = CustomContent.objects.filter(campaign=campaign).order_by("kind", "name", "pk")
        for position, item in enumerate(items):
            item.pack = pack
            item.trait_table = TABLE_IDS.get(item.trait_table, item.trait_table)
            if item.trait_table and item.trait_table not in tables:
                tables.append(item.trait_table)
            item.key = _key(item.name, taken.setdefault((item.kind, item.trait_table), set()))
            item.position = position
            item.save(update_fields=["pack", "key", "position", "trait_table"])
        pack.trait_tables = [{"id": t, "name": TABLE_NAMES[t]} for t in sorted(tables)]
        pack.save(update_fields=["trait_tables"])
    _check_now(schema_editor)


def back_to_campaigns(apps, schema_editor):
    CustomContent = apps.get_model("campaign", "CustomContent")
    for item in CustomContent.objects.select_related("pack").exclude(pack=None):
        item.campaign_id = item.pack.campaign_id
        item.trait_table = TABLE_NAMES.get(item.trait_table, item.trait_table)
        item.save(update_fields=["campaign", "trait_table"])
    CustomContent.objects.filter(campaign=None).delete()
    # Detached first: deleting the packs would take their items (and refuse, for an item
    # a card holds).
    CustomContent.objects.update(pack=None)
    apps.get_model("campaign", "ContentPack").objects.all().delete()
    _check_now(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0010_bounds_numbers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ContentPack",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("slug", models.SlugField(max_length=40)),
                ("name", models.CharField(max_length=80)),
                ("description", models.TextField(blank=True, max_length=1000)),
                ("source", models.CharField(max_length=80)),
                ("agendas_per_battle", models.PositiveSmallIntegerField(blank=True, help_text="How many Agendas a player picks for a battle.", null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(10)])),
                ("underdog_thresholds", models.JSONField(blank=True, default=list, help_text='As in the file: [{"gap_at_least": 5, "blessings": 1}, ...], gaps going up.')),
                ("trait_tables", models.JSONField(blank=True, default=list, help_text='The Battle Traits tables, in order: [{"id": ..., "name": ...}, ...].')),
                ("imported_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("campaign", models.ForeignKey(blank=True, help_text="The campaign this pack belongs to; empty for a pack any campaign may enable.", null=True, on_delete=django.db.models.deletion.CASCADE, related_name="own_packs", to="campaign.campaign")),
                ("imported_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "verbose_name": "content pack",
                "ordering": ["name", "pk"],
                "constraints": [
                    models.UniqueConstraint(condition=models.Q(("campaign__isnull", True)), fields=("slug",), name="library_pack_slug_unique", violation_error_message="The library already has a pack with this slug."),
                    models.UniqueConstraint(fields=("campaign", "slug"), name="campaign_pack_slug_unique", violation_error_message="The campaign already has a pack with this slug."),
                ],
            },
        ),
        migrations.CreateModel(
            name="EnabledPack",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("enabled_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("campaign", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="enabled_packs", to="campaign.campaign")),
                ("enabled_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("pack", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="enabled_in", to="campaign.contentpack")),
            ],
            options={
                "ordering": ["campaign", "pack__name"],
                "constraints": [models.UniqueConstraint(fields=("campaign", "pack"), name="pack_enabled_once")],
            },
        ),
        migrations.AddField(
            model_name="customcontent",
            name="pack",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="items", to="campaign.contentpack"),
        ),
        migrations.AddField(
            model_name="customcontent",
            name="key",
            field=models.SlugField(default="", help_text="The item's id in the pack file (unique within its kind).", max_length=40),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="customcontent",
            name="position",
            field=models.PositiveIntegerField(default=0, editable=False, help_text="Its place in the pack's order."),
        ),
        migrations.AddField(
            model_name="customcontent",
            name="details",
            field=models.JSONField(blank=True, default=dict, help_text="The numbers of its kind, as the pack file names them (xp, cost, ...)."),
        ),
        migrations.AlterField(
            model_name="customcontent",
            name="kind",
            field=models.CharField(choices=[("battle_trait", "Battle Trait"), ("battle_scar", "Battle Scar"), ("crusade_relic", "Crusade Relic"), ("agenda", "Agenda"), ("blessing", "Crusade Blessing"), ("requisition", "Requisition"), ("upgrade", "Unit upgrade"), ("counter", "Counter")], max_length=20),
        ),
        migrations.AlterField(
            model_name="customcontent",
            name="trait_table",
            field=models.CharField(blank=True, help_text="Battle Traits only: the id of the table it is in (character, infantry, mounted, vehicle, or a table of its pack); empty for a trait that suits any unit.", max_length=40),
        ),
        migrations.AlterField(
            model_name="customcontent",
            name="campaign",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="custom_content", to="campaign.campaign"),
        ),
        migrations.RemoveConstraint(model_name="customcontent", name="custom_content_unique_name"),
        migrations.RunPython(make_house_packs, back_to_campaigns),
        migrations.RemoveField(model_name="customcontent", name="campaign"),
        migrations.AlterField(
            model_name="customcontent",
            name="pack",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="items", to="campaign.contentpack"),
        ),
        migrations.AlterModelOptions(
            name="customcontent",
            options={"ordering": ["pack", "kind", "position", "pk"], "verbose_name": "pack content", "verbose_name_plural": "pack content"},
        ),
        migrations.AddConstraint(
            model_name="customcontent",
            constraint=models.UniqueConstraint(fields=("pack", "kind", "trait_table", "key"), name="pack_item_unique_key"),
        ),
    ]
