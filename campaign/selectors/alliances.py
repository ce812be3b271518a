"""Alliances as pages read them: what a force may pick, and whether it may pick at all."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet

from campaign.models import Alliance


def choosable_alliances(campaign_id: int | None) -> QuerySet[Alliance]:
    """What a force of the campaign may pick: its alliances not retired, by name."""
    return Alliance.objects.filter(campaign_id=campaign_id, retired=False).order_by("name", "pk")


def has_alliances_to_pick():
    """Whether the force's campaign has an alliance it may pick, as an annotation of the
    force's own query: a force page in a campaign without any asks nothing more."""
    return Exists(Alliance.objects.filter(campaign_id=OuterRef("campaign_id"), retired=False))
