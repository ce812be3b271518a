"""Stub: being written."""

from django.http import HttpResponse


def unit_create(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def unit_supply_check(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def unit_detail(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def unit_edit(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def unit_picture(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def unit_remove(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def unit_requisition(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)
