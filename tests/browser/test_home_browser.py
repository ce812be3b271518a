"""The home page in real Chromium."""

from playwright.sync_api import expect


def test_it_shows_the_welcome_heading(live_server, page):
    page.goto(live_server.url + "/")

    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_role("link", name="Log in to your campaign")).to_be_visible()
