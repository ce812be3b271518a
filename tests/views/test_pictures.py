"""Pictures: only real JPEG/PNG/WebP, no bombs, no metadata, upright, with a thumbnail."""

from io import BytesIO

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from campaign import pictures
from campaign.models import HistoryEntry
from tests.factories import make_force, make_unit, make_user, reload

pytestmark = pytest.mark.django_db

NEW_PICTURE = HistoryEntry.Action.UNIT_PICTURE


def image_bytes(img: Image.Image, fmt: str, **save) -> bytes:
    out = BytesIO()
    img.save(out, format=fmt, **save)
    return out.getvalue()


def rotated_jpeg() -> bytes:
    """A 200x100 JPEG whose EXIF says 'rotate 90 degrees clockwise to view'."""
    img = Image.new("RGB", (200, 100), "red")
    img.paste((0, 0, 255), (100, 0, 200, 100))
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation
    exif[0x010F] = "Secret Camera Co"  # Make: metadata that must not survive
    return image_bytes(img, "JPEG", exif=exif.tobytes())


@pytest.fixture
def owner():
    return make_user("owner")


@pytest.fixture
def unit(owner):
    return make_unit(make_force(player=owner), name="Squad Alpha")


def upload(client, unit, name: str, data: bytes, content_type="image/jpeg"):
    return client.post(
        reverse("unit_picture", args=[unit.pk]),
        {"picture": SimpleUploadedFile(name, data, content_type=content_type)},
    )


def assert_refused(response, unit, message: str):
    assert response.status_code == 400
    assert message in response.context["picture_form"].errors["picture"][0]
    assert message in response.content.decode()
    assert not reload(unit).picture
    assert not HistoryEntry.objects.filter(unit=unit, action=NEW_PICTURE).exists()


def test_it_refuses_a_text_file_renamed_jpg(client, owner, unit):
    client.force_login(owner)
    response = upload(client, unit, "army.jpg", b"These are not the pixels you want.\n" * 50)
    assert_refused(response, unit, "not a picture we can read")


def test_it_refuses_a_12000_by_12000_png(client, owner, unit):
    data = image_bytes(Image.new("1", (12000, 12000)), "PNG")
    assert len(data) < 1024 * 1024  # tiny file, huge image: a decompression bomb
    client.force_login(owner)
    response = upload(client, unit, "bomb.png", data, "image/png")
    assert_refused(response, unit, "too big: the most we accept is 40 megapixels")


def test_it_refuses_a_21_megapixel_png_naming_the_png_limit(client, owner, unit):
    data = image_bytes(Image.new("1", (5000, 4200)), "PNG")
    client.force_login(owner)
    response = upload(client, unit, "flat.png", data, "image/png")
    assert_refused(response, unit, "That PNG is too big: the most we accept is 20 megapixels")


def test_it_refuses_a_20_mb_file(client, owner, unit):
    client.force_login(owner)
    response = upload(client, unit, "huge.jpg", b"\xff\xd8\xff" + b"0" * (20 * 1024 * 1024))
    assert_refused(response, unit, "over 10 MB")


def test_it_refuses_a_gif_even_though_pillow_reads_it(client, owner, unit):
    client.force_login(owner)
    data = image_bytes(Image.new("RGB", (10, 10)), "GIF")
    response = upload(client, unit, "anim.gif", data, "image/gif")
    assert_refused(response, unit, "not a picture we can read")


def test_it_stores_an_upright_jpeg_without_exif_and_a_small_thumbnail(client, owner, unit):
    client.force_login(owner)
    response = upload(client, unit, "squad.jpg", rotated_jpeg())
    assert response.status_code == 302
    unit = reload(unit)
    assert unit.picture.name.startswith("units/") and "squad" not in unit.picture.name
    with Image.open(unit.picture.path) as stored:
        assert stored.format == "JPEG"
        assert stored.size == (100, 200)  # turned upright
        assert not stored.getexif()
        assert "exif" not in stored.info
    with Image.open(unit.thumbnail.path) as thumb:
        assert max(thumb.size) <= 240
    assert HistoryEntry.objects.filter(unit=unit, action=NEW_PICTURE).count() == 1


def test_it_bounds_the_stored_size_and_flattens_transparency():
    img = Image.new("RGBA", (3200, 1000), (0, 0, 0, 0))
    picture, thumbnail = pictures.process_upload(
        SimpleUploadedFile("wide.png", image_bytes(img, "PNG"), content_type="image/png")
    )
    with Image.open(picture) as stored:
        assert stored.size == (1600, 500) and stored.mode == "RGB"
        assert stored.getpixel((10, 10)) == (255, 255, 255)
    with Image.open(thumbnail) as thumb:
        assert thumb.size == (240, 75)
    assert picture.name != thumbnail.name


def test_it_accepts_webp():
    data = image_bytes(Image.new("RGB", (50, 40), "green"), "WEBP")
    picture, _ = pictures.process_upload(SimpleUploadedFile("x.webp", data))
    assert Image.open(picture).size == (50, 40)


def test_it_refuses_a_truncated_png():
    data = image_bytes(Image.new("RGB", (400, 400), "green"), "PNG")[:200]
    with pytest.raises(ValidationError, match="not a picture we can read"):
        pictures.process_upload(SimpleUploadedFile("broken.png", data))


def test_it_sets_a_force_banner(client, owner, unit):
    force = unit.force
    client.force_login(owner)
    response = client.post(
        reverse("force_banner", args=[force.pk]),
        {"picture": SimpleUploadedFile("banner.jpg", rotated_jpeg(), content_type="image/jpeg")},
    )
    assert response.status_code == 302
    force = reload(force)
    assert force.banner.name.startswith("banners/") and force.banner_thumbnail


def test_it_refuses_a_bad_banner_and_keeps_the_page(client, owner, unit):
    force = unit.force
    client.force_login(owner)
    response = client.post(
        reverse("force_banner", args=[force.pk]),
        {"picture": SimpleUploadedFile("banner.jpg", b"nope", content_type="image/jpeg")},
    )
    assert response.status_code == 400
    assert "not a picture we can read" in response.content.decode()
    assert not reload(force).banner


def test_it_forbids_a_member_from_uploading_to_someone_elses_unit(client, unit):
    other = make_user("other")
    client.force_login(other)
    response = upload(client, unit, "squad.jpg", rotated_jpeg())
    assert response.status_code == 404
    assert not reload(unit).picture


def test_it_marks_neither_picture_upload_as_required(client, owner, unit):
    """Issue 13 item 7: a picture is optional, so no asterisk on the card or the banner."""
    client.force_login(owner)

    for url in (
        reverse("unit_detail", args=[unit.pk]),
        reverse("force_detail", args=[unit.force.pk]),
    ):
        html = client.get(url).content.decode()
        label = html[html.index('<label for="id_picture">') :]
        label = label[: label.index("</label>")]
        assert "*" not in label, url
        assert "Optional." in html, url


def test_it_asks_for_a_picture_when_the_upload_has_none(client, owner, unit):
    client.force_login(owner)

    response = client.post(reverse("unit_picture", args=[unit.pk]), {})

    assert_refused(response, unit, "Choose a picture to upload first.")
