"""Stub: being written."""

from django.http import HttpResponse


def battle_create(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def battle_detail(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def battle_record(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def army_muster(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def army_muster_check(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def out_of_action(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)


def promotion_settle(request, **kwargs) -> HttpResponse:
    return HttpResponse(status=501)
