"""A force's revision: how many history rows name it (`selectors.versions`). Forces that
already have history start at their count of rows."""

from django.db import migrations, models

COUNT_ROWS = """
UPDATE campaign_crusadeforce SET revision = (
    SELECT COUNT(*) FROM campaign_historyentry
    WHERE campaign_historyentry.force_id = campaign_crusadeforce.id
)
"""


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0005_form_once"),
    ]

    operations = [
        migrations.AddField(
            model_name="crusadeforce",
            name="revision",
            field=models.PositiveBigIntegerField(
                default=0,
                editable=False,
                help_text="How many history rows name the force: moved on by every change "
                "to it or its units, in the change's transaction, it names the state its "
                "page shows.",
            ),
        ),
        migrations.RunSQL(COUNT_ROWS, reverse_sql=migrations.RunSQL.noop, elidable=True),
    ]
