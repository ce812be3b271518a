from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Crusade campaigns"
    default_auto_field = "django.db.models.BigAutoField"
