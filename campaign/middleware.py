"""Response headers every page carries, and forms that apply at most once."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from campaign import once


class ContentSecurityPolicyMiddleware:
    """Adds the Content-Security-Policy of `settings.CONTENT_SECURITY_POLICY` to every
    response that does not set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response


class FormOnceMiddleware:
    """A POST carrying a `{% once %}` token applies at most once (see `campaign.once`).

    After the authentication, messages and htmx middleware, which it uses; its look-up
    runs in `process_view`, after the CSRF check.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with once.request_scope():
            return once.settle(request, self.get_response(request))

    def process_view(self, request: HttpRequest, view, args, kwargs) -> HttpResponse | None:
        return once.begin(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, once.AlreadyDone):
            return once.already_done(request)
        return None
