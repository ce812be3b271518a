from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Crusade campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from campaign import checks  # noqa: F401  (registers the system checks)
