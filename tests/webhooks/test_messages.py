"""Each piece of news, as the group's chat reads it: Discord's shape and our signed JSON,
written from the rows when the worker runs, with a link back to the page."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from campaign import rules, services
from campaign.models import Webhook, WebhookDelivery
from campaign.services import UnitOutcome
from tests.factories import make_force, make_user
from tests.services.earned import set_xp
from tests.services.fights import go_to_battle

from .conftest import add_hook

pytestmark = pytest.mark.django_db
SITE = "https://crusade.example.org"
SIGNATURE = "X-Crusade-Signature"


def battle_of(table, **kwargs):
    return go_to_battle(
        [table.leader, table.squad],
        [table.rival_leader, table.rival_squad],
        campaign=table.campaign,
        **kwargs,
    )


def completed(table, capture, **kwargs):
    fight = battle_of(table, **kwargs)
    fight.report(table.squad, UnitOutcome(destroyed=True))
    with capture(execute=True):
        fight.record()
    return fight


def test_it_announces_a_completed_battle_to_discord_with_each_sides_headline(
    table, target, django_capture_on_commit_callbacks
):
    add_hook(table, target.url("/api/webhooks/1/token"))
    set_xp(table.leader, rules.Rank.HEROIC.min_xp - 1)

    fight = completed(table, django_capture_on_commit_callbacks)

    battles = [r for r in target.received if "Battle completed" in r.body.decode()]
    assert len(battles) == 1
    sent = battles[0]
    assert sent.path == "/api/webhooks/1/token"
    embed = sent.json["embeds"][0]
    assert embed["title"] == "Battle completed: Incursion battle"
    assert embed["url"] == f"{SITE}{fight.battle.get_absolute_url()}"
    assert embed["footer"] == {"text": "Vraks"}
    lines = embed["description"].splitlines()
    assert lines[0].startswith("13th Siege Regiment: Victory, +")
    assert f"promoted: Lord Commissar Vell ({rules.Rank.HEROIC.label})" in lines[0]
    assert "out of action: 1st Line Company" in lines[0]
    assert lines[1].startswith("Plague Wall: ")
    assert sent.json["allowed_mentions"] == {"parse": []}
    assert SIGNATURE not in sent.headers
    delivery = WebhookDelivery.objects.get(event="battle_completed")
    assert (delivery.status, delivery.tries, delivery.response_code) == ("delivered", 1, 204)


def test_it_signs_the_json_body_with_the_webhooks_own_secret(
    table, target, django_capture_on_commit_callbacks
):
    hook = add_hook(table, target.url(), kind=Webhook.Kind.SIGNED_JSON, on_promotion=False)

    fight = completed(table, django_capture_on_commit_callbacks)

    (sent,) = target.received
    expected = hmac.new(hook.secret.encode(), sent.body, hashlib.sha256).hexdigest()
    assert sent.headers[SIGNATURE] == f"sha256={expected}"
    assert sent.headers["X-Crusade-Event"] == "battle_completed"
    body = sent.json
    assert body["event"] == "battle_completed"
    assert body["campaign"]["name"] == "Vraks"
    assert body["url"] == f"{SITE}{fight.battle.get_absolute_url()}"
    krieg, plague = body["details"]["sides"]
    assert (krieg["force"], krieg["result"]) == ("13th Siege Regiment", "win")
    assert krieg["out_of_action"] == ["1st Line Company"]
    assert krieg["xp_gained"] >= 2
    assert plague["force"] == "Plague Wall"
    assert hook.secret not in sent.body.decode()


def test_it_announces_a_promotion_to_the_two_highest_ranks_only(
    table, target, django_capture_on_commit_callbacks
):
    add_hook(table, target.url(), kind=Webhook.Kind.SIGNED_JSON, on_battle=False)
    set_xp(table.leader, rules.Rank.HEROIC.min_xp - 1)

    completed(table, django_capture_on_commit_callbacks)

    (sent,) = target.received
    assert sent.json["event"] == "promotion"
    assert sent.json["title"] == f"Lord Commissar Vell is now {rules.Rank.HEROIC.label}"
    assert sent.json["details"]["units"] == [
        {
            "unit": "Lord Commissar Vell",
            "force": "13th Siege Regiment",
            "rank": rules.Rank.HEROIC.label,
        }
    ]


def test_it_says_nothing_of_a_promotion_to_a_lower_rank(
    table, target, django_capture_on_commit_callbacks
):
    add_hook(table, target.url(), kind=Webhook.Kind.SIGNED_JSON, on_battle=False)
    set_xp(table.leader, rules.Rank.BLOODED.min_xp - 1)

    completed(table, django_capture_on_commit_callbacks)

    assert target.received == []


def test_it_announces_a_dispute_and_the_organiser_settling_it(
    table, target, django_capture_on_commit_callbacks
):
    add_hook(table, target.url(), kind=Webhook.Kind.SIGNED_JSON, on_battle=False)
    fight = battle_of(table)
    with django_capture_on_commit_callbacks(execute=True):
        fight.record_side(table.krieg, "win")
    with django_capture_on_commit_callbacks(execute=True):
        fight.record_side(table.plague, "win")

    (disputed,) = target.received
    assert disputed.json["event"] == "battle_disputed"
    assert disputed.json["title"] == "Results disagree: Incursion battle"
    assert "13th Siege Regiment records Victory" in disputed.json["text"]

    with django_capture_on_commit_callbacks(execute=True):
        services.settle_battle(
            actor=table.organiser,
            battle=fight.battle,
            results={
                fight.participant(table.krieg).pk: "win",
                fight.participant(table.plague).pk: "loss",
            },
            reason="The photo shows the objective held (private note)",
        )

    settled = target.received[1]
    assert settled.json["event"] == "battle_settled"
    assert "Plague Wall: Defeat" in settled.json["text"]
    assert "private note" not in settled.body.decode()
    assert len(target.received) == 2  # the completion is not in this webhook's news


def test_it_announces_a_new_member_and_a_new_force(
    table, target, django_capture_on_commit_callbacks
):
    add_hook(table, target.url(), kind=Webhook.Kind.SIGNED_JSON)
    player = make_user("ferrus", email="ferrus@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        make_force(player=player, campaign=table.campaign, name="Iron Tenth")

    joined, mustered = target.received
    assert joined.json["event"] == "member_joined"
    assert joined.json["title"] == "ferrus joined Vraks"
    assert mustered.json["event"] == "force_created"
    assert mustered.json["title"] == "Iron Tenth joins Vraks"
    assert "ferrus@example.org" not in joined.body.decode() + mustered.body.decode()


def test_it_announces_a_log_entry_but_not_one_hidden_before_it_was_sent(
    table, target, django_capture_on_commit_callbacks
):
    add_hook(table, target.url(), kind=Webhook.Kind.DISCORD)
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Dawn", text="The guns spoke."
        )

    (sent,) = target.received
    embed = sent.json["embeds"][0]
    assert embed["title"] == "Campaign log: Dawn"
    assert embed["description"].startswith("The guns spoke.")
    assert embed["url"] == f"{SITE}{entry.get_absolute_url()}"

    with django_capture_on_commit_callbacks(execute=False) as queued:
        services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Spoiler", text="..."
        )
    hidden = table.campaign.log_entries.get(title="Spoiler")
    services.hide_log_entry(actor=table.organiser, entry=hidden, reason="Spoils the finale")
    for callback in queued:
        callback()
    assert len(target.received) == 1


def test_it_announces_the_next_phase(table, target, django_capture_on_commit_callbacks):
    add_hook(table, target.url(), kind=Webhook.Kind.SIGNED_JSON)
    services.define_phase(
        actor=table.organiser, campaign=table.campaign, name="The Landing", narrative="Drop."
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.advance_phase(
            actor=table.organiser, campaign=table.campaign, reason="Go", from_phase=None
        )

    (sent,) = target.received
    assert sent.json["event"] == "phase_advanced"
    assert sent.json["title"] == "Vraks: The Landing begins"
    assert sent.json["text"] == "Phase 1: The Landing.\nDrop."
    assert sent.json["url"] == f"{SITE}{table.campaign.get_absolute_url()}"


def test_it_sends_only_the_news_a_webhook_ticked(table, target, django_capture_on_commit_callbacks):
    add_hook(
        table,
        target.url(),
        on_battle=False,
        on_dispute=False,
        on_promotion=False,
        on_newcomer=False,
        on_phase=False,
    )
    completed(table, django_capture_on_commit_callbacks)

    assert target.received == []
    assert not WebhookDelivery.objects.exists()


def test_it_links_to_the_address_the_admin_was_used_at_without_a_site_url(
    table, target, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = ""
    services.add_webhook(
        actor=table.organiser,
        campaign=table.campaign,
        name="Chat",
        url=target.url(),
        kind=Webhook.Kind.SIGNED_JSON,
        site_url="https://tracker.example.net",
    )
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.write_log_entry(
            actor=table.krieg.player, campaign=table.campaign, title="Dawn", text="..."
        )

    (sent,) = target.received
    assert sent.json["url"] == f"https://tracker.example.net{entry.get_absolute_url()}"
