"""Stub: being written."""

from django.http import HttpResponse


def force_create(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def force_detail(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def force_edit(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def force_banner(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def force_history(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def force_requisition(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)
