"""Stub: being written."""

from django.http import HttpResponse


def signup(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def join_with_code(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def join_campaign(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)
