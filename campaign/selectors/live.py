"""Pages that follow a battle as it is played: the battle's page and a player's
dashboard ask every few seconds whether what they show changed.

Each asks with the version of what it shows (`selectors.versions`: a battle's, a
player's waiting things'), read in one query, as an ETag: the page holds the ETag of
what it shows and sends it back (If-None-Match); while nothing changed the answer is a
304 with no body, else the page's region as it is now, with its new ETag. Every ETag
also names the user it was made for and the database's generation (a restore takes
revisions back to numbers that named other states).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.conf import settings
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.http import quote_etag

from campaign.models import Battle
from campaign.serving import generation

from .versions import battle_version, battles_with_versions, waiting_versions


@dataclass(frozen=True)
class Watch:
    """How a page's region asks whether it changed: where, how often, with what ETag."""

    url: str
    region: str
    """The id of the element the answer replaces."""
    etag: str

    @property
    def headers(self) -> str:
        """The request headers the region's poll sends, as htmx reads them (JSON)."""
        return json.dumps({"If-None-Match": self.etag})

    @property
    def every(self) -> str:
        """The interval between two polls, as htmx reads it."""
        return f"{round(settings.CRUSADE_LIVE_SECONDS * 1000)}ms"


def _etag(*parts: object) -> str:
    return quote_etag(".".join(str(part) for part in (*parts, generation())))


def watched_battles() -> QuerySet[Battle]:
    """The battles a poll reads: only what its version and its access check need."""
    return battles_with_versions(Battle.objects.only("status", "campaign_id"))


def shown_battles() -> QuerySet[Battle]:
    """The battles the battle page shows, with the version its poll compares."""
    return battles_with_versions(Battle.objects.select_related("campaign", "phase", "territory"))


def battle_watch(battle: Battle, user) -> Watch:
    """The battle page's poll (``battle`` comes from `watched_battles` or `shown_battles`)."""
    return Watch(
        url=reverse("battle_live", args=[battle.pk]),
        region="battle-live",
        etag=_etag("battle", battle.pk, user.pk, battle_version(battle)),
    )


def battle_region_key(battle: Battle, watch: Watch) -> str:
    """The key of the battle page's region as ``watch`` names it for its viewer (``battle``
    from `shown_battles`): the battle's version names its sides, armies and cards, and the
    campaign's revision what the region shows of the campaign (its name, phase, territory,
    packs' Agendas and Blessings). A username changed shows within `FRAGMENT_SECONDS`, as
    on every cached list."""
    campaign = battle.campaign.revision if battle.campaign_id else 0
    return f"battle-region:{watch.etag}:{campaign}"


def waiting_watch(user, versions: list | None = None) -> Watch:
    """The poll of the dashboard's *Waiting for you*, its version read in one query
    (``versions``: what `versions.WAITING_VERSIONS` read, when read already)."""
    mine, theirs = waiting_versions(user, versions)
    return Watch(
        url=reverse("dashboard_live"),
        region="waiting",
        etag=_etag("waiting", user.pk, mine, theirs),
    )
