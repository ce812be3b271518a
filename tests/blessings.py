"""Test helpers for the underdog and its Crusade Blessings (R11.2, R11.3): honours that
give a unit Crusade points, and a small pack of Blessings with its thresholds."""

from __future__ import annotations

import json
from itertools import count

from campaign import services
from campaign.models import BattleHonour, CrusadeForce, CustomContent
from campaign.services._common import refresh_totals

_slugs = count(1)

BLESSINGS = ["Second Wind", "Local Guides", "Hidden Cache"]


def give_honours(unit, n: int) -> None:
    """``n`` Battle Traits on the card: ``n`` Crusade points (R7); the force's stored
    totals follow, as a service would keep them."""
    for i in range(n):
        BattleHonour.objects.create(unit=unit, category="battle_trait", name=f"Trait {i}")
    refresh_totals(CrusadeForce.objects.get(pk=unit.force_id))


def blessing_pack(
    actor, campaign, *, thresholds=((1, 1), (4, 2)), blessings=BLESSINGS, slug: str = ""
):
    """A pack of Blessings enabled in ``campaign``: a gap of 1 Crusade point gives one
    Blessing, 4 give two (unless other ``thresholds``)."""
    data = {
        "format": "crusade-content-pack",
        "version": 1,
        "pack": {
            "slug": slug or f"blessings-{next(_slugs)}",
            "name": f"Blessings {slug}",
            "description": "Blessings for the tests.",
            "source": "house rules",
        },
        "blessings": [
            {"id": name.lower().replace(" ", "-"), "name": name, "effect": f"{name} helps."}
            for name in blessings
        ],
        "underdog_thresholds": [{"gap_at_least": gap, "blessings": n} for gap, n in thresholds],
    }
    return services.import_pack(actor=actor, data=json.dumps(data).encode(), campaign=campaign)


def blessing(name: str, campaign=None) -> CustomContent:
    found = CustomContent.objects.filter(kind="blessing", name=name)
    if campaign is not None:
        found = found.enabled_in(campaign.pk)
    return found.order_by("-pk").first()
