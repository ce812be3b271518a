"""Since you last looked: what happened in my campaigns after the marker of my settings
(`campaign.players`), newest first, for the dashboard.

Read from what is already kept, and only what a member of the campaign may see:

- history rows of my campaigns, of the kinds worth telling (battles fought, results that
  disagree or that an organiser settled, my forces invited to a battle, Battle Honours
  gained, members and forces joining, a new phase), not my own doings. Only each row's
  summary, when, who and where is shown: never its reason nor its numbers. A page at a
  time, in two queries (the count and the page) on the campaign's history index;
- the campaign's log, as a count of new entries per campaign (one query), read from the
  log itself so an entry an organiser hid is never told of (the history row of an entry
  keeps its title, whatever became of the entry);
- invitations to join a campaign waiting for my answer that came after the marker: the
  dashboard has them already (no query). Another player's invitation is theirs alone, so
  the history rows of invitations are left out.

However long the player was away, the news reaches back `FURTHEST`, from the start of
that hour.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.core.paginator import Page
from django.db.models import Count, Max, Q
from django.urls import reverse
from django.utils import timezone

from campaign.models import (
    CampaignInvitation,
    CrusadeForce,
    HistoryAction,
    HistoryEntry,
    LogEntry,
    Membership,
)
from campaign.prepared import Prepared, fetch_together

from .paging import paginate

PER_PAGE = 15
FURTHEST = timedelta(days=30)
"""The oldest news shown: a player back after months sees the last few weeks."""
MOST_PAGES = 10
"""The news is counted up to this many pages, and one row more (`counted`)."""
PAGE = "news"
"""The dashboard's ``?news=`` picks the page of news."""

TOLD: dict[str, str] = {
    HistoryAction.BATTLE_RECORDED: "Battle fought",
    HistoryAction.BATTLE_DISPUTED: "Results disagree",
    HistoryAction.BATTLE_SETTLED: "Settled by an organiser",
    HistoryAction.BATTLE_INVITED: "Invited to battle",
    HistoryAction.HONOUR_GAINED: "Battle Honour",
    HistoryAction.MEMBER_JOINED: "New member",
    HistoryAction.FORCE_CREATED: "New force",
    HistoryAction.FORCE_JOINED_CAMPAIGN: "New force",
    HistoryAction.PHASE_ADVANCED: "New phase",
}
"""The history rows the news tells of, each with a word on what it is."""
MINE_ONLY = (HistoryAction.BATTLE_INVITED,)
"""Told only when they name one of my forces: another player's invitation is not news."""
COLUMNS = (
    "created_at",
    "action",
    "summary",
    "campaign_id",
    "force_id",
    "unit_id",
    "battle_id",
    "actor__username",
    "campaign__name",
)
"""What a line of news shows of its history row."""


@dataclass(frozen=True)
class NewsLine:
    entry: HistoryEntry

    @property
    def what(self) -> str:
        return TOLD.get(self.entry.action, "")

    @property
    def about(self) -> tuple[str, int]:
        """The name and key of the page the line is about: its battle, its card, its force,
        or its campaign."""
        entry = self.entry
        for name, pk in (
            ("battle_detail", entry.battle_id),
            ("unit_detail", entry.unit_id),
            ("force_detail", entry.force_id),
        ):
            if pk is not None:
                return name, pk
        return "campaign_detail", entry.campaign_id

    @property
    def url(self) -> str:
        name, pk = self.about
        return reverse(name, args=[pk])


@dataclass(frozen=True)
class NewInLog:
    campaign_id: int
    campaign_name: str
    count: int


@dataclass(frozen=True)
class News:
    since: datetime
    """What is shown happened after this."""
    shown_at: datetime
    """When the page was made: "Mark all as seen" marks what happened up to then."""
    page: Page
    lines: list[NewsLine]
    log: list[NewInLog]
    invitations: list[CampaignInvitation]
    more: bool = False
    """Whether there is more than was counted (`counted`): the count reads "150+"."""

    @property
    def count(self) -> int:
        return self.page.paginator.count + sum(n.count for n in self.log) + len(self.invitations)

    @property
    def headlines(self) -> dict[str, list] | None:
        """The invitations and the log's new entries, shown above the first page only."""
        if self.page.number != 1 or not (self.invitations or self.log):
            return None
        return {"invitations": self.invitations, "log": self.log}


def news_since(marker: datetime | None, *, now: datetime) -> datetime:
    """Where the news starts: after the marker, but no further back than `FURTHEST`, from
    the start of that hour (so the news of a player without a marker starts at the same
    moment for an hour, and its copy kept by `news_key` serves them)."""
    furthest = (now - FURTHEST).replace(minute=0, second=0, microsecond=0)
    return furthest if marker is None or marker < furthest else marker


def news_key(
    user,
    *,
    since: datetime,
    page: str | None,
    memberships: list[Membership],
    invitations: list[CampaignInvitation],
) -> str:
    """The key of the news as the dashboard shows it, naming all it tells: whose, from
    when, which page, each of the player's campaigns at its version (every history row and
    log entry of a campaign moves its revision or one of its forces', `selectors.versions`;
    ``memberships`` from the dashboard, with ``forces_revision``), and the invitations told
    (``invitations``: those after ``since``, each with its campaign's revision)."""
    campaigns = ",".join(
        f"{m.campaign_id}.{m.campaign.revision}.{m.forces_revision}" for m in memberships
    )
    told = ",".join(f"{i.pk}.{i.campaign.revision}" for i in invitations)
    return f"news:{user.pk}:{since.isoformat()}:{page or 1}:{campaigns}:{told}"


def news_rows(user, since: datetime, campaigns: list[int] | None = None):
    """The history rows a player's news tells of, newest first (not yet read).

    ``campaigns``, the ids of the player's campaigns when the caller has them: with one
    (most players), the rows come in the order of the campaign's history index, so the
    database stops at the page's last row instead of sorting every row of the month."""
    return _rows(user.pk, since, campaigns)


def _told(user: int, since: datetime, campaigns: list[int] | None):
    """The history rows of ``user``'s campaigns after ``since`` that are not their own."""
    if campaigns is None:
        where = Q(campaign_id__in=Membership.objects.filter(user_id=user).values("campaign_id"))
    elif len(campaigns) == 1:
        where = Q(campaign_id=campaigns[0])
    else:
        where = Q(campaign_id__in=campaigns)
    return HistoryEntry.objects.filter(where, created_at__gt=since).exclude(actor_id=user)


def _my_forces(user: int):
    return CrusadeForce.objects.filter(player_id=user).values("pk")


def _rows(user: int, since: datetime, campaigns: list[int] | None):
    return (
        _told(user, since, campaigns)
        .filter(action__in=TOLD)
        .filter(~Q(action__in=MINE_ONLY) | Q(force_id__in=_my_forces(user)))
        .select_related("actor", "campaign")
        .only(*COLUMNS)
        .order_by("-created_at", "-pk")
    )


def counting(user: int, since: datetime, campaigns: list[int] | None, most: int):
    """What the count of the news (`_rows`) reads: a column of the news index
    (`history_news`) for each row, no further than one past ``most``. A busy month holds
    thousands of lines, and counting them all cost more than the page; with no order
    asked, the database stops at the row past ``most``, and reads the index alone (the
    row's id is not in it on PostgreSQL: asking for it cost a visit to the table for every
    row passed). The invitations, told only when they name one of my forces, are counted
    apart, from the forces' index: read with the rest, the count passed every other
    player's invitation of the month (a league's thousands) before it stopped."""
    told = _told(user, since, campaigns).order_by()
    others = told.filter(action__in=[action for action in TOLD if action not in MINE_ONLY])
    mine = told.filter(action__in=MINE_ONLY, force_id__in=_my_forces(user))
    return others.values_list("action", flat=True).union(
        mine.values_list("action", flat=True), all=True
    )[: most + 1]


def counted(user: int, since: datetime, campaigns: list[int] | None, most: int) -> int:
    """How many news rows there are, counting no further than one past ``most``."""
    return counting(user, since, campaigns, most).count()


def _log(user: int, since: datetime):
    mine = Membership.objects.filter(user_id=user).values("campaign_id")
    return (
        LogEntry.objects.filter(
            campaign_id__in=mine, status=LogEntry.Status.SHOWN, created_at__gt=since
        )
        .exclude(author_id=user)
        .values("campaign_id", "campaign__name")
        .annotate(count=Count("*"), newest=Max("created_at"))  # rows: the index has no keys
        .order_by("-newest", "campaign_id")
    )


# The news of a player in one campaign (most players), at the usual page size, compiled
# once (`campaign.prepared`): the count, as a column up to one past the most counted, and
# the first page. Other pages and other players read it through the ORM, the same rows.
_ONE_CAMPAIGN = {"user": int, "campaign": int, "since": datetime}
_COUNTED_IN_ONE = Prepared(
    lambda user, campaign, since: counting(user, since, [campaign], PER_PAGE * MOST_PAGES),
    **_ONE_CAMPAIGN,
)
_FIRST_PAGE_IN_ONE = Prepared(
    lambda user, campaign, since: _rows(user, since, [campaign])[:PER_PAGE], **_ONE_CAMPAIGN
)
_LOG = Prepared(_log, user=int, since=datetime)


def news(
    user,
    *,
    marker: datetime | None,
    invitations: list[CampaignInvitation],
    page: int | str | None = None,
    per_page: int = PER_PAGE,
    now: datetime | None = None,
    campaigns: list[int] | None = None,
    most_pages: int = MOST_PAGES,
) -> News:
    """What happened after ``marker`` (see the module): three queries, however much.
    ``invitations`` are the player's invitations waiting for an answer (the dashboard's),
    ``campaigns`` the ids of their campaigns (`news_rows`)."""
    now = now or timezone.now()
    since = news_since(marker, now=now)
    most = per_page * most_pages
    usual = campaigns is not None and len(campaigns) == 1 and most == PER_PAGE * MOST_PAGES
    logged = (_LOG, {"user": user.pk, "since": since})
    if usual and per_page == PER_PAGE:
        values = {"user": user.pk, "campaign": campaigns[0], "since": since}
        first_page = partial(_FIRST_PAGE_IN_ONE.fetch, **values)
        if str(page or 1) == "1":  # the dashboard as it opens: its first page, read with the rest
            found, firsts, in_log = fetch_together(
                (_COUNTED_IN_ONE, values), (_FIRST_PAGE_IN_ONE, values), logged
            )
            first_page = partial(list, firsts)
        else:
            found, in_log = fetch_together((_COUNTED_IN_ONE, values), logged)
        total = len(found)
        rows = partial(news_rows, user, since, campaigns)  # built for a later page only
    else:
        rows = news_rows(user, since, campaigns)
        total, first_page = counted(user.pk, since, campaigns, most), None
        in_log = _LOG.fetch(**logged[1])
    shown = paginate(rows, page, per_page=per_page, count=min(total, most), first_page=first_page)
    lines = [NewsLine(entry) for entry in shown.object_list]
    log = [NewInLog(row["campaign_id"], row["campaign__name"], row["count"]) for row in in_log]
    new = [invitation for invitation in invitations if invitation.created_at > since]
    return News(since, now, shown, lines, log, new, more=total > most)
