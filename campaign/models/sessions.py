"""A browser's session, as Django keeps it, with whom it signs in beside its data.

Django's session row holds only its key, its signed data and when it expires; who it
signs in is inside the data. Every signed-in page reads the session and then that user,
two round trips on PostgreSQL. Kept beside the data, the user comes in the session's
own query (`campaign.sessions`)."""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class SignedInSession(AbstractBaseSession):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        # A session never stops its user being deleted, and goes with them.
        on_delete=models.CASCADE,
        db_constraint=False,
        related_name="+",
        help_text="Whom the session signs in, as its data says (empty: nobody).",
    )

    class Meta:
        db_table = "campaign_session"
        verbose_name = "session"

    @classmethod
    def get_session_store_class(cls):
        """The store the settings name (`campaign.sessions`), found by name: the store
        builds these rows, so the model doesn't import it back."""
        return import_module(settings.SESSION_ENGINE).SessionStore
