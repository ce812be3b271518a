"""A Crusade card as a PNG picture, to share in a chat (whoever may see the card)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import content_disposition_header, quote_etag
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from campaign import selectors
from campaign.access import get_unit_for_user


@require_safe
@login_required
def unit_card_image(request: HttpRequest, pk: int) -> HttpResponse:
    """The picture, drawn once per version of the card. Its ETag is the card's
    fingerprint and browsers must check it each time (``no-cache``): an unchanged card
    costs a 304, a changed one is fetched again."""
    unit, _ = get_unit_for_user(request.user, pk)
    facts = selectors.card_image_facts(unit)
    response = HttpResponse(content_type="image/png")
    response["ETag"] = quote_etag(facts.fingerprint)
    patch_cache_control(response, private=True, no_cache=True)
    unchanged = get_conditional_response(request, etag=response["ETag"], response=response)
    if unchanged is not response:
        return unchanged
    response.content, complete = selectors.card_png(facts)
    if not complete:  # drawn without its picture, which could not be read: keep it nowhere
        del response["ETag"]
        patch_cache_control(response, no_store=True)
    filename = f"{slugify(unit.name) or 'unit'}-crusade-card.png"
    response["Content-Disposition"] = content_disposition_header(False, filename)
    return response
