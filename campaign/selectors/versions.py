"""Versions of what a page shows, for caching its long parts.

Every change to a force, its units or its campaign is a service call that writes history
rows, and the history writer (`services._common.write_history`) moves on, in the
change's own transaction, a `revision` on the rows it concerns: a force counts the
history rows that name it, a campaign those that name it and no force (members,
house rules, its own content). So what a page shows has a version that can be read from
the database with the page's own rows, and a fragment cached under it can never be
stale, in any process. Pages cache their long tables this way (`{% cache %}` keyed by a
version), so that looking again at a league's pages costs the same however large the
league: only a change makes the next look build the table again.

**A force's version** is its revision. Every change to a force holds the force's row
(locked, or updated), so its changes commit one after the other and the number names
one state exactly. It comes with the force: the Order of Battle asks nothing more.

**A campaign's version** is its own revision and the sum of its forces'. A number on the
campaign's row that every change moved on would make every change in the league wait for
the one before it; the sum costs no such wait. It still names one state: a change that
commits adds to it, and what a query sees of committed changes only ever grows (two
changes to two forces can commit in the other order than they began, and a page may see
the later one first, but it cannot see the earlier one and then not see it). So a sum
seen once is never seen again for another state. It is read in the campaign's own query
(`campaigns_with_versions`), a sum over the campaign's forces by their index.
"""

from __future__ import annotations

from django.db.models import OuterRef, PositiveBigIntegerField, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from campaign.models import Campaign, CrusadeForce

FRAGMENT_SECONDS = 600
"""How long a cached fragment lives: shorter than a picture's signed address in a bucket,
and long enough for the players at a table to look again and again."""


def campaigns_with_versions(campaigns: QuerySet[Campaign]) -> QuerySet[Campaign]:
    """Campaigns with ``forces_revision``, the sum of their forces' revisions, in the same
    query as the campaigns."""
    forces = CrusadeForce.objects.filter(campaign=OuterRef("pk")).order_by().values("campaign")
    total = forces.annotate(total=Sum("revision")).values("total")
    return campaigns.annotate(
        forces_revision=Coalesce(
            Subquery(total, output_field=PositiveBigIntegerField()),
            Value(0),
            output_field=PositiveBigIntegerField(),
        )
    )


def campaign_version(campaign: Campaign) -> str:
    """The version of what the campaign's page shows (``campaign`` comes from
    `campaigns_with_versions`)."""
    return f"{campaign.revision}-{campaign.forces_revision}"
