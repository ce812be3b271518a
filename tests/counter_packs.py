"""Packs with counters and Requisitions for the tests (R6, R7, R11.4): the sample pack
(a force counter, Salvage, and two Requisitions) and a small pack of our own with a unit
counter and an upgrade."""

from __future__ import annotations

import json
from pathlib import Path

from campaign import services
from campaign.models import Campaign, CustomContent, Membership

SAMPLE = Path(__file__).resolve().parent.parent / "docs" / "sample-house-pack.json"

VETERAN_PACK = {
    "format": "crusade-content-pack",
    "version": 1,
    "pack": {
        "slug": "test-veterans",
        "name": "Test veterans",
        "description": "Numbers for tests only.",
        "source": "tests",
    },
    "counters": [
        {"id": "glory", "name": "Glory", "per": "unit", "start": 1, "least": 0, "most": 3},
        {"id": "honour", "name": "Honour", "per": "force", "start": 2, "least": 0, "most": 5},
    ],
    "upgrades": [
        {"id": "pennant", "name": "Battle Pennant", "effect": "A banner.", "crusade_points": 2}
    ],
    "requisitions": [
        {
            "id": "raise-pennant",
            "name": "Raise a Pennant",
            "effect": "The unit carries a pennant.",
            "cost": 2,
            "cost_in": "honour",
            "timing": "any",
            "target": "unit",
            "effect_kind": "upgrade",
            "upgrade": "pennant",
        },
        {
            "id": "sing-deeds",
            "name": "Sing of Deeds",
            "effect": "The unit gains Glory.",
            "cost": 1,
            "cost_in": "rp",
            "timing": "before_battle",
            "target": "unit",
            "effect_kind": "counter",
            "counter": "glory",
            "change": 1,
        },
    ],
}


def organiser_of(campaign: Campaign):
    return campaign.memberships.get(role=Membership.Role.ORGANISER).user


def with_sample_pack(campaign: Campaign) -> Campaign:
    services.import_pack(actor=organiser_of(campaign), data=SAMPLE.read_bytes(), campaign=campaign)
    return campaign


def with_veteran_pack(campaign: Campaign) -> Campaign:
    data = json.dumps(VETERAN_PACK).encode()
    services.import_pack(actor=organiser_of(campaign), data=data, campaign=campaign)
    return campaign


def item(key: str, kind: str = CustomContent.Kind.REQUISITION) -> CustomContent:
    return CustomContent.objects.get(kind=kind, key=key)
