"""The Crusade card as a PNG: drawn once per version of the card, fetched again after a
change, and shown to whoever may see the card."""

from __future__ import annotations

from io import BytesIO
from unittest import mock

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from campaign import card_image, services
from campaign.card_image import MARGIN, PICTURE_SIDE, SIZE
from campaign.models import Unit
from campaign.selectors.card_image import card_image_facts
from tests.factories import make_character, make_force, reload

from .helpers import count_queries, fight_alone

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with no card drawn (the cache outlives a test's database)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def drawings():
    """Counts the cards drawn (each still drawn for real)."""
    with mock.patch.object(card_image, "render_card", wraps=card_image.render_card) as spy:
        yield spy


def url(unit) -> str:
    return reverse("unit_card_image", args=[unit.pk])


def fetch(client, unit, **headers):
    response = client.get(url(unit), headers=headers)
    assert response.status_code in (200, 304), response.status_code
    return response


def picture_of(response) -> Image.Image:
    image = Image.open(BytesIO(response.content))
    image.load()
    return image


def test_it_serves_the_card_as_a_png_of_the_card_size(client, owner, unit):
    client.force_login(owner)

    response = fetch(client, unit)

    assert response["Content-Type"] == "image/png"
    assert 'filename="squad-alpha-crusade-card.png"' in response["Content-Disposition"]
    image = picture_of(response)
    assert (image.format, image.size) == ("PNG", SIZE)


def test_it_draws_this_units_card(client, owner, unit):
    client.force_login(owner)

    served = picture_of(fetch(client, unit))

    expected = Image.open(BytesIO(card_image.render_card(card_image_facts(reload(unit)))))
    assert served.tobytes() == expected.tobytes()
    assert card_image_facts(reload(unit)).name == "Squad Alpha"


def test_it_shows_the_image_to_other_members_of_the_campaign(client, member, unit):
    client.force_login(member)
    assert fetch(client, unit).status_code == 200


def test_it_hides_the_image_from_outsiders(client, outsider, unit):
    client.force_login(outsider)
    assert client.get(url(unit)).status_code == 404


def test_it_sends_anonymous_visitors_to_log_in(client, unit):
    response = client.get(url(unit))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_it_takes_no_post(client, owner, unit):
    client.force_login(owner)
    assert client.post(url(unit)).status_code == 405


def test_it_links_the_image_from_the_card_page(client, owner, unit):
    client.force_login(owner)
    body = client.get(unit.get_absolute_url()).content.decode()
    assert f'href="{url(unit)}"' in body
    assert "Share as image" in body


# Drawn once, kept, and drawn again after a change


def test_it_draws_the_card_once_and_then_serves_it_from_the_cache(client, owner, unit, drawings):
    client.force_login(owner)

    first = fetch(client, unit)
    second = fetch(client, unit)

    assert drawings.call_count == 1
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]


def test_it_tells_browsers_to_check_the_image_each_time(client, owner, unit):
    client.force_login(owner)
    response = fetch(client, unit)
    assert response["ETag"]
    assert set(response["Cache-Control"].replace(" ", "").split(",")) == {"private", "no-cache"}


def test_it_answers_not_modified_while_the_card_is_unchanged(client, owner, unit, drawings):
    client.force_login(owner)
    etag = fetch(client, unit)["ETag"]

    again = fetch(client, unit, if_none_match=etag)

    assert again.status_code == 304
    assert again["ETag"] == etag
    assert drawings.call_count == 1


def test_it_draws_the_card_again_after_a_battle_gains_it_xp(client, owner, force, unit, drawings):
    client.force_login(owner)
    before = fetch(client, unit)

    fight_alone(force, [make_character(force, name="Captain Vorn"), unit])

    after = fetch(client, unit, if_none_match=before["ETag"])
    assert reload(unit).xp == 1
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.content != before.content
    assert drawings.call_count == 2


def test_it_draws_the_card_again_after_it_gains_a_battle_honour(client, owner, unit, drawings):
    client.force_login(owner)
    before = fetch(client, unit)

    services.settle_with_battle_trait(
        actor=owner, unit=unit, reason="Mission reward", table="Infantry", trait="Headhunters"
    )

    after = fetch(client, unit)
    assert after.content != before.content
    assert card_image_facts(reload(unit)).honours == ("Headhunters",)
    assert drawings.call_count == 2


def test_it_draws_the_card_again_after_it_is_renamed(client, owner, unit, drawings):
    client.force_login(owner)
    before = fetch(client, unit)

    services.update_unit_details(actor=owner, unit=unit, name="Squad Aurelius")

    after = fetch(client, unit)
    assert after["ETag"] != before["ETag"]
    assert "squad-aurelius" in after["Content-Disposition"]
    assert drawings.call_count == 2


# The unit's picture


def upload_red_picture(client, unit) -> None:
    data = BytesIO()
    Image.new("RGB", (600, 400), (200, 0, 0)).save(data, format="JPEG")
    upload = SimpleUploadedFile("red.jpg", data.getvalue(), content_type="image/jpeg")
    response = client.post(reverse("unit_picture", args=[unit.pk]), {"picture": upload})
    assert response.status_code == 302


def test_it_draws_the_units_picture(client, owner, unit, drawings):
    client.force_login(owner)
    without = fetch(client, unit)

    upload_red_picture(client, unit)

    with_picture = fetch(client, unit)
    assert with_picture["ETag"] != without["ETag"]
    r, g, b = picture_of(with_picture).getpixel((MARGIN + PICTURE_SIDE // 2,) * 2)
    assert r > 180 and g < 30 and b < 30


def test_it_draws_a_card_whose_picture_file_is_gone_and_tries_again_later(
    client, owner, unit, drawings
):
    client.force_login(owner)
    upload_red_picture(client, unit)
    picture = reload(unit).picture
    picture.storage.delete(picture.name)

    first = fetch(client, unit)
    fetch(client, unit)

    assert picture_of(first).size == SIZE
    assert drawings.call_count == 2  # not kept: the picture may be readable next time
    assert not first.has_header("ETag")
    assert "no-store" in first["Cache-Control"]


# Queries


def test_it_uses_the_same_number_of_queries_for_a_plain_and_a_decorated_card(client, owner):
    force = make_force(player=owner, faction="Orks")
    plain = make_character(force, name="Plain")
    busy = make_character(force, name="Busy")
    for _ in range(3):
        fight_alone(force, [busy])
    for i in range(6):
        busy.honours.create(category="battle_trait", name=f"Trait {i}")
        busy.promotions.create(rank=1)
    for i in range(3):
        busy.scars.create(name=f"Scar {i}")
    client.force_login(owner)

    plain_queries = count_queries(client, url(plain))
    assert count_queries(client, url(busy)) == plain_queries
    # ... and the same again when the picture comes from the cache.
    assert count_queries(client, url(busy)) == plain_queries


def test_it_draws_a_removed_card_for_the_record(client, owner, unit):
    services.remove_unit(actor=owner, unit=unit, reason="Fell at Vigilus")
    client.force_login(owner)
    assert Unit.objects.get(pk=unit.pk).status == Unit.Status.REMOVED
    assert card_image_facts(reload(unit)).removed
    assert fetch(client, unit).status_code == 200
