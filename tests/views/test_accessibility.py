"""Every form control has a label a screen reader announces, and is reachable by keyboard."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from campaign import services
from campaign.models import OutOfActionTest, Promotion
from tests.factories import make_campaign, make_character, make_force, make_unit, make_user

pytestmark = pytest.mark.django_db


class Controls(HTMLParser):
    """Collects form controls, label targets and elements taken out of the tab order."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict] = []
        self.label_for: set[str] = set()
        self.untabbable: list[dict] = []
        self._open_labels = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "label":
            self._open_labels += 1
            if attrs.get("for"):
                self.label_for.add(attrs["for"])
        if tag in {"input", "select", "textarea"} and attrs.get("type") not in {
            "hidden",
            "submit",
            "button",
        }:
            self.controls.append({**attrs, "_tag": tag, "_wrapped": self._open_labels > 0})
        if attrs.get("tabindex", "0").startswith("-") and tag in {"a", "button", "input"}:
            self.untabbable.append(attrs)

    def handle_endtag(self, tag):
        if tag == "label":
            self._open_labels -= 1


def _unlabelled(html: str) -> list[dict]:
    parser = Controls()
    parser.feed(html)
    return [
        c
        for c in parser.controls
        if not c["_wrapped"]
        and c.get("id") not in parser.label_for
        and not c.get("aria-label")
        and not c.get("aria-labelledby")
    ], parser.untabbable


@pytest.fixture
def pages():
    organiser = make_user(is_staff=True)
    campaign = make_campaign(organiser=organiser)
    owner = make_user()
    force = make_force(player=owner, campaign=campaign)
    rival = make_force(campaign=campaign)
    captain = make_character(force, name="Captain")
    squad = make_unit(force, name="Squad")
    make_character(rival, name="Rival")
    battle = services.start_battle(
        actor=owner, force=force, opponents=[rival], battle_size="Incursion", campaign=campaign
    )
    army = battle.participants.get(force=force)
    promotion = Promotion.objects.create(unit=captain, rank=1)
    urls = [
        reverse("signup"),
        reverse("login"),
        reverse("join_with_code"),
        reverse("force_create"),
        reverse("force_detail", args=[force.pk]),
        reverse("force_edit", args=[force.pk]),
        reverse("force_import"),
        reverse("force_import_units", args=[force.pk]),
        reverse("force_restore"),
        reverse("unit_create", args=[force.pk]),
        reverse("unit_detail", args=[squad.pk]),
        reverse("unit_edit", args=[squad.pk]),
        reverse("unit_remove", args=[squad.pk]),
        reverse("unit_requisition", args=[squad.pk, "fresh_recruits"]),
        reverse("battle_create"),
        reverse("army_muster", args=[army.pk]),
        reverse("promotion_settle", args=[promotion.pk]),
        reverse("campaign_detail", args=[campaign.pk]),
        reverse("campaign_create"),
    ]
    assert not OutOfActionTest.objects.exists()
    return owner, urls


def test_it_labels_every_form_control_on_every_page(client, pages):
    owner, urls = pages
    for url in urls:
        client.logout()
        if "signup" not in url and "login" not in url:
            client.force_login(owner)
        response = client.get(url)
        assert response.status_code == 200, url
        unlabelled, untabbable = _unlabelled(response.content.decode())
        assert unlabelled == [], f"{url}: controls without a label"
        assert untabbable == [], f"{url}: controls taken out of the keyboard order"


def test_it_would_notice_a_control_without_a_label():
    unlabelled, untabbable = _unlabelled(
        '<label for="a">A</label><input id="a"><label>B <input id="b"></label>'
        '<input id="c" name="c"><button tabindex="-1">Hidden</button>'
    )

    assert [c["id"] for c in unlabelled] == ["c"]
    assert len(untabbable) == 1
