"""Home page and the player's dashboard, with the news of their campaigns since they last
looked."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.safestring import SafeString
from django.views.decorators.http import require_POST, require_safe

from campaign import players, selectors
from campaign.prepared import fetch_together
from campaign.selectors import live, since
from campaign.selectors.dashboard import Dashboard
from campaign.selectors.versions import WAITING_VERSIONS

from ._common import kept, page_number, render_page, render_part, unchanged, watched


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render_page(request, "home.html", {})


@require_safe
@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """My forces, my campaigns, everything waiting for me, and what happened since I last
    looked. The look is noted: a reading mark of the player's own, not a change to the
    Crusade (`campaign.players` says how the news moves on without vanishing on a reload)."""
    user = {"user": request.user.pk}
    # One round trip: the poll's version first, before what it covers (see battle_detail),
    # then the dashboard's reads and the player's reading marks.
    versions, *shown, looks = fetch_together(
        (WAITING_VERSIONS, user), *selectors.dashboard_reads(request.user), (players.LOOKS, user)
    )
    watch = live.waiting_watch(request.user, versions)
    dash = selectors.dashboard(request.user, shown)
    now = timezone.now()
    marker = players.note_dashboard_visit(request.user, now=now, looks=looks)
    context = {
        "dash": dash,
        "can_start_campaigns": settings.CRUSADE_SELF_SERVICE_CAMPAIGNS,
        "watch": watch,
        "shown_at": now,
    }
    return render_page(request, "dashboard.html", context | _news(request, dash, marker, now))


def _news(request: HttpRequest, dash: Dashboard, marker: datetime | None, now: datetime) -> dict:
    """The dashboard's news, as its part of the page (``news_part``), whether it tells
    anything, and the invitations it tells of; kept under the version of all it tells
    (`since.news_key`), so looking again reads none of it. ``news``: what was read, when
    it was."""
    start = since.news_since(marker, now=now)
    page = page_number(request, since.PAGE)
    fresh = [
        invitation for invitation in dash.campaign_invitations if invitation.created_at > start
    ]
    read = {}

    def build() -> tuple[str, int]:
        news = read["news"] = since.news(
            request.user,
            marker=marker,
            invitations=dash.campaign_invitations,
            campaigns=[membership.campaign_id for membership in dash.memberships],
            page=page,
            now=now,
        )
        return render_part(request, "dashboard.html#news", {"news": news}), news.count

    key = since.news_key(
        request.user, since=start, page=page, memberships=dash.memberships, invitations=fresh
    )
    part, count = kept(key, build)
    return {"news_part": SafeString(part), "news_count": count, "fresh_invitations": fresh} | read


@require_safe
@login_required
def dashboard_live(request: HttpRequest) -> HttpResponse:
    """The poll of the dashboard's *Waiting for you*: a 304 while nothing in it changed
    (one query), else the list as it is now (a new invitation, a battle to record)."""
    watch = live.waiting_watch(request.user)
    if (same := unchanged(request, watch)) is not None:
        return same
    context = {"dash": selectors.dashboard(request.user), "watch": watch}
    return watched(render_page(request, "dashboard.html#waiting", context), watch)


OUT_OF_DATE = "That button is out of date: here is your dashboard as it is now."


@require_POST
@login_required
def dashboard_seen(request: HttpRequest) -> HttpResponse:
    """Mark all as seen: the news the dashboard showed (up to when it was shown) goes."""
    try:
        up_to = parse_datetime(request.POST.get("shown_at", ""))
    except ValueError:
        up_to = None
    if up_to is None or timezone.is_naive(up_to):
        messages.error(request, OUT_OF_DATE)
        return redirect("dashboard")
    players.mark_seen(user=request.user, up_to=up_to)
    messages.success(request, "All caught up: only what happens from now on will show.")
    return redirect("dashboard")
