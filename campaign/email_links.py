"""The link in every email that stops emails of its kind, without signing in.

The link carries a token signed with the site's secret (`django.core.signing`, salted for
this use only): the user's id and the kind of email, and when it was made. Nothing else
can be read from it or changed in it, and it opens one page: what will stop, and a button
that stops it (a POST: opening a link never changes anything, so a mail scanner that
follows every link stops nothing).

Mail clients that offer their own "unsubscribe" button get the same page's address in the
``List-Unsubscribe`` header and, with ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``
(RFC 8058), post to it directly, without the page and without cookies
(`views.players.email_stop`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urljoin

from django.core import signing
from django.urls import reverse

from campaign.models import EmailKind

SALT = "campaign.email_links.stop"
LIFETIME = timedelta(days=365)
"""How long a link works: an older email's link is refused (its player can still change
their choices on their settings page)."""
ONE_CLICK = "List-Unsubscribe=One-Click"
"""What a mail client posts to a ``List-Unsubscribe`` address (RFC 8058)."""


@dataclass(frozen=True)
class Stop:
    """What a valid link asks: stop emails of ``kind`` to the user ``user_id``."""

    user_id: int
    kind: EmailKind


def token(user_id: int, kind: EmailKind | str) -> str:
    return signing.dumps({"u": user_id, "k": EmailKind(kind).value}, salt=SALT)


def read(value: str) -> Stop | None:
    """What a token asks, or None for one that is tampered with, malformed or too old."""
    try:
        data = signing.loads(value, salt=SALT, max_age=LIFETIME)
        return Stop(int(data["u"]), EmailKind(data["k"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def stop_url(base: str, user_id: int, kind: EmailKind | str) -> str:
    """The absolute link that stops ``kind`` for the user, on the site of ``base`` (an
    absolute link of this site, such as the one the email carries)."""
    return urljoin(base, reverse("email_stop", args=[token(user_id, kind)]))


def headers(url: str) -> dict[str, str]:
    """The headers that let a mail client stop these emails in one click (RFC 8058)."""
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": ONE_CLICK}
