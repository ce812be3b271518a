"""Picture files follow the database: a replaced picture's files are deleted once the new
one is saved; the files of a save that fails are deleted at once; none are written for a
save that is refused."""

from __future__ import annotations

from io import BytesIO

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError
from PIL import Image

from campaign import pictures, services
from campaign.services import _common
from tests.factories import make_force, make_unit, reload
from tests.hardening.conftest import stored

pytestmark = pytest.mark.django_db


def processed_picture() -> tuple:
    out = BytesIO()
    Image.new("RGB", (64, 48), "olive").save(out, format="JPEG")
    return pictures.process_upload(SimpleUploadedFile("squad.jpg", out.getvalue()))


def card(unit):
    def put(picture, thumbnail):
        return services.set_unit_picture(
            actor=unit.force.player, unit=unit, picture=picture, thumbnail=thumbnail
        )

    return put, ("picture", "thumbnail")


def banner(unit):
    force = unit.force

    def put(picture, thumbnail):
        return services.set_force_banner(
            actor=force.player, force=force, banner=picture, thumbnail=thumbnail
        )

    return put, ("banner", "banner_thumbnail")


@pytest.fixture(params=[card, banner], ids=["a card's picture", "a force's banner"])
def picture_of(request):
    """A service that stores a picture, and the two fields it fills."""
    return request.param(make_unit(make_force(), name="Squad Alpha"))


def files_of(obj, fields) -> set[str]:
    obj = reload(obj)
    return {getattr(obj, field).name for field in fields}


def test_it_deletes_the_replaced_files_once_the_new_picture_is_saved(
    media, picture_of, django_capture_on_commit_callbacks
):
    put, fields = picture_of
    with django_capture_on_commit_callbacks(execute=True):
        first = files_of(put(*processed_picture()), fields)
    with django_capture_on_commit_callbacks(execute=True):
        second = files_of(put(*processed_picture()), fields)
        assert stored(media) == first | second  # the old files stay until the commit

    assert stored(media) == second
    assert not first & second


def test_it_deletes_the_new_files_and_keeps_the_old_ones_when_the_save_fails(
    media, picture_of, monkeypatch, django_capture_on_commit_callbacks
):
    put, fields = picture_of
    with django_capture_on_commit_callbacks(execute=True):
        obj = put(*processed_picture())
    first = files_of(obj, fields)

    def fail(*args, **kwargs):
        raise DatabaseError("disk I/O error")  # after the new files are written

    monkeypatch.setattr(_common, "record", fail)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(DatabaseError):
        put(*processed_picture())

    assert files_of(obj, fields) == first
    assert stored(media) == first


def test_it_writes_no_file_for_the_picture_of_a_removed_card(media):
    unit = make_unit(make_force(), name="Squad Alpha")
    services.remove_unit(actor=unit.force.player, unit=unit, reason="Lost with all hands")
    with pytest.raises(ValidationError):
        card(unit)[0](*processed_picture())
    assert stored(media) == set()
