"""Response headers every page carries, forms that apply at most once, and POSTs too big
to read answered by their view."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from campaign import once, oversized


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


class OversizedPostMiddleware:
    """Lets a view marked `oversized.answers_oversized_posts` answer a POST over the
    upload limit on its own page (see `campaign.oversized`). Before the CSRF check, which
    would otherwise refuse it with Django's bare 400 page; the check still runs, on the
    small fields read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view, args, kwargs) -> HttpResponse | None:
        if getattr(view, oversized.ATTRIBUTE, False) and oversized.oversized(request):
            oversized.read_small_fields(request)
        return None
