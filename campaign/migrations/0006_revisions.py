"""Revisions of forces and campaigns (`selectors.versions`): how many history rows name a
force, and how many name a campaign and no force. Rows already written are counted."""

from django.db import migrations, models

COUNT_FORCE_ROWS = """
UPDATE campaign_crusadeforce SET revision = (
    SELECT COUNT(*) FROM campaign_historyentry
    WHERE campaign_historyentry.force_id = campaign_crusadeforce.id
)
"""

COUNT_CAMPAIGN_ROWS = """
UPDATE campaign_campaign SET revision = (
    SELECT COUNT(*) FROM campaign_historyentry
    WHERE campaign_historyentry.campaign_id = campaign_campaign.id
    AND campaign_historyentry.force_id IS NULL
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
        migrations.AddField(
            model_name="campaign",
            name="revision",
            field=models.PositiveBigIntegerField(
                default=0,
                editable=False,
                help_text="How many history rows name the campaign and no force: with its "
                "forces' revisions, it names the state its page shows.",
            ),
        ),
        migrations.RunSQL(COUNT_FORCE_ROWS, reverse_sql=migrations.RunSQL.noop, elidable=True),
        migrations.RunSQL(COUNT_CAMPAIGN_ROWS, reverse_sql=migrations.RunSQL.noop, elidable=True),
    ]
