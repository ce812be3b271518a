"""System checks of this app's own settings, shown by `manage.py check --deploy`."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def check_proxy_settings(app_configs, **kwargs) -> list[Warning]:
    """A proxy count without BEHIND_PROXY: X-Forwarded-For is then never read, so behind a
    proxy every login attempt counts against the proxy's address, and a few wrong
    passwords from anyone lock everyone out."""
    if settings.TRUSTED_PROXY_COUNT is not None and not settings.BEHIND_PROXY:
        return [
            Warning(
                "TRUSTED_PROXY_COUNT is set but BEHIND_PROXY is off, so X-Forwarded-For is "
                "not read: login throttling counts every attempt against the address that "
                "connects, which behind a proxy is the proxy's, for every player.",
                hint="Behind a reverse proxy set BEHIND_PROXY=1; otherwise unset "
                "TRUSTED_PROXY_COUNT.",
                id="campaign.W001",
            )
        ]
    return []
