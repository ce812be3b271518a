"""On a phone with JavaScript off: the dashboard's news pages and clears, the email
settings save, and the link in an email stops its kind."""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from campaign import email_links, players
from campaign.models import EmailKind, HistoryAction, HistoryEntry, PlayerSettings
from campaign.selectors import since
from tests.browser.helpers import log_in
from tests.factories import make_campaign, make_force, make_user

pytestmark = pytest.mark.django_db(transaction=True)

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 375, "height": 800})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_it_pages_and_clears_the_news_and_stops_an_email_without_javascript(
    page: Page, live_server
):
    campaign = make_campaign(name="The Siege of Vraks Prime and its Long Aftermath")
    reader = make_user("reader")
    make_force(player=reader, campaign=campaign, name="Readers")
    rival = make_force(campaign=campaign, name="The Unbroken Host of the Ninth Crusade Fleet")
    PlayerSettings.objects.create(user=reader, seen_up_to=timezone.now() - timedelta(hours=2))
    start = timezone.now() - timedelta(hours=1)
    HistoryEntry.objects.bulk_create(
        HistoryEntry(
            action=HistoryAction.BATTLE_RECORDED,
            summary=f"{rival.name}: Victory in the long battle for Hive Tertius number {n}",
            campaign=campaign,
            force=rival,
            actor=rival.player,
            created_at=start + timedelta(minutes=n),
        )
        for n in range(since.PER_PAGE + 2)
    )

    log_in(page, live_server.url, "reader")
    page.goto(live_server.url + reverse("dashboard"))
    news = page.locator("#news")
    expect(news.get_by_role("heading", name="Since you last looked")).to_be_visible()
    expect(news.get_by_text("Page 1 of 2")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    news.get_by_role("link", name="Older").click()
    expect(page.locator("#news").get_by_text("Hive Tertius number 0")).to_be_visible()
    page.get_by_role("button", name="Mark all as seen").click()
    expect(page.locator(".message--success")).to_contain_text("All caught up")
    expect(page.locator("#news")).to_contain_text("All quiet in your campaigns")

    page.get_by_role("link", name="Emails").click()
    page.get_by_label("Results that disagree").uncheck()
    page.get_by_role("button", name="Save my choices").click()
    expect(page.locator(".message--success")).to_contain_text("Saved")
    assert not players.settings_of(reader).wants(EmailKind.DISPUTE)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    page.get_by_role("button", name=f"Log out {reader.username}").click()
    token = email_links.token(reader.pk, EmailKind.BATTLE_INVITATION)
    page.goto(live_server.url + reverse("email_stop", args=[token]))
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.get_by_role("button", name="Stop these emails").click()
    expect(page.get_by_role("heading", name="These emails are stopped")).to_be_visible()
    assert not players.settings_of(reader).wants(EmailKind.BATTLE_INVITATION)
