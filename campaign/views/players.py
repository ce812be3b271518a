"""A player's choice of emails: their settings page, and the page every email links to,
which stops one kind of email without signing in (`campaign.email_links`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from campaign import email_links, players
from campaign.access import get_email_stop
from campaign.forms.emails import EmailChoicesForm

from ._common import posted, render_page


@require_http_methods(["GET", "POST"])
@login_required
def email_settings(request: HttpRequest) -> HttpResponse:
    """The signed-in player ticks the kinds of email they get."""
    form = EmailChoicesForm(posted(request), settings=players.settings_of(request.user))
    if request.method == "POST" and form.is_valid():
        changed = players.choose_emails(user=request.user, chosen=form.chosen)
        messages.success(request, "Saved: your emails are as ticked." if changed else "No change.")
        return redirect("email_settings")
    return render_page(request, "accounts/emails.html", {"form": form})


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def email_stop(request: HttpRequest, token: str) -> HttpResponse:
    """The link in an email: the page says what will stop, and its button stops it.

    Exempt from Django's CSRF check, but only for the post a mail client makes when its
    reader presses the client's own unsubscribe button (RFC 8058: the body is exactly
    ``List-Unsubscribe=One-Click``, sent without cookies, so it could never carry a CSRF
    token). Safe there: what authorises the change is the signed token in the address,
    which only the email's reader has, not the visitor's session, so a forged post from
    another site can do no more than the link's holder already can, and all it can do is
    turn off one kind of email for one player (turned on again on the settings page).
    Every other POST, the page's own button included, is checked for CSRF as usual."""
    found = get_email_stop(token)
    if found is None:
        return render_page(request, "accounts/email_link_bad.html", {}, status=400)
    user, stop = found
    if request.method == "POST" and _one_click(request):
        players.stop_email(user=user, kind=stop.kind)
        context = {"kind": stop.kind, "stopped": True}
        return render_page(request, "accounts/email_stop.html", context)
    if request.method == "POST":
        return csrf_protect(_stop)(request, user, stop)
    stopped = not players.settings_of(user).wants(stop.kind)
    context = {"kind": stop.kind, "who": user, "stopped": stopped}
    return render_page(request, "accounts/email_stop.html", context)


def _one_click(request: HttpRequest) -> bool:
    """A mail client's one-click post (RFC 8058), and nothing else."""
    return list(request.POST.lists()) == [("List-Unsubscribe", ["One-Click"])]


def _stop(request: HttpRequest, user, stop: email_links.Stop) -> HttpResponse:
    players.stop_email(user=user, kind=stop.kind)
    messages.success(request, f"Done: no more emails when {stop.kind.label}.")
    return redirect(request.path)
