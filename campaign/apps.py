from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Crusade campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from campaign import checks  # noqa: F401  (registers the system checks)
        from campaign.connections import set_up
        from campaign.services._common import when_rows_written
        from campaign.webhooks.queue import rows_written

        # History writing tells the webhooks' queue of its rows; it does not import it.
        when_rows_written(rows_written)
        connection_created.connect(set_up, dispatch_uid="campaign.connections.set_up")
