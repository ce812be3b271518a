"""A POST too big to read, answered by its view rather than by Django's bare 400 page.

Django refuses a request whose form fields are over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` the
moment anything reads ``request.POST`` (the CSRF check does, before any view), with a
plain "Bad Request (400)". A view marked `answers_oversized_posts` is answered instead:
`OversizedPostMiddleware` (before the CSRF check) reads only the body's first
`PREFIX_BYTES`, keeps the small fields that arrived whole there (the CSRF token, the
form's once token), and tells the view with ``request.oversized_post``, the name of the
field that was cut off ("" when unknown). Nothing past the prefix is read or kept, so
memory stays bounded; the CSRF check then runs as for any POST.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.http import HttpRequest, QueryDict
from django.utils.datastructures import MultiValueDict
from django.utils.http import parse_header_parameters

PREFIX_BYTES = 64 * 1024
"""Where the small fields are: a form's hidden tokens come first, the big field after."""

ATTRIBUTE = "answers_oversized_posts"
View = TypeVar("View", bound=Callable)


def answers_oversized_posts(view: View) -> View:
    """Mark a view that answers a POST over the upload limit itself (``request.oversized_post``)."""
    setattr(view, ATTRIBUTE, True)
    return view


def oversized(request: HttpRequest) -> bool:
    """Whether this POST's body is over the limit Django reads form fields up to."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return request.method == "POST" and limit is not None and length > limit


def read_small_fields(request: HttpRequest) -> None:
    """Read the body's prefix; set ``request.POST`` to its whole fields and
    ``request.FILES`` to nothing, and ``request.oversized_post`` to the cut field's name."""
    prefix = request.read(PREFIX_BYTES)
    content_type, params = parse_header_parameters(request.META.get("CONTENT_TYPE", ""))
    if content_type == "multipart/form-data" and params.get("boundary"):
        fields, cut = _multipart_fields(prefix, params["boundary"], request.encoding)
    elif content_type == "application/x-www-form-urlencoded":
        whole, _, rest = prefix.rpartition(b"&")
        fields = QueryDict(whole, encoding=request.encoding)
        cut = QueryDict(rest, encoding=request.encoding)
        cut = next(iter(cut), "") if cut else ""
    else:
        fields, cut = QueryDict(), ""
    request._post, request._files = fields, MultiValueDict()
    request.oversized_post = cut


def _multipart_fields(prefix: bytes, boundary: str, encoding: str | None) -> tuple[QueryDict, str]:
    """The text fields of the parts that end within ``prefix``, and the cut part's name."""
    fields = QueryDict(mutable=True, encoding=encoding)
    parts = prefix.split(b"--" + boundary.encode("latin-1"))[1:]
    names = []
    for index, part in enumerate(parts):
        head, found, value = part.partition(b"\r\n\r\n")
        disposition = next(
            (
                line.split(b":", 1)[1].decode("latin-1")
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-disposition:")
            ),
            "",
        )
        _, params = parse_header_parameters(disposition)
        names.append(params.get("name", ""))
        whole = index < len(parts) - 1
        if found and whole and "filename" not in params and params.get("name"):
            text = value.removesuffix(b"\r\n").decode(encoding or "utf-8", errors="replace")
            fields.appendlist(params["name"], text)
    fields._mutable = False
    return fields, names[-1] if names else ""
