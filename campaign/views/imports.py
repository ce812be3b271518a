"""Bringing an army list in (as a new force or into one), taking a force out, restoring it.

Importing is three steps on one URL: the list (a file or pasted text), a preview where
the player corrects what the file got wrong, then confirm. Nothing is written before
confirm, and confirm is one service call. Exporting is reading: whoever may see the
force may download it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign import documents, selectors, services
from campaign.access import get_force_for_user, offered_campaigns
from campaign.forms import add_service_errors
from campaign.forms.imports import ImportPreview, RestoreForm, RosterSourceForm
from campaign.models import CrusadeForce
from campaign.oversized import answers_oversized_posts
from campaign.rosters import ACCEPTED

from ._common import posted, render_page

SOURCE = "imports/source.html"
PREVIEW = "imports/preview.html"
RESTORE = "imports/restore.html"


@require_http_methods(["GET", "POST"])
@login_required
@answers_oversized_posts
def force_import(request: HttpRequest) -> HttpResponse:
    """A new force from an army list."""
    return _import(request, None)


@require_http_methods(["GET", "POST"])
@login_required
@answers_oversized_posts
def force_import_units(request: HttpRequest, pk: int) -> HttpResponse:
    """More units for a force, from an army list."""
    force, _ = get_force_for_user(request.user, pk, write=True)
    return _import(request, force)


@require_POST
@login_required
def force_import_check(request: HttpRequest) -> HttpResponse:
    """The live summary of a new force's preview: reads the form, changes nothing."""
    return _summary(request, None)


@require_POST
@login_required
def force_import_units_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The live summary of a preview of units for a force: reads the form, changes nothing."""
    force, _ = get_force_for_user(request.user, pk, write=True)
    return _summary(request, force)


def _context(force: CrusadeForce | None, **extra) -> dict:
    if force is None:
        urls = {"action": reverse("force_import"), "check": reverse("force_import_check")}
    else:
        urls = {
            "action": reverse("force_import_units", args=[force.pk]),
            "check": reverse("force_import_units_check", args=[force.pk]),
        }
    return {"force": force, "urls": urls, "accepted": ACCEPTED, **extra}


def _preview(request: HttpRequest, source: RosterSourceForm, force) -> ImportPreview:
    campaigns = offered_campaigns(request.user) if force is None else None
    return ImportPreview(source, request.POST, force=force, campaigns=campaigns)


def _import(request: HttpRequest, force: CrusadeForce | None) -> HttpResponse:
    source = RosterSourceForm(
        posted(request), request.FILES or None, oversized=getattr(request, "oversized_post", None)
    )
    if request.method != "POST" or not source.is_valid():
        status = 400 if source.is_bound else 200
        return render_page(request, SOURCE, _context(force, form=source), status=status)
    preview = _preview(request, source, force)
    status = 200
    if "confirm" in request.POST:
        if preview.is_valid():
            player = {"player": request.user} if force is None else {}
            try:
                imported = services.import_roster(
                    actor=request.user, **player, **preview.service_kwargs()
                )
            except ValidationError as error:
                preview.add_service_errors(error)
            else:
                messages.success(
                    request,
                    f"{len(preview.kept_forms)} units imported into {imported.name}: "
                    f"{imported.supply_used} of {imported.supply_limit} points used, "
                    f"{imported.rp}RP left.",
                )
                return redirect(imported)
        status = 400
    return render_page(request, PREVIEW, _context(force, preview=preview), status=status)


def _summary(request: HttpRequest, force: CrusadeForce | None) -> HttpResponse:
    source = RosterSourceForm(request.POST)
    if not source.is_valid():
        context = _context(force, refusal=" ".join(source.non_field_errors()))
        return render_page(request, f"{PREVIEW}#summary-refused", context, status=400)
    preview = _preview(request, source, force)
    return render_page(request, f"{PREVIEW}#summary", _context(force, preview=preview))


def _download(body: str, content_type: str, filename: str, *, attachment: bool) -> HttpResponse:
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(attachment, filename)
    return response


@require_safe
@login_required
def force_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The force's whole Crusade state and history, as a Crusade export (JSON)."""
    force, _ = get_force_for_user(request.user, pk)
    document = selectors.force_document(force, history=True, signed=False)
    name = f"{slugify(force.name) or 'force'}-crusade.json"
    return _download(documents.signed_file(document), "application/json", name, attachment=True)


@require_safe
@login_required
def force_export_text(request: HttpRequest, pk: int) -> HttpResponse:
    """The Order of Battle as text in the official app's layout, to paste in a chat."""
    force, _ = get_force_for_user(request.user, pk)
    name = f"{slugify(force.name) or 'force'}.txt"
    return _download(selectors.force_text(force), "text/plain", name, attachment=False)


@require_http_methods(["GET", "POST"])
@login_required
def force_restore(request: HttpRequest) -> HttpResponse:
    """A new force from a Crusade export, with everything it had earned."""
    form = RestoreForm(
        posted(request), request.FILES or None, campaigns=offered_campaigns(request.user)
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            force = services.restore_force(
                actor=request.user,
                player=request.user,
                campaign=data["campaign"],
                document=form.document,
                name=data["name"],
            )
        except ValidationError as error:
            if not hasattr(error, "error_dict"):
                error = ValidationError({"file": error.messages})
            add_service_errors(form, error)
        else:
            waits = services.play_refusal(force, "fight battles or buy Requisitions")
            messages.success(
                request,
                f"{force.name} is restored: {force.unit_count} units, "
                f"{force.supply_used} of {force.supply_limit} points. "
                f"{force.restored_from.source}" + (f" {waits}" if waits else ""),
            )
            return redirect(force)
    status = 400 if form.is_bound else 200
    return render_page(request, RESTORE, {"form": form}, status=status)
