"""Help texts and errors reach screen readers: every `aria-describedby` names an element on
the page, and the markup around them is valid HTML (no list inside a paragraph)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from campaign.models import OutOfActionTest, Promotion
from tests.factories import make_force, make_unit

from .helpers import record, set_table

pytestmark = pytest.mark.django_db

# Elements a <p> can't hold: the parser closes the paragraph before them.
BLOCKS = {"ul", "ol", "div", "p", "table", "form", "fieldset", "section", "dl", "h2", "h3"}


class Described(HTMLParser):
    """Collects ids, the ids that aria-describedby points at, and blocks opened inside a p."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.described_by: list[tuple[str, str]] = []
        self.block_in_p: list[str] = []
        self._open_p = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._open_p and tag in BLOCKS:
            self.block_in_p.append(tag)
        if tag == "p":
            self._open_p += 1
        if attrs.get("id"):
            self.ids.append(attrs["id"])
        for target in (attrs.get("aria-describedby") or "").split():
            self.described_by.append((attrs.get("name") or attrs.get("id") or tag, target))

    def handle_endtag(self, tag):
        if tag == "p" and self._open_p:
            self._open_p -= 1


def problems(html: str) -> list[str]:
    parser = Described()
    parser.feed(html)
    ids = set(parser.ids)
    found = [
        f"{who} is described by #{target}, not on the page"
        for who, target in parser.described_by
        if target not in ids
    ]
    targets = {target for _, target in parser.described_by}
    found += [
        f"#{i} describes no field"
        for i in parser.ids
        if i.endswith(("_helptext", "_error")) and i not in targets
    ]
    found += [f"<{tag}> inside a <p>" for tag in parser.block_in_p]
    found += [f"id {i} is used twice" for i in sorted(ids) if parser.ids.count(i) > 1]
    return found


@pytest.fixture
def places():
    """A battle recorded, with a test and a promotion waiting; and a second, mustered one."""
    table = set_table()
    record(table, destroyed=[table.squad])
    test = OutOfActionTest.objects.get(unit=table.squad)
    promotion = Promotion.objects.create(unit=table.captain, rank=1)
    fresh = set_table()
    return table, test, promotion, fresh


def _pages(table, test, promotion, fresh) -> list[tuple[str, dict | None]]:
    """(url, data to post or None to GET) for every form the owner fills in."""
    force, squad = table.force, make_unit(table.force, name="Squad Lorn")
    alone = make_force(player=table.owner, name="The Ashen Host")
    return [
        (reverse("force_campaign", args=[alone.pk]), None),
        (reverse("force_campaign", args=[alone.pk]), {"campaign": ""}),
        (reverse("join_with_code"), None),
        (reverse("join_with_code"), {"code": "nope"}),
        (reverse("password_change"), None),
        (reverse("password_change"), {"old_password": "x", "new_password1": "a"}),
        (reverse("force_create"), None),
        (reverse("force_create"), {"name": ""}),
        (reverse("force_detail", args=[force.pk]), None),
        (reverse("force_edit", args=[force.pk]), None),
        (reverse("force_edit", args=[force.pk]), {"name": ""}),
        (reverse("force_import"), None),
        (reverse("force_restore"), None),
        (reverse("unit_create", args=[force.pk]), None),
        (reverse("unit_create", args=[force.pk]), {"name": ""}),
        (reverse("unit_detail", args=[squad.pk]), None),
        (reverse("unit_edit", args=[squad.pk]), None),
        (reverse("unit_remove", args=[squad.pk]), None),
        (reverse("unit_requisition", args=[squad.pk, "fresh_recruits"]), None),
        (reverse("unit_requisition", args=[squad.pk, "rearm_and_resupply"]), {}),
        (reverse("unit_reward", args=[squad.pk]), None),
        (reverse("battle_create"), None),
        (reverse("battle_create"), {"battle_size": "nope"}),
        (reverse("army_muster", args=[fresh.mine.pk]), None),
        (reverse("army_record", args=[fresh.mine.pk]), None),
        (reverse("army_record", args=[fresh.mine.pk]), {"result": "", "marked": ""}),
        (reverse("out_of_action", args=[test.pk]), None),
        (reverse("promotion_settle", args=[promotion.pk]), None),
        (reverse("campaign_detail", args=[table.campaign.pk]), None),
    ]


def test_it_links_every_help_text_and_error_to_its_field_on_the_players_pages(client, places):
    table, test, promotion, fresh = places
    fresh.mine.force.player = table.owner
    fresh.mine.force.save(update_fields=["player"])

    client.force_login(table.owner)
    found = []
    for url, data in _pages(*places):
        response = client.get(url) if data is None else client.post(url, data)
        assert response.status_code in (200, 400), url
        found += [f"{url}: {problem}" for problem in problems(response.content.decode())]

    assert found == []


def test_it_links_the_help_texts_of_the_account_pages(client):
    signup = reverse("signup")
    pages = [client.get(signup), client.post(signup, {"username": "x", "password1": "a"})]
    pages.append(client.get(reverse("login")))
    pages.append(client.post(reverse("login"), {"username": "x", "password": "y"}))

    for response in pages:
        assert response.status_code == 200
        assert problems(response.content.decode()) == []


def test_it_links_the_help_texts_of_the_new_password_page(client, django_user_model):
    user = django_user_model.objects.create_user("forgetful", password="old-pass-123")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)

    response = client.get(reverse("password_reset_confirm", args=[uid, token]), follow=True)

    html = response.content.decode()
    assert "Choose a new password" in html
    assert problems(html) == []


def test_it_would_notice_a_help_text_nobody_can_reach():
    html = (
        '<input name="a" aria-describedby="id_a_helptext"><p id="id_b_helptext">Help</p>'
        "<p>Rules:<ul><li>one</li></ul></p>"
    )

    assert problems(html) == [
        "a is described by #id_a_helptext, not on the page",
        "#id_b_helptext describes no field",
        "<ul> inside a <p>",
    ]
