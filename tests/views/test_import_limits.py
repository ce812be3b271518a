"""Issue 18 item 7: a list pasted over the upload limit is answered on the import form,
with a message, instead of Django's bare "Bad Request (400)" page; the body is read only
as far as its small fields, and the CSRF check still runs."""

from __future__ import annotations

import io
import re

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import reverse

from campaign import oversized
from campaign.models import CrusadeForce, Unit
from tests.factories import make_force, make_user

pytestmark = pytest.mark.django_db

PASTE = "Intercessor Squad (80 Points)\n" * (20 * 1024 * 1024 // 30)
"""About 20 MB of text: over the 12 MB Django reads form fields up to."""


@pytest.fixture
def strict():
    """A player's browser as the CSRF check sees it: the token must come with the form."""
    client = Client(enforce_csrf_checks=True)
    client.player = make_user("importer")
    client.force_login(client.player)
    return client


def _token(client: Client, url: str) -> str:
    page = client.get(url).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def test_it_is_a_paste_over_the_limit():
    assert len(PASTE.encode()) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE


@pytest.mark.parametrize("target", ["new force", "existing force"])
def test_it_answers_a_paste_over_the_upload_limit_on_the_import_form(strict, target):
    url = reverse("force_import")
    if target == "existing force":
        force = make_force(player=strict.player, name="Iron Wolves")
        url = reverse("force_import_units", args=[force.pk])

    response = strict.post(url, {"csrfmiddlewaretoken": _token(strict, url), "text": PASTE})

    page = response.content.decode()
    assert response.status_code == 400
    assert "Bad Request" not in page
    assert "Or paste the list" in page
    errors = response.context["form"].errors
    assert list(errors) == ["text"]
    assert errors["text"][0].startswith("The pasted list is over 12 MB, so it wasn't read")
    assert not Unit.objects.exists()
    assert CrusadeForce.objects.count() == (1 if target == "existing force" else 0)


def test_it_still_refuses_an_oversized_post_without_its_csrf_token(strict):
    response = strict.post(reverse("force_import"), {"text": PASTE})

    assert response.status_code == 403


def test_it_leaves_other_pages_to_djangos_own_refusal(strict):
    """Only a view marked to answer an oversized post reads it so."""
    url = reverse("force_restore")

    response = strict.post(url, {"csrfmiddlewaretoken": _token(strict, url), "name": PASTE})

    assert response.status_code == 400
    assert "form" not in (response.context or {})


class CountingStream(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.taken = 0

    def read(self, size: int = -1) -> bytes:
        chunk = super().read(size)
        self.taken += len(chunk)
        return chunk


def test_it_reads_only_the_bodys_first_bytes_of_an_oversized_post():
    """The memory stays bounded: the CSRF and once tokens are read from the body's first
    64 KB, and the rest of it is never read."""
    body = encode_multipart(
        BOUNDARY, {"csrfmiddlewaretoken": "t" * 64, "once": "o1", "text": PASTE}
    )
    request = RequestFactory().generic("POST", "/import/", body, content_type=MULTIPART_CONTENT)
    request._stream = stream = CountingStream(body)

    oversized.read_small_fields(request)

    assert stream.taken == oversized.PREFIX_BYTES
    assert dict(request.POST) == {"csrfmiddlewaretoken": ["t" * 64], "once": ["o1"]}
    assert request.oversized_post == "text"
    assert not request.FILES


def test_it_reads_the_whole_fields_of_an_oversized_url_encoded_post():
    body = f"csrfmiddlewaretoken=abc&roster=x&text={'y' * 100_000}".encode()
    request = RequestFactory().generic(
        "POST", "/import/", body, content_type="application/x-www-form-urlencoded"
    )

    oversized.read_small_fields(request)

    assert dict(request.POST) == {"csrfmiddlewaretoken": ["abc"], "roster": ["x"]}
    assert request.oversized_post == "text"
