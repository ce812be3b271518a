"""Battle results read at a glance (and without colour), and the site has its icon."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.helpers import log_in
from tests.factories import (
    make_campaign,
    make_character,
    make_force,
    make_recorded_battle,
    make_user,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Each badge's text, background and the WCAG contrast ratio of its text on that background.
BADGES = """
    [...document.querySelectorAll('.badge--result')].map(badge => {
        const style = getComputedStyle(badge);
        const rgb = value => value.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const luminance = value => {
            const [r, g, b] = rgb(value).map(c => {
                c = c / 255;
                return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
            });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)]
            .sort((a, b) => b - a);
        return [badge.textContent.trim(), style.backgroundColor, (light + 0.05) / (dark + 0.05)];
    })
"""


def test_it_gives_victory_defeat_and_draw_their_own_readable_colours(page: Page, live_server):
    """Issue 13 item 7: three colours, each at a contrast of at least 4.5:1, with its name."""
    campaign = make_campaign(name="Vigilus")
    wolves = make_force(player=make_user("alice"), campaign=campaign, name="Iron Wolves")
    talons = make_force(player=make_user("bruno"), campaign=campaign, name="Red Talons")
    make_character(wolves, name="Captain Vorn")
    make_character(talons, name="Captain Rhal")
    make_recorded_battle(wolves, talons, campaign=campaign)
    make_recorded_battle(wolves, talons, campaign=campaign, result="draw")
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + reverse("campaign_detail", args=[campaign.pk]))

    expect(page.locator(".badge--result")).to_have_count(4)
    badges = page.evaluate(BADGES)
    colours = {text: background for text, background, _ in badges}
    assert set(colours) == {"Victory", "Defeat", "Draw"}
    assert len(set(colours.values())) == 3
    assert all(ratio >= 4.5 for _, _, ratio in badges), badges


def test_it_serves_its_icon_within_the_content_security_policy(page: Page, live_server):
    """Issue 13 item 7: a small SVG icon every page links, allowed by the policy."""
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text))
    page.goto(live_server.url + reverse("home"))

    href = page.locator('link[rel="icon"]').get_attribute("href")
    icon = page.request.get(live_server.url + href)
    loaded = page.evaluate(
        """href => new Promise(done => {
            const img = new Image();
            img.onload = () => done(img.naturalWidth > 0);
            img.onerror = () => done(false);
            img.src = href;
        })""",
        href,
    )

    assert icon.ok and icon.headers["content-type"].startswith("image/svg+xml")
    assert loaded
    assert [text for text in seen if "Content Security Policy" in text] == []
