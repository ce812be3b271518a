"""A card's traits table is now its keywords (moved by 0003)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0003_group_play_data"),
    ]

    operations = [
        migrations.RemoveField(model_name="unit", name="trait_table"),
    ]
