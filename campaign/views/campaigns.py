"""Stub: being written."""

from django.http import HttpResponse


def campaign_detail(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)
