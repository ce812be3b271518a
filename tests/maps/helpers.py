"""Shared test data for maps: a small map file, and a campaign at war over it."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from campaign import services
from campaign.models import Alliance, Campaign, CrusadeForce, Territory
from tests.factories import make_campaign, make_character, make_force, make_user

SMALL = {
    "format": "crusade-campaign-map",
    "version": 1,
    "map": {"name": "The Vell Reach", "description": "Three worlds and a moon."},
    "territories": [
        {
            "id": "hive-vell",
            "name": "Hive Vell",
            "description": "The capital.",
            "column": 0,
            "row": 0,
            "neighbours": ["ash-wastes"],
            "held_by": "Imperium",
        },
        {
            "id": "ash-wastes",
            "name": "Ash Wastes",
            "description": "",
            "column": 1,
            "row": 0,
            "neighbours": ["hive-vell", "moon"],
        },
        {
            "id": "moon",
            "name": "The Moon",
            "description": "",
            "column": 2,
            "row": 0,
            "neighbours": ["ash-wastes"],
            "held_by": "Chaos",
        },
    ],
}


def small() -> dict:
    return copy.deepcopy(SMALL)


def encode(data: object) -> bytes:
    return json.dumps(data).encode()


@dataclass
class War:
    organiser: object
    campaign: Campaign
    imperium: Alliance
    chaos: Alliance
    loyal: CrusadeForce
    traitor: CrusadeForce

    def territory(self, key: str) -> Territory:
        return Territory.objects.get(campaign=self.campaign, key=key)

    def reload(self) -> None:
        self.campaign.refresh_from_db()


def war(*, with_map: bool = True, **rules) -> War:
    """A campaign with two alliances, a force in each (with a Warlord), and the small map."""
    organiser = make_user(is_staff=True)
    campaign = make_campaign(organiser=organiser)
    if rules:
        Campaign.objects.filter(pk=campaign.pk).update(**rules)
        campaign.refresh_from_db()
    imperium = Alliance.objects.create(campaign=campaign, name="Imperium", colour="#3366cc")
    chaos = Alliance.objects.create(campaign=campaign, name="Chaos", colour="#cc3333")
    loyal = make_force(campaign=campaign, name="Loyal Guard")
    traitor = make_force(campaign=campaign, name="Traitor Host")
    CrusadeForce.objects.filter(pk=loyal.pk).update(alliance=imperium)
    CrusadeForce.objects.filter(pk=traitor.pk).update(alliance=chaos)
    loyal.refresh_from_db()
    traitor.refresh_from_db()
    make_character(loyal)
    make_character(traitor)
    if with_map:
        services.import_map(actor=organiser, campaign=campaign, data=encode(SMALL))
    return War(organiser, campaign, imperium, chaos, loyal, traitor)
