"""The campaign's log: its pages (newest first, printable as the campaign's chronicle), an
entry's own page, and the forms to write and edit an entry."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_safe

from campaign import services
from campaign.access import get_campaign_for_user, get_log_entry_for_user, is_organiser
from campaign.bounds import fits_column
from campaign.forms import add_service_errors
from campaign.forms.chronicle import LINKS, LogEntryForm
from campaign.models import Campaign
from campaign.selectors.chronicle import log_page

from ._common import page_number, posted, render_page


@require_safe
@login_required
def campaign_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's log, a page at a time; organisers see hidden entries, marked."""
    campaign, _ = get_campaign_for_user(request.user, pk)
    organiser = is_organiser(request.user, campaign)
    page = log_page(campaign, page_number(request), with_hidden=organiser)
    context = {"campaign": campaign, "page": page, "organiser": organiser}
    return render_page(request, "chronicle/log.html", context)


@require_safe
@login_required
def log_entry(request: HttpRequest, pk: int) -> HttpResponse:
    entry, can_write = get_log_entry_for_user(request.user, pk)
    context = {"entry": entry, "campaign": entry.campaign, "can_write": can_write}
    return render_page(request, "chronicle/entry.html", context)


def _preset(request: HttpRequest, campaign: Campaign, form: LogEntryForm) -> dict:
    """What ``?battle=N`` (or ``territory``, ``phase``) names, when it is the campaign's:
    the form starts with it chosen. Anything else is ignored (the form checks again)."""
    found = {}
    for name in LINKS:
        value = request.GET.get(name)
        queryset = form.fields[name].queryset
        if value and fits_column(queryset.model._meta.pk, value):
            obj = queryset.filter(pk=int(value)).first()
            if obj is not None:
                found[name] = obj
    return found


@require_http_methods(["GET", "POST"])
@login_required
def log_entry_create(request: HttpRequest, pk: int) -> HttpResponse:
    """Write in the campaign's log: any member of the campaign."""
    campaign, _ = get_campaign_for_user(request.user, pk)
    if request.method == "POST":
        form = LogEntryForm(request.POST, request.FILES, campaign=campaign)
    else:
        probe = LogEntryForm(campaign=campaign)
        preset = _preset(request, campaign, probe)
        form = LogEntryForm(campaign=campaign, initial=preset, shown=preset)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.write_log_entry(
                actor=request.user, campaign=campaign, **form.service_values()
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"{entry.title} is in the log of {campaign.name}.")
            return redirect(entry)
    status = 400 if form.is_bound else 200
    context = {"campaign": campaign, "form": form, "entry": None}
    return render_page(request, "chronicle/form.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def log_entry_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The author edits their entry."""
    entry, _ = get_log_entry_for_user(request.user, pk, write=True)
    initial = {name: getattr(entry, name) for name in ("title", "text", *LINKS)}
    shown = {name: getattr(entry, name) for name in LINKS}
    form = LogEntryForm(
        posted(request),
        request.FILES or None,
        campaign=entry.campaign,
        initial=initial,
        shown=shown,
    )
    if request.method == "POST" and form.is_valid():
        values = form.service_values(changed_only=True)
        try:
            entry = services.edit_log_entry(actor=request.user, entry=entry, **values)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Saved." if values else "Nothing to change.")
            return redirect(entry)
    status = 400 if form.is_bound else 200
    context = {"campaign": entry.campaign, "form": form, "entry": entry}
    return render_page(request, "chronicle/form.html", context, status=status)
