"""Every form that changes something carries its one-time token (`{% once %}`), on the
players' pages, the htmx regions and the organisers' admin: a form without one could be
applied twice again.

Not checked: the admin's list form, which only picks rows for an action; the action's
reason page (checked) is the form that changes them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign import once, services
from campaign.models import OutOfActionTest, Promotion
from tests.concurrency.live import PageReader
from tests.factories import make_character, make_force, make_unit

from .helpers import fight_alone, set_table

pytestmark = pytest.mark.django_db

NO_TOKEN = {reverse("logout"), reverse("admin:logout")}
"""Forms that may go without: logging out twice is harmless and changes no Crusade state."""

WOLVES = Path(__file__).resolve().parents[1] / "rosters/samples/app-text/space-wolves-boop.txt"


def forms_without_a_token(html: str) -> list[str]:
    """The actions of the page's POST forms that carry no `form_once` field."""
    return [
        form["action"] or "(this page)"
        for form in PageReader(html).forms
        if form["method"].lower() == "post"
        and form["action"] not in NO_TOKEN
        and once.FIELD not in form["names"]
    ]


@pytest.fixture
def places():
    """A campaign with a bit of everything: a battle to record, an invitation waiting, a
    test to take, a promotion to settle; who sees which page."""
    table = set_table()
    owner, campaign = table.owner, table.campaign
    reserve = make_force(player=owner, campaign=campaign, name="Reserve Company")
    veteran = make_character(reserve, name="Veteran Sergeant")
    fallen = make_unit(reserve, name="Squad Fallen")
    fight_alone(reserve, [veteran, fallen], destroyed=[fallen])
    test = OutOfActionTest.objects.get(unit=fallen)
    promotion = Promotion.objects.create(unit=table.captain, rank=1)
    guest = make_force(player=table.member, campaign=campaign, name="Guest Company")
    make_character(guest, name="Guest Captain")
    invitation = services.start_battle(
        actor=owner, force=reserve, opponents=[guest], battle_size="Incursion", campaign=campaign
    )
    entry = services.write_log_entry(actor=owner, campaign=campaign, title="Dawn", text="Guns.")
    return {
        "table": table,
        "owner": [
            reverse("dashboard"),
            reverse("join_with_code"),
            reverse("join_campaign", args=[campaign.invite_code]),
            reverse("password_change"),
            reverse("force_create"),
            reverse("campaign_create"),
            reverse("force_detail", args=[table.force.pk]),
            reverse("force_edit", args=[table.force.pk]),
            reverse("force_import"),
            reverse("force_import_units", args=[table.force.pk]),
            reverse("force_restore"),
            reverse("unit_create", args=[table.force.pk]),
            reverse("unit_detail", args=[table.squad.pk]),
            reverse("unit_edit", args=[table.squad.pk]),
            reverse("unit_remove", args=[table.squad.pk]),
            *(
                reverse("unit_requisition", args=[table.captain.pk, requisition])
                for requisition in (
                    "renowned_heroes",
                    "legendary_veterans",
                    "rearm_and_resupply",
                    "repair_and_recuperate",
                    "fresh_recruits",
                )
            ),
            reverse("unit_reward", args=[table.squad.pk]),
            reverse("promotion_settle", args=[promotion.pk]),
            reverse("out_of_action", args=[test.pk]),
            reverse("battle_create"),
            reverse("battle_detail", args=[invitation.pk]),
            reverse("army_record", args=[table.mine.pk]),
            reverse("campaign_detail", args=[campaign.pk]),
            reverse("log_entry_create", args=[campaign.pk]),
            reverse("log_entry_edit", args=[entry.pk]),
        ],
        "member": [
            reverse("force_detail", args=[guest.pk]),
            reverse("battle_detail", args=[invitation.pk]),
        ],
        "organiser": [
            reverse("admin:campaign_campaign_add"),
            reverse("admin:campaign_campaign_change", args=[campaign.pk]),
            reverse("admin:campaign_crusadeforce_change", args=[table.force.pk]),
            reverse("admin:campaign_unit_change", args=[table.squad.pk]),
            reverse("admin:campaign_battle_change", args=[table.battle.pk]),
            reverse("admin:campaign_battle_void", args=[table.battle.pk]),
            reverse("admin:campaign_battle_settle", args=[table.battle.pk]),
        ],
        "anonymous": [reverse("signup"), reverse("login"), reverse("password_reset")],
        "muster": reverse("army_muster", args=[invitation.participants.get(force=reserve).pk]),
    }


def _checked(client, response, url: str) -> None:
    assert response.status_code in (200, 400), f"{url}: {response.status_code}"
    html = response.content.decode()
    assert "<form" in html, f"{url}: no form to check"
    assert forms_without_a_token(html) == [], f"{url}: POST forms without a token"


def test_it_puts_a_token_in_every_form_of_every_page(client, places):
    for who in ("owner", "member", "organiser"):
        client.force_login(getattr(places["table"], who))
        for url in places[who]:
            _checked(client, client.get(url), url)
    client.force_login(places["table"].owner)
    _checked(client, client.get(places["muster"]), places["muster"])
    client.logout()
    for url in places["anonymous"]:
        _checked(client, client.get(url), url)


def test_it_puts_a_token_in_the_forms_a_post_shows(client, places):
    """Pages shown in answer to a POST: the record preview, the import preview, a form
    with its errors, the htmx regions of the Order of Battle, an admin action's reason."""
    table = places["table"]
    client.force_login(table.owner)
    record = reverse("army_record", args=[table.mine.pk])
    shown = {
        record: client.post(record, {"result": "win"}),
        "import": client.post(
            reverse("force_import"), {"file": SimpleUploadedFile(WOLVES.name, WOLVES.read_bytes())}
        ),
        "errors": client.post(reverse("unit_edit", args=[table.squad.pk]), {"name": ""}),
    }
    quiet = make_force(player=table.owner, campaign=table.campaign, name="Quiet Company")
    shown["htmx"] = client.post(
        reverse("force_requisition", args=[quiet.pk, "increase_supply_limit"]),
        HTTP_HX_REQUEST="true",
    )
    client.force_login(table.organiser)
    shown["action"] = client.post(
        reverse("admin:campaign_unit_changelist"),
        {"action": "remove_from_order_of_battle", "_selected_action": [table.squad.pk]},
    )
    for what, response in shown.items():
        if what == "htmx":
            assert response.status_code == 200 and "<form" in response.content.decode()
            assert forms_without_a_token(response.content.decode()) == [], what
        else:
            _checked(client, response, what)


def test_it_would_notice_a_form_without_a_token():
    html = (
        '<form method="post" action="/a/"><input type="hidden" name="form_once" value="x"></form>'
        '<form method="post" action="/b/"></form><form method="get" action="/c/"></form>'
        f'<form method="post" action="{reverse("logout")}"></form>'
    )

    assert forms_without_a_token(html) == ["/b/"]


FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.DOTALL | re.IGNORECASE)


def test_it_puts_a_token_in_every_post_form_of_the_templates():
    """Also the forms no page above happens to show."""
    missing = []
    for path in sorted(Path(settings.BASE_DIR, "templates").rglob("*.html")):
        for form in FORM.findall(path.read_text()):
            posts = re.search(r'method="post"', form, re.IGNORECASE)
            logout = re.search(r"\{% (url|address) 'logout' %\}", form)
            if posts and "{% once" not in form and not logout:
                missing.append(f"{path.relative_to(settings.BASE_DIR)}: {form[:80]}")
    assert missing == []
