"""`manage.py clean_form_tokens`: forget the used form tokens too old to be sent again.

A form's token is refused once it is older than `campaign.once.LIFETIME`, so the row that
says it was used is no longer needed after that. Nothing depends on running this: the rows
are small (one per change, like the history). Run it now and then, e.g. from cron.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils import timezone

from campaign import once
from campaign.models import UsedFormToken


class Command(BaseCommand):
    help = "Delete the used form tokens older than a form may be kept open."

    def handle(self, *args, **options) -> None:
        cutoff = timezone.now() - once.LIFETIME
        deleted, _ = UsedFormToken.objects.filter(created_at__lt=cutoff).delete()
        self.stdout.write(
            f"Forgot {deleted} used form token(s) older than {once.LIFETIME.days} days."
        )
