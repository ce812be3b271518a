"""The Crusade card as a picture: what it shows, and the PNG, drawn once per version.

`card_image_facts` reads a card in the same number of queries whatever it holds. The
PNG is kept in Django's cache under the facts' fingerprint (`CardFacts.fingerprint`, a
hash of everything the picture shows and of the drawing's version), so a changed card
is a new key and is drawn again, while an unchanged one is drawn once and then read
from the cache. Nothing is ever invalidated, so a cache of each process's own (the
default) is never stale: it only draws a card once per process instead of once.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db.models import prefetch_related_objects

from campaign import card_image, rules
from campaign.card_image import CardFacts
from campaign.models import Unit, card_prefetches

CACHE_PREFIX = "crusade-card-png"
CACHE_SECONDS = 7 * 24 * 3600
"""How long a drawn card is kept (unless the cache needs the room sooner)."""

logger = logging.getLogger(__name__)


def card_image_facts(unit: Unit) -> CardFacts:
    """What the picture of ``unit`` shows (its force and campaign are already loaded by
    the access helper): three queries, for its honours, scars and pending promotions."""
    prefetch_related_objects([unit], *card_prefetches())
    force = unit.force
    progress = None if unit.no_xp else rules.rank_progress(unit.xp, xp_cap=unit.facts().xp_cap)
    following = unit.rank.next
    return CardFacts(
        name=unit.name,
        datasheet=unit.datasheet,
        points=unit.points,
        faction=force.faction,
        force=force.name,
        campaign=force.campaign.name if force.campaign_id else "",
        rank=unit.rank.label,
        xp=None if progress is None else unit.xp,
        next_rank_xp=(
            following.min_xp
            if progress is not None and following is not None and not progress.capped
            else None
        ),
        progress_percent=progress.percent if progress else 0,
        progress_text=progress.text if progress else "",
        honours=tuple(honour.name for honour in unit.active_honours()),
        scars=tuple(scar.name for scar in unit.active_scars()),
        crusade_points=unit.crusade_points,
        battles_played=unit.battles_played,
        battles_survived=unit.battles_survived,
        units_destroyed=unit.units_destroyed,
        picture=unit.picture.name or "",
        removed=not unit.is_active,
    )


def _picture_bytes(name: str) -> bytes | None:
    """The stored picture, read from wherever pictures are stored (a disk or a bucket)."""
    storage = Unit._meta.get_field("picture").storage
    try:
        with storage.open(name, "rb") as stored:
            return stored.read()
    except Exception:  # any storage's failure to read: draw the card without the picture
        logger.exception("Could not read the picture %s for a card image.", name)
        return None


def card_png(facts: CardFacts) -> tuple[bytes, bool]:
    """The card as PNG bytes, and whether it is complete: from the cache, or drawn now and
    kept. A card whose picture could not be read is drawn without it, not kept, and not
    complete (so that nobody keeps it under the card's fingerprint either)."""
    key = f"{CACHE_PREFIX}:{facts.fingerprint}"
    png = cache.get(key)
    if png is not None:
        return png, True
    picture = _picture_bytes(facts.picture) if facts.picture else None
    png = card_image.render_card(facts, picture)
    complete = picture is not None or not facts.picture
    if complete:
        cache.set(key, png, CACHE_SECONDS)
    return png, complete
